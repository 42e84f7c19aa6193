import AsyncHTTPClient
import Checksums
import EchoServer
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import HTTPSerCLI
import HTTPSerialization
import HTTPSerializationAsyncHTTPClient
import Testing

/// Runs `httpser ARGS` in-process and returns the exit code and what it wrote.
///
/// - Parameters:
///   - input: standard input's content; nil stands for a terminal.
///   - terminal: whether standard output (and error) behave as a terminal.
func runHTTPSer(_ arguments: [String], input: Data? = nil, terminal: Bool = false) async throws -> (code: Int32, output: CapturedConsole) {
    let command = try HTTPSer.parseAsRoot(arguments)
    guard let send = command as? Send else {
        Issue.record("\(arguments) did not parse as send")
        return (-1, CapturedConsole())
    }
    let captured = CapturedConsole(input: input, outputIsTerminal: terminal, errorIsTerminal: terminal)
    let code = await SendRunner(options: send, console: captured.console).run()
    return (code, captured)
}

@Suite("httpser --offline: exact request bytes")
struct CLIOfflineTests {
    static let agent = "User-Agent: httpser/\(HTTPSer.version)\r\n"

    @Test("query items go in the URL; no body, no content type")
    func query() async throws {
        let (code, output) = try await runHTTPSer(["--offline", "GET", "http://example.com/search", "q==swift lang", "page==2"])
        #expect(code == 0)
        #expect(output.outputText == "GET /search?q=swift%20lang&page=2 HTTP/1.1\r\nAccept: */*\r\n" + Self.agent + "host: example.com\r\n\r\n")
    }

