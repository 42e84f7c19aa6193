#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Testing
import HTTPSerializationCore

/// What a test expects of one part.
struct ExpectedPart: Equatable, CustomStringConvertible {
    var name: String?
    var fileName: String?
    var contentType: String?
    var body: [UInt8]

    init(name: String?, fileName: String? = nil, contentType: String? = nil, body: [UInt8]) {
        (self.name, self.fileName, self.contentType, self.body) = (name, fileName, contentType, body)
    }

    init(_ part: MultipartReceivedPart) {
        self.init(name: part.head.name, fileName: part.head.fileName, contentType: part.head.contentType, body: Array(part.body))
    }

    var description: String { "\(name ?? "nil") \(fileName ?? "-") \(contentType ?? "-") \(body.count) bytes" }
}

/// Parses `body` fed in the chunk sizes `sizes` draws (cycling), collecting the parts.
func parseInChunks(_ body: [UInt8], contentType: String, limits: MultipartParsingLimits = MultipartParsingLimits(),
                   sizes: inout SplitMix, maximumChunk: Int) throws -> [ExpectedPart] {
    var parser = try MultipartBodyParser(contentType: contentType, limits: limits)
    var parts: [ExpectedPart] = []
    var ended = 0
    var offset = 0
    do {
        let all = body.span
        while offset < all.count {
            let size = min(Int(sizes.next() % UInt64(maximumChunk)) + 1, all.count - offset)
            try parser.parse(all.extracting(offset..<(offset + size))) { event in
                switch event {
                case .head(let head): parts.append(ExpectedPart(name: head.name, fileName: head.fileName, contentType: head.contentType, body: []))
                case .body(let bytes): for index in bytes.indices { parts[parts.count - 1].body.append(bytes[index]) }
                case .end: ended += 1
                }
            }
            offset += size
        }
    }
    try parser.finish()
    #expect(ended == parts.count)
    return parts
}

@Suite("Multipart parser: reading back what is written, in any chunking")
struct MultipartParserRoundTripTests {
    static let nameCharacters: [String] = ["a", "b", "Z", "0", "_", "[", "]", " ", "\"", "\\", "%", ";", "=", "\r", "\n", "\r\n", "\u{E9}", "\u{65E5}", "\u{1F680}", "'", "*"]

    static func text(_ generator: inout SplitMix, maximum: Int) -> String {
        var text = ""
        for _ in 0..<Int(generator.next() % UInt64(maximum + 1)) {
            text += nameCharacters[Int(generator.next() % UInt64(nameCharacters.count))]
        }
        // A browser's escapes written literally cannot be told from the escapes themselves.
        if ["%22", "%0D", "%0A", "%0d", "%0a"].contains(where: { text.contains($0) }) { text.removeAll { $0 == "%" } }
        return text
    }

    static func bytes(_ generator: inout SplitMix, maximum: Int) -> [UInt8] {
        let count = Int(generator.next() % UInt64(maximum + 1))
        // Many CR, LF and dashes, so near-delimiters are common.
        let alphabet: [UInt8] = [0x0D, 0x0A, 0x2D, 0x2D, 0x41, 0x00, 0xFF, 0x42]
        return (0..<count).map { _ in generator.next() % 3 == 0 ? UInt8(truncatingIfNeeded: generator.next()) : alphabet[Int(generator.next() % 8)] }
    }

    @Test("every form MultipartFormData writes parses back to the same parts, in seeded chunkings from 1 byte up")
    func writtenFormsParseBack() throws {
        var generator = SplitMix(state: 0x5EED_2301)
        var checked = 0
        for round in 0..<400 {
            var form = try MultipartFormData(boundary: "Boundary-\(round)-x")
            var expected: [ExpectedPart] = []
            for _ in 0..<Int(generator.next() % 6) {
                let name = Self.text(&generator, maximum: 8)
                let body = Self.bytes(&generator, maximum: round % 10 == 0 ? 20_000 : 300)
                if generator.next() % 2 == 0 {
                    try form.appendPart(formData: Data(body), name: name)
                    expected.append(ExpectedPart(name: name, body: body))
                } else {
                    let fileName = Self.text(&generator, maximum: 10)
                    try form.appendPart(fileData: Data(body), name: name, fileName: fileName, mimeType: "application/x-test")
                    expected.append(ExpectedPart(name: name, fileName: fileName, contentType: "application/x-test", body: body))
                }
            }
            // A body that holds the delimiter is refused by the writer: nothing to read back.
            guard let encoded = try? form.encodedData() else { continue }
            for maximumChunk in [1, 7, 64, 70_000] {
                var sizes = SplitMix(state: UInt64(round * 31 + maximumChunk))
                let parsed = try parseInChunks(Array(encoded), contentType: form.contentType, sizes: &sizes, maximumChunk: maximumChunk)
                #expect(parsed == expected, "round \(round), chunks up to \(maximumChunk)")
            }
            checked += 1
        }
        #expect(checked > 300)
    }

