import Foundation
import HTTPSerialization
import Testing

@Suite("multipart/mixed and multipart/related bodies, read back by our parser and Python's email package",
       .enabled(if: Python.path != nil || Python.required))
struct MultipartMixedRelatedTests {
    static let metadata = Data(#"{"name": "photo.png", "parents": ["root"]}"#.utf8)
    static let binary = Data((0..<70_000).map { UInt8(truncatingIfNeeded: $0 &* 7 &+ 3) })
    /// Binary without CR or LF: Python's line-based parser rewrites line ends in a part that has
    /// no transfer encoding, so its reading is compared on bytes it keeps.
    static let lineFree = Data(binary.filter { $0 != 0x0D && $0 != 0x0A })

    /// A Google-style related upload: JSON metadata (the root, by Content-ID), a base64 image, and
    /// a nested multipart/mixed holding a text part and a file streamed from disk.
    static func upload(file: URL) throws -> MultipartFormData {
        var inner = try MultipartFormData(mediaType: .mixed, boundary: "inner-boundary")
        inner.appendPart(headers: try HTTPHeaderFields(["Content-Type": "text/plain; charset=utf-8"]), body: Data("héllo".utf8))
        try inner.appendPart(headers: try HTTPHeaderFields(["Content-Disposition": "attachment; filename=\"a.bin\"", "Content-Type": "application/octet-stream"]),
                             fileURL: file)
        var outer = try MultipartFormData(mediaType: try .related(type: "application/json", start: "<root@example>"), boundary: "outer boundary")
        outer.appendPart(headers: try HTTPHeaderFields(["Content-Type": "application/json; charset=UTF-8", "Content-ID": "<root@example>"]), body: metadata)
        outer.appendPart(headers: try HTTPHeaderFields(["Content-Type": "image/png", "Content-Transfer-Encoding": "base64", "Content-ID": "<img@example>"]),
                         body: Data(Data([0x89, 0x50, 0x4E, 0x47]).base64EncodedString().utf8))
        try outer.appendPart(headers: try HTTPHeaderFields(["Content-ID": "<files@example>"]), multipart: inner)
        return outer
    }

    static func withFile<T>(_ contents: Data, _ body: (URL) throws -> T) throws -> T {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("mixed-\(UUID().uuidString).bin")
        try contents.write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        return try body(file)
    }

    @Test("the Content-Type carries the subtype, the boundary and related's type and start, quoted where they must be")
    func contentTypes() throws {
        let related = try MultipartFormData(mediaType: try .related(type: "application/json", start: "<root@example>", startInfo: "a b"), boundary: "B")
        #expect(related.contentType == #"multipart/related; boundary=B; type="application/json"; start="<root@example>"; start-info="a b""#)
        #expect(try MultipartFormData(mediaType: .mixed, boundary: "B").contentType == "multipart/mixed; boundary=B")
        #expect(try MultipartFormData(mediaType: .alternative, boundary: "a b").contentType == #"multipart/alternative; boundary="a b""#)
        #expect(try MultipartMediaType(subtype: "Report", parameters: [("report-type", #"dis"po\sition"#)]).description
                == #"multipart/report; report-type="dis\"po\\sition""#)
        #expect(MultipartFormData().mediaType == .formData)
    }

    @Test("our parser reads every part and the nested body back, byte for byte, at the declared length")
    func ourParserReadsItBack() async throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("mixed-\(UUID().uuidString).bin")
        let out = FileManager.default.temporaryDirectory.appendingPathComponent("mixed-out-\(UUID().uuidString)")
        try Self.binary.write(to: file)
        defer {
            try? FileManager.default.removeItem(at: file)
            try? FileManager.default.removeItem(at: out)
        }
        let form = try Self.upload(file: file)
        let body = try form.encodedData()
        #expect(UInt64(body.count) == form.contentLength)
        let parts = try MultipartBodyParser.parts(of: body, contentType: form.contentType)
        #expect(parts.count == 3)
        #expect(parts[0].body == Self.metadata)
        #expect(parts[0].head.headers.value(forHTTPHeaderField: "Content-ID") == "<root@example>")
        #expect(parts[1].head.headers.value(forHTTPHeaderField: "Content-Transfer-Encoding") == "base64")
        let nestedType = try #require(parts[2].head.headers.value(forHTTPHeaderField: "Content-Type"))
        #expect(nestedType == "multipart/mixed; boundary=inner-boundary")
        let nested = try MultipartBodyParser.parts(of: parts[2].body, contentType: nestedType)
        #expect(nested.map(\.body) == [Data("héllo".utf8), Self.binary])
        #expect(nested[1].head.fileName == "a.bin")
        // The streamed file writer gives the same bytes.
        try await form.writeEncodedBody(to: out)
        #expect(try Data(contentsOf: out) == body)
    }