    @Test("--form writes the fields in item order, AF-escaped")
    func form() async throws {
        let (code, output) = try await runHTTPSer(["--offline", "--form", "POST", "http://example.com:8080/login", "user=ann", "pass=a b&c"])
        #expect(code == 0)
        #expect(output.outputText == "POST /login HTTP/1.1\r\nAccept: */*\r\nContent-Type: application/x-www-form-urlencoded\r\n"
            + Self.agent + "host: example.com:8080\r\nContent-Length: 23\r\n\r\nuser=ann&pass=a%20b%26c")
    }

    @Test("data items default to JSON with nested names and raw JSON values; headers and auth apply")
    func json() async throws {
        let (code, output) = try await runHTTPSer([
            "--offline", "--auth", "user:password", "POST", "http://example.com/items",
            "name=pen", "price:=1.5", "tags[]=office", "tags[]=home", "meta[color]=red", "X-Trace:abc",
        ])
        #expect(code == 0)
        let body = #"{"meta":{"color":"red"},"name":"pen","price":1.5,"tags":["office","home"]}"#
        #expect(output.outputText == "POST /items HTTP/1.1\r\nAccept: application/json, */*;q=0.5\r\n"
            + "Authorization: Basic dXNlcjpwYXNzd29yZA==\r\nContent-Type: application/json\r\n"
            + Self.agent + "X-Trace: abc\r\nhost: example.com\r\nContent-Length: \(body.utf8.count)\r\n\r\n" + body)
    }

    @Test("--plist writes an XML property list")
    func plist() async throws {
        let (code, output) = try await runHTTPSer(["--offline", "--plist", "POST", "http://example.com/p", "name=pen"])
        #expect(code == 0)
        let body = """
            <?xml version="1.0" encoding="UTF-8"?>
            <!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
            <plist version="1.0">
            <dict>
            \t<key>name</key>
            \t<string>pen</string>
            </dict>
            </plist>

            """
        #expect(output.outputText == "POST /p HTTP/1.1\r\nAccept: */*\r\nContent-Type: application/x-plist\r\n"
            + Self.agent + "host: example.com\r\nContent-Length: \(body.utf8.count)\r\n\r\n" + body)
    }

    @Test("file items make a multipart body in item order, files typed and named; --boundary makes it reproducible")
    func multipart() async throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let note = try folder.file("note.txt", contents: Data("hello".utf8))
        let (code, output) = try await runHTTPSer([
            "--offline", "--boundary", "B", "POST", "http://example.com/upload", "title=hi", "doc@\(note.path);type=text/markdown",
        ])
        #expect(code == 0)
        let body = "--B\r\nContent-Disposition: form-data; name=\"title\"\r\n\r\nhi\r\n--B\r\n"
            + "Content-Disposition: form-data; name=\"doc\"; filename=\"note.txt\"\r\nContent-Type: text/markdown\r\n\r\nhello\r\n--B--\r\n"
        #expect(output.outputText == "POST /upload HTTP/1.1\r\nAccept: */*\r\nContent-Type: multipart/form-data; boundary=B\r\n"
            + Self.agent + "host: example.com\r\nContent-Length: \(body.utf8.count)\r\n\r\n" + body)
    }

    @Test("--write-body writes the request body to a file")
    func writeBody() async throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let target = folder.url.appendingPathComponent("body.json")
        let (code, _) = try await runHTTPSer(["--offline", "--write-body", target.path, "POST", "http://x/", "a=1"])
        #expect(code == 0)
        #expect(try Data(contentsOf: target) == Data(#"{"a":"1"}"#.utf8))
    }

    @Test("bad items, unreadable files, conflicting options and framing items fail with a message", arguments: [
        (["--offline", "POST", "http://x/", "nonsense"], Int32(2), "is not a request item"),
        (["--offline", "POST", "http://x/", "a[b=1"], 2, "unbalanced bracket"),
        (["--offline", "POST", "http://x/", "a=1", "a[b]=2"], 2, "already holds a value"),
        (["--offline", "--form", "--json", "POST", "http://x/", "a=1"], 2, "choose one of"),
        (["--offline", "--json", "POST", "http://x/", "f@/etc/hostname"], 2, "need a multipart body"),
        (["--offline", "POST", "http://x/", "f@/no/such/file.bin"], 1, "cannot be read"),
        (["--offline", "POST", "http://x/", "n:={bad"], 2, "not valid JSON"),
        (["--offline", "POST", "http://x/", "n:=@/no/such/file.json"], 2, "cannot be read"),
        (["--offline", "--throttle", "fast", "POST", "http://x/", "f@/etc/hostname"], 2, "--throttle takes"),
        (["--offline", "GET", "http://exa mple.com/"], 1, "is not a valid URL"),
        (["--offline", "PUT", "http://x/", "Content-Length:5", "a=1"], 2, "is refused"),
        (["--offline", "PUT", "http://x/", "Transfer-Encoding:chunked", "a=1"], 2, "is refused"),
        (["--offline", "http://x/", "X-Empty;value"], 2, "empty value is written Header;"),
        (["--offline", "--print=HX", "http://x/"], 2, "--print takes letters"),
        (["--continue", "--output", "/tmp/x", "http://x/"], 2, "--continue resumes a --download"),
        (["--timeout=-1", "http://127.0.0.1:9/"], 2, "--timeout takes a positive number"),
        (["--offline", "--auth", "user", "http://x/"], 2, "does not prompt"),
        (["--offline", "-A", "digest", "-a", "u:p", "http://x/"], 2, "--auth-type takes basic or bearer"),
        (["--offline", "-A", "bearer", "http://x/"], 2, "takes the token as --auth"),
        (["--verify", "/no/such/ca.pem", "http://127.0.0.1:9/"], 2, "--verify: /no/such/ca.pem is not yes, no or a readable PEM file"),
        (["--cert-key", "/no/key.pem", "http://127.0.0.1:9/"], 2, "--cert-key needs --cert"),
        (["--cert", "/no/cert.pem", "http://127.0.0.1:9/"], 2, "--cert: the certificate or its key cannot be read"),
    ])
    func failures(arguments: [String], code: Int32, message: String) async throws {
        let (actual, output) = try await runHTTPSer(arguments)
        #expect(actual == code)
        #expect(output.errors.contains(message))
    }
}