    @Test("the whole-buffer helper reads the same parts")
    func wholeBufferHelper() throws {
        var form = try MultipartFormData(boundary: "XyZ")
        try form.appendPart(formData: Data("1".utf8), name: "a")
        try form.appendPart(fileData: Data([0, 1, 2]), name: "f", fileName: "x.bin", mimeType: "application/octet-stream")
        let parts = try MultipartBodyParser.parts(of: try form.encodedData(), contentType: form.contentType)
        #expect(parts.map(ExpectedPart.init) == [
            ExpectedPart(name: "a", body: Array("1".utf8)),
            ExpectedPart(name: "f", fileName: "x.bin", contentType: "application/octet-stream", body: [0, 1, 2]),
        ])
    }
}

@Suite("Multipart parser: RFC 2046 and 7578 details")
struct MultipartParserSyntaxTests {
    static func parse(_ text: String, contentType: String = "multipart/form-data; boundary=b", limits: MultipartParsingLimits = MultipartParsingLimits()) throws -> [ExpectedPart] {
        try MultipartBodyParser.parts(of: Data(text.utf8), contentType: contentType, limits: limits).map(ExpectedPart.init)
    }

    @Test("a preamble, transport padding after delimiters and an epilogue are skipped")
    func preambleEpiloguePadding() throws {
        let body = "This is the preamble.\r\n--b  \t\r\nContent-Disposition: form-data; name=a\r\n\r\none\r\n--b\r\ncontent-disposition: form-data; name=\"b\"\r\n\r\ntwo\r\n--b-- trailing\r\nThis is the epilogue.\r\n"
        #expect(try Self.parse(body) == [ExpectedPart(name: "a", body: Array("one".utf8)), ExpectedPart(name: "b", body: Array("two".utf8))])
    }

    @Test("the first delimiter may open the body, and a part may be empty or have no headers beyond its name")
    func emptyParts() throws {
        let body = "--b\r\nContent-Disposition: form-data; name=\"e\"\r\n\r\n\r\n--b\r\nContent-Disposition: form-data; name=\"f\"\r\n\r\n--x\r\n--b--"
        #expect(try Self.parse(body) == [ExpectedPart(name: "e", body: []), ExpectedPart(name: "f", body: Array("--x".utf8))])
    }

    @Test("filename* (RFC 8187) wins over filename, in UTF-8 or ISO-8859-1")
    func extendedFileNames() throws {
        let body = "--b\r\nContent-Disposition: form-data; name=\"f\"; filename=\"EURO rates.txt\"; filename*=UTF-8''%E2%82%AC%20rates.txt\r\n\r\nx\r\n"
            + "--b\r\nContent-Disposition: form-data; name=\"g\"; filename*=iso-8859-1'en'caf%E9.txt\r\n\r\ny\r\n--b--\r\n"
        #expect(try Self.parse(body).map(\.fileName) == ["\u{20AC} rates.txt", "caf\u{E9}.txt"])
    }

    @Test("quotes: browsers' %22 escapes are undone, a quoted pair before an inner quote is read, other backslashes stay")
    func quotedValues() throws {
        let body = "--b\r\nContent-Disposition: form-data; name=\"say %22hi%22\"; filename=\"C:\\dir\\a.txt\"\r\n\r\n1\r\n"
            + "--b\r\nContent-Disposition: form-data; name=\"q\"; filename=\"a\\\"b.txt\"\r\n\r\n2\r\n"
            + "--b\r\nContent-Disposition: form-data; name=\"ends\\\"; filename=\"x\\\"\r\n\r\n3\r\n--b--"
        let parts = try Self.parse(body)
        #expect(parts.map(\.name) == ["say \"hi\"", "q", "ends\\"])
        #expect(parts.map(\.fileName) == ["C:\\dir\\a.txt", "a\"b.txt", "x\\"])
    }

    @Test("header names match in any case, folded lines are joined, repeated fields kept")
    func headerFields() throws {
        let body = "--b\r\nCONTENT-DISPOSITION: form-data;\r\n name=\"folded\"\r\ncontent-TYPE: text/plain\r\nX-A: 1\r\nX-A: 2\r\n\r\nv\r\n--b--"
        let part = try #require(try MultipartBodyParser.parts(of: Data(body.utf8), contentType: "multipart/form-data; boundary=b").first)
        #expect(part.head.name == "folded")
        #expect(part.head.contentType == "text/plain")
        #expect(part.head.headers.value(forHTTPHeaderField: "x-a") == "1, 2")
        #expect(part.head.headers.count == 4)
    }