    @Test("Python's email package reads the same tree: types, parameters, Content-IDs and payloads")
    func pythonReadsIt() throws {
        try Self.withFile(Self.lineFree) { file in
            let form = try Self.upload(file: file)
            let tree = try Python.parseMIME(contentType: form.contentType, body: try form.encodedData())
            #expect(tree["type"] as? String == "multipart/related")
            let params = try #require(tree["params"] as? [String: String])
            #expect(params["type"] == "application/json")
            #expect(params["start"] == "<root@example>")
            #expect(params["boundary"] == "outer boundary")
            #expect(tree["defects"] as? [String] == [])
            let parts = try #require(tree["parts"] as? [[String: Any]])
            #expect(parts.count == 3)
            #expect(parts[0]["content-id"] as? String == "<root@example>")
            #expect(parts[0]["payload"] as? String == Self.metadata.base64EncodedString())
            // The base64 part decoded by Python, as its Content-Transfer-Encoding says.
            #expect(parts[1]["payload"] as? String == Data([0x89, 0x50, 0x4E, 0x47]).base64EncodedString())
            #expect(parts[2]["type"] as? String == "multipart/mixed")
            let nested = try #require(parts[2]["parts"] as? [[String: Any]])
            #expect(nested.map { $0["type"] as? String } == ["text/plain", "application/octet-stream"])
            let payloads = nested.map { ($0["payload"] as? String).flatMap { Data(base64Encoded: $0) } }
            #expect(payloads.first == Data("héllo".utf8))
            #expect(payloads.last == Self.lineFree, "the file part's \(payloads.last??.count ?? -1) bytes differ from the \(Self.lineFree.count) sent")
            #expect(nested[1]["filename"] as? String == "a.bin")
        }
    }

    @Test("what cannot be written is refused: CR or LF in a header or parameter, a bad subtype, nested boundaries that clash, an empty nested body, a type given twice")
    func refusals() throws {
        #expect(throws: RequestSerializationError.self) { try HTTPHeaderFields(["Content-ID": "<a>\r\nX-Injected: 1"]) }
        #expect(throws: RequestSerializationError.self) { try MultipartMediaType.related(type: "application/json\r\nX-Injected: 1") }
        #expect(throws: RequestSerializationError.self) { try MultipartMediaType.related(type: "application/json", start: "<ü>") }
        #expect(throws: RequestSerializationError.self) { try MultipartMediaType(subtype: "mixed; x=y") }
        #expect(throws: RequestSerializationError.self) { try MultipartMediaType(subtype: "mixed", parameters: [("boundary", "X")]) }

        var outer = try MultipartFormData(mediaType: .mixed, boundary: "abc")
        var clash = try MultipartFormData(mediaType: .mixed, boundary: "abcd")
        clash.appendPart(headers: HTTPHeaderFields(), body: Data("x".utf8))
        let prefix = #expect(throws: RequestSerializationError.self) { try outer.appendPart(headers: HTTPHeaderFields(), multipart: clash) }
        guard case .invalidBoundary? = prefix else { Issue.record("got \(String(describing: prefix))"); return }
        var inner = try MultipartFormData(mediaType: .mixed, boundary: "zz")
        #expect(throws: RequestSerializationError.self) { try outer.appendPart(headers: HTTPHeaderFields(), multipart: inner) }
        inner.appendPart(headers: HTTPHeaderFields(), body: Data("x".utf8))
        #expect(throws: RequestSerializationError.self) {
            try outer.appendPart(headers: try HTTPHeaderFields(["Content-Type": "text/plain"]), multipart: inner)
        }
        #expect(outer.isEmpty)
    }

    @Test("boundaries clash at any depth, a header name cannot spell the delimiter, parameters cannot repeat, and no length overflows")
    func deeperRefusals() throws {
        // a holds b, b holds ab: ab begins with a, two levels apart.
        var deepest = try MultipartFormData(mediaType: .mixed, boundary: "ab")
        deepest.appendPart(headers: HTTPHeaderFields(), body: Data("x".utf8))
        var middle = try MultipartFormData(mediaType: .mixed, boundary: "b")
        try middle.appendPart(headers: HTTPHeaderFields(), multipart: deepest)
        var top = try MultipartFormData(mediaType: .mixed, boundary: "a")
        #expect(throws: RequestSerializationError.self) { try top.appendPart(headers: HTTPHeaderFields(), multipart: middle) }

        var form = try MultipartFormData(mediaType: .mixed, boundary: "B")
        let spelled = try HTTPHeaderFields(["--B": "x"])
        #expect(throws: RequestSerializationError.self) {
            try form.appendPart(headers: spelled, streamFactory: { throw CancellationError() }, length: 1)
        }
        form.appendPart(headers: spelled, body: Data("y".utf8))
        let error = #expect(throws: RequestSerializationError.self) { try form.encodedData() }
        guard case .multipartBoundaryInBody? = error else { Issue.record("got \(String(describing: error))"); return }

        #expect(throws: RequestSerializationError.self) { try MultipartMediaType(subtype: "related", parameters: [("type", "a/b"), ("Type", "c/d")]) }

        var huge = try MultipartFormData(mediaType: .mixed)
        #expect(throws: RequestSerializationError.self) {
            try huge.appendPart(headers: HTTPHeaderFields(), streamFactory: { throw CancellationError() }, length: .max)
        }
        #expect(huge.contentLength == 0)
    }

    @Test("a body that holds the delimiter of its container is refused when encoded, nested or not")
    func delimiterInBodies() throws {
        var direct = try MultipartFormData(mediaType: .mixed, boundary: "B")
        direct.appendPart(headers: HTTPHeaderFields(), body: Data("a\r\n--B\r\nContent-Type: text/evil\r\n\r\nb".utf8))
        let error = #expect(throws: RequestSerializationError.self) { try direct.encodedData() }
        guard case .multipartBoundaryInBody? = error else { Issue.record("got \(String(describing: error))"); return }

        var inner = try MultipartFormData(mediaType: .mixed, boundary: "inner")
        inner.appendPart(headers: HTTPHeaderFields(), body: Data("a\r\n--outer--\r\n".utf8))
        var outer = try MultipartFormData(mediaType: .mixed, boundary: "outer")
        try outer.appendPart(headers: HTTPHeaderFields(), multipart: inner)
        #expect(throws: RequestSerializationError.self) { try outer.encodedData() }
    }

    @Test("a nested mixed part inside a form-data body, as RFC 7578's older multiple-file form writes it")
    func nestedInsideForm() throws {
        var files = try MultipartFormData(mediaType: .mixed, boundary: "files")
        files.appendPart(headers: try HTTPHeaderFields(["Content-Disposition": "file; filename=\"a.txt\"", "Content-Type": "text/plain"]), body: Data("A".utf8))
        files.appendPart(headers: try HTTPHeaderFields(["Content-Disposition": "file; filename=\"b.txt\"", "Content-Type": "text/plain"]), body: Data("B".utf8))
        var form = try MultipartFormData(boundary: "form")
        try form.appendPart(formData: "Joe", name: "submitter")
        try form.appendPart(headers: try HTTPHeaderFields(["Content-Disposition": "form-data; name=\"files\""]), multipart: files)
        let body = try form.encodedData()
        let parts = try MultipartBodyParser.parts(of: body, contentType: form.contentType)
        #expect(parts.map { $0.head.name } == ["submitter", "files"])
        let nested = try MultipartBodyParser.parts(of: parts[1].body, contentType: try #require(parts[1].head.headers.value(forHTTPHeaderField: "Content-Type")))
        #expect(nested.map(\.body) == [Data("A".utf8), Data("B".utf8)])
        let tree = try Python.parseMIME(contentType: form.contentType, body: body)
        #expect(tree["defects"] as? [String] == [])
        #expect(((tree["parts"] as? [[String: Any]])?[1]["parts"] as? [[String: Any]])?.count == 2)
    }
}