@Suite("httpser against the echo server")
struct CLIEndToEndTests {
    @Test("a JSON POST is sent and echoed; piped output is the body exactly as received")
    func sendsAndDecodes() async throws {
        let server = try await EchoServer.start()
        let (code, output) = try await runHTTPSer(["POST", server.baseURL.absoluteString + "/items", "name=pen", "n:=2"])
        try await server.stop()
        #expect(code == 0)
        #expect(output.errors.isEmpty)
        let report = try JSONDecoder().decode(EchoReport.self, from: output.output)
        #expect(report.method == "POST")
        #expect(report.bodyData == Data(#"{"n":2,"name":"pen"}"#.utf8))
        // The echo server's compact JSON, not re-indented.
        #expect(!output.outputText.contains("\n"))
    }

    @Test("--check-status exits 3, 4 or 5 for redirects, client and server errors", arguments: [(302, Int32(3)), (404, 4), (503, 5), (200, 0)])
    func checkStatus(status: Int, code: Int32) async throws {
        let server = try await EchoServer.start()
        let (actual, _) = try await runHTTPSer(["--check-status", "GET", server.baseURL.absoluteString + "/status/\(status)"])
        try await server.stop()
        #expect(actual == code)
    }

    @Test("a multipart upload with a file arrives whole; --output saves the response")
    func multipartAndOutput() async throws {
        let server = try await EchoServer.start()
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let payload = Data((0..<300_000).map { UInt8(truncatingIfNeeded: $0 &* 3) })
        let file = try folder.file("data.bin", contents: payload)
        let saved = folder.url.appendingPathComponent("response.json")
        let (code, _) = try await runHTTPSer(["--output", saved.path, "--throttle", "65536:0", "POST",
                                              server.baseURL.absoluteString + "/upload", "kind=raw", "blob@\(file.path)"])
        try await server.stop()
        #expect(code == 0)
        let report = try JSONDecoder().decode(EchoReport.self, from: Data(contentsOf: saved))
        #expect(report.framing == "content-length")
        #expect(report.parts?.map(\.name) == ["kind", "blob"])
        #expect(report.parts?.last?.sha256 == SHA256.hex(payload))
        #expect(report.parts?.last?.headers.first { $0.name == "Content-Type" }?.value == "application/octet-stream")
    }

    @Test("a refused connection is a clear error and exit 1")
    func refusedConnection() async throws {
        let server = try await EchoServer.start()
        let url = server.baseURL.absoluteString
        try await server.stop()
        let (code, output) = try await runHTTPSer(["--timeout", "30", "GET", url + "/gone"])
        #expect(code == 1)
        #expect(output.errors.contains("the connection was refused"))
    }

    @Test("--accept refuses other content types")
    func acceptTypes() async throws {
        let server = try await EchoServer.start()
        let (code, output) = try await runHTTPSer(["--accept", "application/xml", "GET", server.baseURL.absoluteString + "/json"])
        try await server.stop()
        #expect(code == 1)
        #expect(output.errors.contains("unacceptable content-type: application/json"))
    }

    @Test("the demo passes every step against its embedded server")
    func demo() async throws {
        let captured = CapturedConsole()
        let passed = await DemoRunner(console: captured.console, uploadBytes: 2 << 20).run()
        #expect(passed)
        #expect(captured.outputText.contains("8 passed, 0 failed"))
    }

    @Test("serve announces itself first with one machine-readable line on standard output, then serves")
    func serveAnnouncesItsPort() async throws {
        let captured = CapturedConsole()
        let server = try await Serve.start(port: 0, console: captured.console)
        let line = captured.outputText
        #expect(line == "listening on http://127.0.0.1:\(server.port)\n")
        #expect(captured.errors.hasPrefix("routes: "))
        let url = URL(string: String(line.dropFirst("listening on ".count).dropLast()) + "/json")!
        let (_, response) = try await URLSession(configuration: .ephemeral).data(from: url)
        #expect((response as? HTTPURLResponse)?.statusCode == 200)
        try await server.stop()
    }
}

