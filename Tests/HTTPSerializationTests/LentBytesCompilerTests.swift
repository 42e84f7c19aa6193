#if Macros
import Testing

/// The bytes the package lends to a caller's closure (a multipart body's `Span`, the event that
/// carries it) cannot be kept past the call: the compiler refuses it, so no code can read a
/// chunk's bytes after the parser has moved on.
@Suite("Lent bytes under the compiler: a multipart body's span and its event cannot outlive the call")
struct LentBytesCompilerTests {
    /// A parse whose handler runs `statement` on the body's bytes, on line 7 of the checked
    /// source (the harness's import is line 1).
    static func parsing(_ statement: String) -> String {
        """
        var keptBytes: Span<UInt8>? = nil
        var keptEvent: MultipartBodyParser.Event? = nil
        var parser = try MultipartBodyParser(boundary: "b")
        let chunk = Array("--b\\r\\nContent-Disposition: form-data; name=\\"a\\"\\r\\n\\r\\nx\\r\\n--b--".utf8)
        try parser.parse(chunk.span) { event in
            if case .body(let bytes) = event { \(statement) }
        }
        """
    }

    @Test("keeping a body's span, a copy of it or its event is a compile error naming the lifetime",
          arguments: ["keptBytes = bytes", "let copy = bytes; keptBytes = copy", "keptEvent = event"])
    func keepingLentBytesDoesNotCompile(_ statement: String) throws {
        let checked = try GeneratedModelCompilerTests.typecheck(Self.parsing(statement), ownership: true)
        #expect(!checked.accepted, "\(checked.output)")
        // At the statement, or at the handler's parameter it lets escape (the event: line 6).
        #expect(checked.output.contains(/\.swift:[67]:\d+: error: lifetime-dependent/), "\(checked.output)")
    }

    @Test("a handler that reads a body's span in place compiles: what the compiler refuses is the keeping")
    func readingLentBytesInPlaceCompiles() throws {
        let reading = try GeneratedModelCompilerTests.typecheck(Self.parsing("print(bytes.count, bytes[0])"), ownership: true)
        #expect(reading.accepted, "\(reading.output)")
    }
}
#endif