    @Test("multipart/mixed parts need no names; a quoted boundary with spaces is read")
    func mixedWithoutNames() throws {
        let body = "--a b\r\nContent-Type: text/plain\r\n\r\none\r\n--a b\r\n\r\ntwo\r\n--a b--"
        let parts = try Self.parse(body, contentType: "Multipart/Mixed; boundary=\"a b\"")
        #expect(parts == [ExpectedPart(name: nil, contentType: "text/plain", body: Array("one".utf8)), ExpectedPart(name: nil, body: Array("two".utf8))])
    }
}

@Suite("Multipart parser: bad input is a typed error within its limit")
struct MultipartParserBadInputTests {
    static func error(_ body: [UInt8], contentType: String = "multipart/form-data; boundary=b", limits: MultipartParsingLimits = MultipartParsingLimits(),
                      chunk: Int = 4096) -> MultipartParsingError? {
        do {
            var sizes = SplitMix(state: 1)
            _ = try parseInChunks(body, contentType: contentType, limits: limits, sizes: &sizes, maximumChunk: chunk)
            return nil
        } catch let error as MultipartParsingError {
            return error
        } catch {
            Issue.record("not a MultipartParsingError: \(error)")
            return nil
        }
    }

    static func error(_ text: String, contentType: String = "multipart/form-data; boundary=b", limits: MultipartParsingLimits = MultipartParsingLimits()) -> MultipartParsingError? {
        error(Array(text.utf8), contentType: contentType, limits: limits)
    }

    static let field = "--b\r\nContent-Disposition: form-data; name=\"a\"\r\n\r\n"

    @Test("a body never closed, in every state, is unterminated")
    func unterminated() {
        #expect(Self.error("") == nil, "an empty body is a form without parts, as the writer makes it")
        #expect(Self.error("no delimiter at all") == .unterminated(state: "before its first boundary"))
        #expect(Self.error("--b") == .unterminated(state: "on a boundary line"))
        #expect(Self.error("--b\r\nContent-Disposition: form") == .unterminated(state: "inside the headers of part 1"))
        #expect(Self.error(Self.field + "value") == .unterminated(state: "inside part 1 (\"a\")"))
    }

    @Test("a boundary followed by anything but CRLF, spaces or --, and a bare-LF body, are malformed delimiters")
    func malformedDelimiters() {
        #expect(Self.error("--bX\r\n") == .malformedDelimiter(offset: 0))
        #expect(Self.error("--b\nContent-Disposition: form-data; name=a\n\nv\n--b--\n") == .malformedDelimiter(offset: 0))
        #expect(Self.error("--b-x") == .malformedDelimiter(offset: 0))
        #expect(Self.error("--b\r") == .unterminated(state: "on a boundary line"))
    }

    @Test("a part body holding the boundary without a CRLF before it is data")
    func boundaryWithoutCRLFIsData() throws {
        let parts = try MultipartParserSyntaxTests.parse(Self.field + "x--b y--b--\r\n--b--")
        #expect(parts == [ExpectedPart(name: "a", body: Array("x--b y--b--".utf8))])
    }

    @Test("header lines without a colon, with bare LF or with control characters are malformed")
    func malformedHeaders() {
        #expect(Self.error("--b\r\nno colon here\r\n\r\nv\r\n--b--") == .malformedHeader(part: 1, line: "no colon here"))
        #expect(Self.error("--b\r\nA: 1\nB: 2\r\n\r\nv\r\n--b--") == .malformedHeader(part: 1, line: "A: 1"))
        #expect(Self.error("--b\r\nBad Name: 1\r\n\r\nv\r\n--b--") == .malformedHeader(part: 1, line: "Bad Name: 1"))
        #expect(Self.error("--b\r\nA: x\u{1}y\r\n\r\nv\r\n--b--") == .malformedHeader(part: 1, line: "A: x\u{1}y"))
    }

    @Test("a form part without Content-Disposition: form-data and a name is refused")
    func missingNames() {
        #expect(Self.error("--b\r\nContent-Type: text/plain\r\n\r\nv\r\n--b--") == .missingName(part: 1))
        #expect(Self.error("--b\r\nContent-Disposition: form-data; filename=\"a\"\r\n\r\nv\r\n--b--") == .missingName(part: 1))
        #expect(Self.error("--b\r\nContent-Disposition: attachment; name=\"a\"\r\n\r\nv\r\n--b--") == .missingName(part: 1))
    }