@Suite("Transports and echo routes")
struct TransportTests {
    @Test("the same multipart form through URLSession and async-http-client arrives identical, equal to our encoding")
    func transportsAgree() async throws {
        let server = try await EchoServer.start()
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let file = try folder.file("photo.png", contents: Data((0..<700_000).map { UInt8(truncatingIfNeeded: $0 >> 3) }))
        let serializer = HTTPRequestSerializer(headers: HTTPHeaderFields())
        let request = try serializer.multipartFormRequest(
            method: "POST", urlString: server.baseURL.absoluteString + "/upload", parameters: ["album": ["id": 7, "tags": ["a", "b"]]],
            boundary: "same-form"
        ) { form in
            try form.appendPart(fileURL: file, name: "photo")
        }
        let form = try #require((request.httpBodyStream as? MultipartBodyStream)?.form)
        let expected = SHA256.hex(try form.encodedData())
        let reports = DecodableResponseSerializer(EchoReport.self)
        let viaSession = try await URLSession(configuration: .ephemeral).uploadMultipart(request, serializer: reports).output
        let client = HTTPClient(eventLoopGroupProvider: .singleton)
        let viaClient = try await client.execute(SerializedRequest(request), serializer: reports).output
        try await client.shutdown()
        try await server.stop()
        for report in [viaSession, viaClient] {
            #expect(report.bodySHA256 == expected)
            #expect(report.framing == "content-length")
            #expect(report.values(of: "Content-Length") == [String(form.contentLength)])
        }
        #expect(viaSession.parts == viaClient.parts)
        #expect(viaClient.parts?.map(\.name) == ["album[id]", "album[tags][]", "album[tags][]", "photo"])
    }

    @Test("URLSession's multipart upload reports progress up to the whole body")
    func urlSessionUploadProgress() async throws {
        let server = try await EchoServer.start()
        var form = try MultipartFormData(boundary: "progress")
        try form.appendPart(fileData: Data(count: 1_500_000), name: "f", fileName: "f.bin", mimeType: "application/octet-stream")
        let request = try HTTPRequestSerializer(headers: HTTPHeaderFields())
            .request(method: "POST", urlString: server.baseURL.absoluteString + "/upload", multipartForm: form)
        let last = LockedBox<TransferProgress?>(nil)
        let result = try await URLSession(configuration: .ephemeral).uploadMultipart(
            request, serializer: DecodableResponseSerializer(EchoReport.self), uploadProgress: { last.set($0) })
        try await server.stop()
        #expect(result.output.bodySize == Int(form.contentLength))
        #expect(last.get()?.completed == Int64(form.contentLength))
    }

    @Test("the respond route returns the status, type and body asked for")
    func respondRoute() async throws {
        let server = try await EchoServer.start()
        let url = server.baseURL.absoluteString + "/respond?status=201&type=text/csv&body=a%2Cb%0A1%2C2"
        let (data, response) = try await URLSession(configuration: .ephemeral).data(from: URL(string: url)!)
        try await server.stop()
        #expect((response as? HTTPURLResponse)?.statusCode == 201)
        #expect(response.mimeType == "text/csv")
        #expect(data == Data("a,b\n1,2".utf8))
    }

