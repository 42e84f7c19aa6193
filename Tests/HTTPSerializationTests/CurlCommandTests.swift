import AsyncHTTPClient
import EchoServer
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import HTTPSerialization
import HTTPSerializationAsyncHTTPClient
import HTTPTypes
import Testing

@Suite("A request as a curl command: what the real curl sends is what the transport sends")
struct CurlCommandTests {
    static let curl: String? = ["/usr/bin/curl", "/usr/local/bin/curl"].first { FileManager.default.isExecutableFile(atPath: $0) }

    /// Runs curl with `command`'s arguments and returns its standard output.
    static func run(_ command: CurlCommand) throws -> Data {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: try #require(curl))
        process.arguments = ["--silent", "--show-error", "--max-time", "60"] + command.arguments
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        #expect(process.terminationStatus == 0)
        return data
    }

    /// Runs `line` with `/bin/sh -c`, as a user pasting the printed command would, with curl quiet.
    static func runInShell(_ line: String) throws -> Data {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        process.arguments = ["-c", "curl --silent --show-error " + line.dropFirst("curl ".count)]
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        #expect(process.terminationStatus == 0, "\(line)")
        return data
    }

    static func requests(port: Int) throws -> [(name: String, request: SerializedRequest)] {
        let authority = "127.0.0.1:\(port)"
        var fields = HTTPFields()
        fields.append(HTTPField(name: HTTPField.Name("X-Repeated")!, value: "one"))
        fields.append(HTTPField(name: .contentType, value: "application/json"))
        fields.append(HTTPField(name: HTTPField.Name("X-Repeated")!, value: "it's \"two\" $HOME `id`"))
        fields.append(HTTPField(name: HTTPField.Name("X-Empty")!, value: ""))
        let json = SerializedRequest(request: HTTPRequest(method: .post, scheme: "http", authority: authority,
                                                          path: "/echo/a/../b?x=%5B1%5D&y=%7B2%7D", headerFields: fields),
                                     body: .bytes(Data(#"@{"name":"O'Brien","tab":"\t"}"#.utf8)))
        var binaryFields = HTTPFields()
        binaryFields[.contentType] = "application/octet-stream"
        let binary = SerializedRequest(request: HTTPRequest(method: .put, scheme: "http", authority: authority, path: "/echo/blob",
                                                            headerFields: binaryFields),
                                       body: .bytes(Data([0, 1, 0x0D, 0x0A, 0x1B, 0xFF] + Array(repeating: 0x41, count: 10))))
        let multipart = try HTTPRequestSerializer().multipartFormHTTPRequest(
            method: "POST", urlString: "http://\(authority)/echo/upload", boundary: "curl-test-boundary") { form in
            try form.appendPart(formData: "Zoë & \"friends\"", name: "title")
            try form.appendPart(fileData: Data((0..<5_000).map { UInt8($0 % 251) }), name: "file", fileName: "data.bin", mimeType: "application/octet-stream")
        }
        let get = SerializedRequest(request: HTTPRequest(method: .get, scheme: "http", authority: authority, path: "/echo?q=%20a+b"))
        // A form set as the body with no Content-Type field, and a stale length and framing field:
        // the transport takes the form's type and frames from the body; so must curl.
        var bare = multipart
        bare.request.headerFields[.contentType] = nil
        bare.request.headerFields[.contentLength] = "3"
        bare.request.headerFields[.transferEncoding] = "chunked"
        var equals = SerializedRequest(request: HTTPRequest(method: .post, scheme: "http", authority: authority, path: "/echo/form",
                                                            headerFields: [.contentType: "application/x-www-form-urlencoded"]),
                                       body: .bytes(Data("=ls".utf8)))
        equals.request.headerFields[HTTPField.Name("X-Quote")!] = "it's"
        return [("JSON with quotes, brackets and dot segments", json), ("binary bytes", binary), ("multipart form", multipart), ("GET", get),
                ("form without its Content-Type field, stale framing fields", bare), ("a body starting with =", equals)]
    }

    @Test("curl sends the method, target, fields and body bytes that async-http-client sends", .enabled(if: curl != nil))
    func curlMatchesTheTransport() async throws {
        try await AsyncHTTPClientBridgeTests.withServer { server, client in
            for (name, request) in try Self.requests(port: server.port) {
                let command = try await request.curlCommand()
                defer { if let file = command.bodyFile { try? FileManager.default.removeItem(at: file) } }
                let viaCurl = try JSONDecoder().decode(EchoReport.self, from: Self.run(command))
                let viaClient = try await client.execute(request, serializer: DecodableResponseSerializer(EchoReport.self)).output
                #expect(viaCurl.method == viaClient.method, "\(name)")
                #expect(viaCurl.target == viaClient.target, "\(name)")
                #expect(viaCurl.bodySHA256 == viaClient.bodySHA256 && viaCurl.bodySize == viaClient.bodySize, "\(name)")
                // Fields in order; the transport's framing fields may differ (a stream goes chunked).
                let framing: Set<String> = ["content-length", "transfer-encoding", "host"]
                let fields = { (report: EchoReport) in report.headers.filter { !framing.contains($0.name.lowercased()) }.map { "\($0.name.lowercased()): \($0.value)" } }
                #expect(fields(viaCurl) == fields(viaClient), "\(name)")
                #expect(viaCurl.values(of: "Host") == viaClient.values(of: "Host"), "\(name)")
                // The printed line, through a shell's quoting, sends the same.
                let viaShell = try JSONDecoder().decode(EchoReport.self, from: Self.runInShell(command.description))
                #expect(viaShell == viaCurl, "\(name): \(command)")
            }
        }
    }

    @Test("a target the transports refuse (a raw [, {, space, stray %, or a # in a path) gets the same invalidURL from curlCommand, both transports and the serializer")
    func refusedTargets() async throws {
        let authority = "127.0.0.1:8080"
        for path in ["/p?x=[1]", "/p?y={2}", "/a b", "/p?q=%zz", "/p?q=%4", "/p\\q", "/p|q", "/p^q", "/p\"q", "/p<q>", "/p`q", "/p#frag"] {
            let request = SerializedRequest(request: HTTPRequest(method: .get, scheme: "http", authority: authority, path: path))
            let refusal = RequestSerializationError.invalidURL("http://\(authority)\(path)")
            await #expect(throws: refusal, "\(path)") { try await request.curlCommand() }
            #expect(throws: refusal, "\(path)") { try HTTPClientRequest(request) }
            #expect(throws: refusal, "\(path)") { try URLRequest(request) }
            #expect(throws: refusal, "\(path)") { try HTTPRequestSerializer().serialize(request.request, parameters: ["a": 1]) }
            guard !path.contains("#") else { continue }
            // The URL-string entry refuses the same text, as URL does without re-encoding.
            #expect(throws: refusal, "\(path)") { try HTTPRequestSerializer().httpRequest(method: "GET", urlString: "http://\(authority)\(path)") }
            #expect(URL(string: "http://\(authority)\(path)", encodingInvalidCharacters: false) == nil, "\(path)")
        }
        // The same targets written as URL writes them are sent, as they are.
        let encoded = SerializedRequest(request: HTTPRequest(method: .get, scheme: "http", authority: authority, path: "/p?x=%5B1%5D&y=%7B2%7D&z=%20"))
        #expect(try await encoded.curlCommand().arguments.contains("http://\(authority)/p?x=%5B1%5D&y=%7B2%7D&z=%20"))
    }

    @Test("the target check takes what URL takes without re-encoding: every visible ASCII byte and percent form, in each part of a URL")
    func targetCheckMatchesURL() throws {
        var forms = (0x21...0x7E).map { String(UnicodeScalar(UInt8($0))) }
        forms += ["%41", "%4", "%zz", "%", "%%41", "\u{E9}", " "]
        let places: [(String, (String) -> (authority: String, path: String))] = [
            ("user info", { ("u\($0)@h", "/") }), ("host", { ("h\($0)x", "/") }), ("port", { ("h:8\($0)", "/") }),
            ("path", { ("h", "/p\($0)q") }), ("query", { ("h", "/p?q=\($0)") }),
            ("IP literal", { ("[::1\($0)]", "/") }), ("IP literal's zone", { ("[fe80::1%25e\($0)0]", "/") }),
        ]
        for (place, make) in places {
            for form in forms {
                let (authority, path) = make(form)
                // `#`, `/`, `?` and `@` end the authority in URL's reading; an HTTPRequest holds it whole.
                if place != "path" && place != "query", ["#", "/", "?", "@"].contains(form) { continue }
                if form == "#" { continue }
                // The request's own fields: HTTPRequest trims a trailing space off both.
                let request = HTTPRequest(method: .get, scheme: "http", authority: authority, path: path)
                let text = "http://\(request.authority ?? "")\(request.path ?? "")"
                let ours = (try? request.validateForSending()) != nil
                let urls = URL(string: text, encodingInvalidCharacters: false) != nil
                #expect(ours == urls, "\(place) \(form): \(text) ours \(ours), URL \(urls)")
            }
        }
    }

    @Test("text bodies go inline and others to a file; the command line quotes what a shell would expand")
    func commandLine() async throws {
        let requests = try Self.requests(port: 8080)
        let json = try await requests[0].request.curlCommand()
        #expect(json.bodyFile == nil)
        #expect(json.description.contains(#"--data-raw '@{"name":"O'\''Brien","tab":"\t"}'"#))
        #expect(json.description.contains(#"-H 'X-Repeated: it'\''s "two" $HOME `id`'"#))
        #expect(json.description.contains("-H 'X-Empty;'"))
        #expect(json.description.contains("--url 'http://127.0.0.1:8080/echo/a/../b?x=%5B1%5D&y=%7B2%7D'"))
        #expect(json.description.hasPrefix("curl --globoff --path-as-is --request POST"))
        #expect(json.arguments.contains("User-Agent:") && json.arguments.contains("Expect:") && !json.arguments.contains("Content-Type:"))

        let binary = try await requests[1].request.curlCommand()
        let file = try #require(binary.bodyFile)
        defer { try? FileManager.default.removeItem(at: file) }
        #expect(try Data(contentsOf: file) == requests[1].request.body.data)
        #expect(binary.arguments.suffix(2) == ["--data-binary", "@" + file.path])

        let get = try await requests[3].request.curlCommand()
        #expect(get.description == "curl --globoff --path-as-is --url 'http://127.0.0.1:8080/echo?q=%20a+b' -H User-Agent: -H Accept:")
    }

    @Test("a header value with a C1 control is written with $'…' escapes of its UTF-8 bytes, never raw; a body with one goes to a file")
    func controlCharactersEscaped() async throws {
        var fields = HTTPFields()
        fields[HTTPField.Name("X-C1")!] = "a\u{9B}[31mb'c\\"
        let request = SerializedRequest(request: HTTPRequest(method: .post, scheme: "http", authority: "h", path: "/", headerFields: fields),
                                        body: .bytes(Data("\u{1B}[2J".utf8)))
        let command = try await request.curlCommand()
        defer { if let file = command.bodyFile { try? FileManager.default.removeItem(at: file) } }
        #expect(command.description.contains(#" -H $'X-C1: a\302\233[31mb\047c\134' "#))
        #expect(command.bodyFile != nil)
        #expect(!command.description.unicodeScalars.contains { $0.value < 0x20 || (0x7F...0x9F).contains($0.value) })
    }
}