    @Test("filename* with another charset or a bad escape is unreadable")
    func badExtendedValues() {
        let cases = [("koi8-r''%C1", "its charset \"koi8-r\" is not UTF-8 or ISO-8859-1"), ("UTF-8''%ZZ", "it has a bad percent escape"),
                     ("UTF-8''%E2%82", "it is not valid UTF-8"), ("no-quotes", "it is not charset'language'value")]
        for (value, reason) in cases {
            #expect(Self.error("--b\r\nContent-Disposition: form-data; name=\"f\"; filename*=\(value)\r\n\r\nv\r\n--b--")
                    == .unreadableParameter(part: 1, name: "filename*", reason: reason))
        }
    }

    @Test("100,000 empty parts stop at the part limit")
    func tooManyParts() {
        let part = "--b\r\nContent-Disposition: form-data; name=\"\"\r\n\r\n\r\n"
        let body = Array(String(repeating: part, count: 100_000).utf8) + Array("--b--".utf8)
        #expect(Self.error(body, chunk: 65536) == .tooManyParts(limit: 1000))
    }

    @Test("1 MiB of header bytes, and too many header fields, stop at their limits")
    func headerLimits() {
        let huge = Array("--b\r\nX-Long: ".utf8) + [UInt8](repeating: 0x61, count: 1 << 20) + Array("\r\n\r\nv\r\n--b--".utf8)
        #expect(Self.error(huge, chunk: 65536) == .headersTooLarge(part: 1, limit: 16 << 10))
        #expect(Self.error(huge, chunk: 7) == .headersTooLarge(part: 1, limit: 16 << 10))
        let many = "--b\r\nContent-Disposition: form-data; name=\"a\"\r\n" + String(repeating: "X: 1\r\n", count: 64) + "\r\nv\r\n--b--"
        #expect(Self.error(many) == .tooManyHeaders(part: 1, limit: 64))
    }

    @Test("fields, files and whole bodies past their limits stop there, whatever the chunking")
    func sizeLimits() {
        var limits = MultipartParsingLimits()
        limits.maximumFieldBytes = 10
        limits.maximumFileBytes = 20
        limits.maximumBodyBytes = 400
        let field = Self.field + String(repeating: "f", count: 11) + "\r\n--b--"
        let file = "--b\r\nContent-Disposition: form-data; name=\"up\"; filename=\"u.bin\"\r\n\r\n" + String(repeating: "u", count: 21) + "\r\n--b--"
        for chunk in [1, 3, 4096] {
            #expect(Self.error(Array(field.utf8), limits: limits, chunk: chunk) == .fieldTooLarge(name: "a", limit: 10))
            #expect(Self.error(Array(file.utf8), limits: limits, chunk: chunk) == .fileTooLarge(name: "up", fileName: "u.bin", limit: 20))
        }
        let long = Self.field + "v\r\n--b--" + String(repeating: "epilogue ", count: 50)
        #expect(Self.error(long, limits: limits) == .bodyTooLarge(limit: 400))
        // At the limits exactly, the body is read.
        let fits = Self.field + String(repeating: "f", count: 10) + "\r\n--b--"
        #expect(Self.error(fits, limits: limits) == nil)
    }

    @Test("a Content-Type that is not multipart, has no boundary, or a boundary RFC 2046 refuses")
    func contentTypes() {
        #expect(throws: MultipartParsingError.notMultipart(contentType: "text/plain; boundary=b")) { try MultipartBodyParser(contentType: "text/plain; boundary=b") }
        #expect(throws: MultipartParsingError.notMultipart(contentType: "multipart/form-data")) { try MultipartBodyParser(contentType: "multipart/form-data") }
        #expect(throws: MultipartParsingError.invalidBoundary("a\"b", reason: "\"\"\" is not allowed in a boundary")) {
            try MultipartBodyParser(boundary: "a\"b")
        }
        #expect(throws: MultipartParsingError.invalidBoundary(String(repeating: "x", count: 71), reason: "it must be 1 to 70 characters long")) {
            try MultipartBodyParser(boundary: String(repeating: "x", count: 71))
        }
    }
}