    @Test("every echo route decodes with its serializer")
    func echoRoutes() async throws {
        let server = try await EchoServer.start()
        let client = HTTPClient(eventLoopGroupProvider: .singleton)
        let serializer = HTTPRequestSerializer(headers: HTTPHeaderFields())
        func get(_ path: String) throws -> URLRequest { try serializer.request(method: "GET", urlString: server.baseURL.absoluteString + path) }
        let json = try await client.execute(SerializedRequest(get("/json")), serializer: JSONResponseSerializer(removesKeysWithNullValues: true)).output as? [String: Any]
        #expect(json?["items"] as? [Int] == [1, 2, 3])
        #expect(json?.keys.contains("nothing") == false)
        let parser = try await client.execute(SerializedRequest(get("/xml")), serializer: XMLParserResponseSerializer()).output
        #expect(parser?.parse() == true)
        let document = try await client.execute(SerializedRequest(get("/xml")), serializer: XMLDocumentResponseSerializer()).output
        #expect(document.rootElement()?.name == "catalog")
        let plist = try await client.execute(SerializedRequest(get("/plist")), serializer: PropertyListResponseSerializer()).output as? [String: Any]
        #expect(plist?["name"] as? String == "httpser")
        let image = try await client.execute(SerializedRequest(get("/png")), serializer: ImageResponseSerializer()).output
        #expect(image?.width == 4 && image?.height == 3)
        let empty = try await client.execute(SerializedRequest(get("/empty")), serializer: DecodableResponseSerializer(EmptyResponse.self))
        #expect(empty.response.status.code == 204)
        let compound = CompoundResponseSerializer([AnyResponseSerializer(ImageResponseSerializer()), AnyResponseSerializer(JSONResponseSerializer())])
        #expect(try await client.execute(SerializedRequest(get("/json")), serializer: compound).output is [String: Any])
        await #expect(throws: ResponseSerializationError.self) {
            try await client.execute(SerializedRequest(get("/status/500")), serializer: JSONResponseSerializer())
        }
        let viaSession = try await URLSession(configuration: .ephemeral).response(for: get("/plist"), serializer: PropertyListResponseSerializer())
        #expect((viaSession.output as? [String: Any])?["count"] as? Int == 3)
        try await client.shutdown()
        try await server.stop()
    }

    @Test("the echo server's multipart splitter agrees with multipart-kit on random forms")
    func splitterAgreesWithMultipartKit() async throws {
        let server = try await EchoServer.start()
        let client = HTTPClient(eventLoopGroupProvider: .singleton)
        do {
            try await Self.agreeWithMultipartKit(server: server, client: client)
        } catch {
            // Shut down first, so a failure is reported rather than trapping in the client's deinit.
            try? await client.shutdown()
            try? await server.stop()
            throw error
        }
        try await client.shutdown()
        try await server.stop()
    }

    /// Six seeded forms through the echo server's splitter and multipart-kit. The deadline is
    /// generous: a starved ThreadSanitizer run once took longer than the bridge's 60 seconds.
    static func agreeWithMultipartKit(server: EchoServer, client: HTTPClient) async throws {
        for seed in 0..<6 {
            var form = try MultipartFormData(boundary: "agree-\(seed)")
            for index in 0..<(seed % 4 + 1) {
                let body = Data((0..<(seed * 40_000 + index * 7)).map { UInt8(truncatingIfNeeded: $0 &* (seed + 3)) })
                try form.appendPart(fileData: body, name: "n\(index)", fileName: "f\(index).bin", mimeType: "application/x-\(seed)")
            }
            let request = try HTTPRequestSerializer(headers: HTTPHeaderFields())
                .request(method: "POST", urlString: server.baseURL.absoluteString + "/upload", multipartForm: form)
            let report = try await client.execute(SerializedRequest(request), serializer: DecodableResponseSerializer(EchoReport.self), timeout: .seconds(600)).output
            let reference = try MultipartInteropTests.parse(form.encodedData(), boundary: form.boundary)
            #expect(report.parts?.map(\.size) == reference.map(\.body.count))
            #expect(report.parts?.map(\.sha256) == reference.map { SHA256.hex($0.body) })
            let headers = report.parts?.map { part in
                Dictionary(part.headers.map { ($0.name.lowercased(), $0.value) }, uniquingKeysWith: { first, _ in first })
            }
            #expect(headers == reference.map(\.headers))
        }
    }
}