/// Python 3 and its `email` package, the reference MIME reader.
enum Python {
    static let path: String? = ["/usr/bin/python3", "/usr/local/bin/python3"].first { FileManager.default.isExecutableFile(atPath: $0) }
    /// Under CI the suite must run: `.ci/run` installs python3.
    static let required = ProcessInfo.processInfo.environment["CI"] == "true"

    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    /// The MIME tree Python reads from a body with this `Content-Type`: each entity's type,
    /// parameters, Content-ID, file name, decoded payload (base64) and parts, and every defect.
    static func parseMIME(contentType: String, body: Data) throws -> [String: Any] {
        guard let path else { throw Failure(description: "python3 is not installed (apt-get install python3)") }
        let input = FileManager.default.temporaryDirectory.appendingPathComponent("mime-\(UUID().uuidString)")
        try (Data("Content-Type: \(contentType)\r\nMIME-Version: 1.0\r\n\r\n".utf8) + body).write(to: input)
        defer { try? FileManager.default.removeItem(at: input) }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: path)
        process.arguments = ["-c", script, input.path]
        let stdout = Pipe()
        process.standardOutput = stdout
        try process.run()
        let data = stdout.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else { throw Failure(description: "python3 exited with \(process.terminationStatus)") }
        guard let tree = try JSONSerialization.jsonObject(with: data) as? [String: Any] else { throw Failure(description: "no tree") }
        return tree
    }

    static let script = #"""
    import base64, email, email.policy, json, sys
    def walk(message, defects):
        defects.extend(type(d).__name__ for d in message.defects)
        node = {"type": message.get_content_type(), "params": {k: v for k, v in (message.get_params() or [])[1:]},
                "content-id": message.get("Content-ID"), "filename": message.get_filename()}
        if message.is_multipart():
            node["parts"] = [walk(part, defects) for part in message.get_payload()]
        else:
            node["payload"] = base64.b64encode(message.get_payload(decode=True) or b"").decode()
        return node
    with open(sys.argv[1], "rb") as f:
        message = email.message_from_binary_file(f, policy=email.policy.compat32)
    defects = []
    tree = walk(message, defects)
    tree["defects"] = defects
    print(json.dumps(tree))
    """#
}