@Suite("Multipart parser: parts as an async sequence, each body streamed")
struct MultipartPartSequenceTests {
    static func form() throws -> (body: [UInt8], contentType: String) {
        var form = try MultipartFormData(boundary: "seq")
        try form.appendPart(formData: Data("first value".utf8), name: "title")
        try form.appendPart(fileData: Data((0..<50_000).map { UInt8(truncatingIfNeeded: $0 &* 7) }), name: "upload", fileName: "data.bin", mimeType: "application/octet-stream")
        try form.appendPart(formData: Data("last".utf8), name: "note")
        return (Array(try form.encodedData()), form.contentType)
    }

    @Test("every part and every body byte arrives, in chunks of 1 to 9,000 bytes")
    func readsEveryPart() async throws {
        let (body, contentType) = try Self.form()
        for size in [1, 13, 4096, 9000] {
            var names: [String?] = []
            var bodies: [[UInt8]] = []
            for try await part in try MultipartBodyParser.parts(of: ChunkedBody(body, chunkSize: size), contentType: contentType) {
                names.append(part.head.name)
                var bytes: [UInt8] = []
                for try await chunk in part.body { bytes += chunk }
                bodies.append(bytes)
            }
            #expect(names == ["title", "upload", "note"])
            #expect(bodies[0] == Array("first value".utf8) && bodies[2] == Array("last".utf8))
            #expect(bodies[1] == (0..<50_000).map { UInt8(truncatingIfNeeded: $0 &* 7) })
        }
    }

    @Test("asking for the next part skips the rest of a body; a body read late is empty")
    func skipsUnreadBodies() async throws {
        let (body, contentType) = try Self.form()
        var parts: [MultipartStreamedPart<ChunkedBody>] = []
        for try await part in try MultipartBodyParser.parts(of: ChunkedBody(body, chunkSize: 1000), contentType: contentType) {
            parts.append(part)
        }
        #expect(parts.map(\.head.fileName) == [nil, "data.bin", nil])
        var late: [UInt8] = []
        for try await chunk in parts[0].body { late += chunk }
        #expect(late.isEmpty)
    }

    @Test("collect(upTo:) gathers a field and refuses one past its limit")
    func collectsFields() async throws {
        let (body, contentType) = try Self.form()
        var sequence = try MultipartBodyParser.parts(of: ChunkedBody(body, chunkSize: 64), contentType: contentType).makeAsyncIterator()
        let title = try #require(try await sequence.next())
        #expect(try await title.body.collect(upTo: 100) == Data("first value".utf8))
        let upload = try #require(try await sequence.next())
        await #expect(throws: MultipartParsingError.fieldTooLarge(name: "upload", limit: 1000)) {
            _ = try await upload.body.collect(upTo: 1000)
        }
    }

    @Test("a body cut short fails the sequence with unterminated, after the parts before it")
    func truncatedBody() async throws {
        let (body, contentType) = try Self.form()
        var names: [String?] = []
        await #expect(throws: MultipartParsingError.unterminated(state: "inside part 2 (\"upload\")")) {
            for try await part in try MultipartBodyParser.parts(of: ChunkedBody(Array(body.prefix(10_000)), chunkSize: 777), contentType: contentType) {
                names.append(part.head.name)
            }
        }
        #expect(names == ["title", "upload"])
    }

    @Test("a cancelled task stops reading")
    func cancellation() async throws {
        let (body, contentType) = try Self.form()
        let pulls = PullCounter()
        let task = Task {
            var count = 0
            for try await _ in try MultipartBodyParser.parts(of: ChunkedBody(ChunkedBody(body, chunkSize: 10).chunks, pulls: pulls), contentType: contentType) {
                count += 1
                withUnsafeCurrentTask { $0?.cancel() }
            }
            return count
        }
        await #expect(throws: CancellationError.self) { _ = try await task.value }
        #expect(pulls.value < body.count / 10)
    }
}

@Suite("Multipart parser: a fault in a chunk comes after the parts before it")
struct MultipartPartSequenceFaultTests {
    @Test("the parts a chunk completed before a malformed delimiter are handed on, then the error")
    func partsBeforeFault() async throws {
        let body = "--b\r\nContent-Disposition: form-data; name=\"a\"\r\n\r\n1\r\n--b\r\nContent-Disposition: form-data; name=\"c\"\r\n\r\n2\r\n--bX"
        var names: [String?] = []
        var bodies: [Data] = []
        await #expect(throws: MultipartParsingError.malformedDelimiter(offset: 104)) {
            for try await part in try MultipartBodyParser.parts(of: ChunkedBody([Array(body.utf8)]), contentType: "multipart/form-data; boundary=b") {
                names.append(part.head.name)
                bodies.append(try await part.body.collect(upTo: 10))
            }
        }
        #expect(names == ["a", "c"])
        #expect(bodies == [Data("1".utf8), Data("2".utf8)])
    }
}
