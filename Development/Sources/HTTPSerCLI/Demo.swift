import AsyncHTTPClient
import Checksums
import EchoServer
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
#if canImport(FoundationXML)
import FoundationXML
#endif
import HTTPSerialization
import HTTPSerializationAsyncHTTPClient

/// The tour of `httpser demo`: every step sends through a real transport to the embedded
/// echo server and checks what the server saw or what came back.
public struct DemoRunner {
    let console: Console
    let uploadBytes: Int

    public init(console: Console, uploadBytes: Int = 64 << 20) {
        self.console = console
        self.uploadBytes = uploadBytes
    }

    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    struct StatusPayload: Decodable {
        var status: Int
        var error: String
    }

    /// True when every step checked out.
    public func run() async -> Bool {
        let started = Date()
        let server: EchoServer
        do {
            server = try await EchoServer.start(configuration: .init(reportBodyLimit: 1 << 20))
        } catch {
            console.error("demo: the echo server did not start: \(error)\n")
            return false
        }
        let client = HTTPClient(eventLoopGroupProvider: .singleton)
        let base = server.baseURL.absoluteString
        console.out("httpser demo — echo server on \(base)\n")
        var passed = 0
        var failed = 0
        func step(_ title: String, _ body: () async throws -> [String]) async {
            do {
                let lines = try await body()
                passed += 1
                console.out("\n✔ \(title)\n" + lines.map { "    \($0)\n" }.joined())
            } catch {
                failed += 1
                console.out("\n✘ \(title)\n    \(error)\n")
            }
        }
        let reports = DecodableResponseSerializer(EchoReport.self)
        var serializer = HTTPRequestSerializer(headers: HTTPHeaderFields())
        try? serializer.setValue("httpser-demo/\(HTTPSer.version)", forHTTPHeaderField: "User-Agent")

        await step("GET with AFNetworking's classic nested query (async-http-client)") {
            let parameters: ParameterValue = [
                "name": "bang", "phone": ["mobile": "xx", "home": "xx"], "families": ["father", "mother"], "nums": .set([1, 2]),
            ]
            let request = try serializer.httpRequest(method: "GET", urlString: base + "/echo", parameters: parameters)
            let report = try await client.execute(request, serializer: reports).output
            let pairs = report.queryPairs.map { "\($0.name)=\($0.value)" }
            try expect(pairs == ["families[]=father", "families[]=mother", "name=bang", "nums=1", "nums=2", "phone[home]=xx", "phone[mobile]=xx"],
                       "the server decoded \(pairs)")
            return ["server saw: \(report.method) \(report.target)", "decoded:    " + pairs.joined(separator: "  ")]
        }

        await step("form POST (URLSession)") {
            let request = try serializer.request(method: "POST", urlString: base + "/form", parameters: ["user": ["name": "Ann Lee", "tags": ["a&b", "c"]]])
            let result = try await URLSession(configuration: .ephemeral).response(for: request, serializer: reports)
            let fields = (result.output.form ?? []).map { "\($0.name)=\($0.value)" }
            try expect(fields == ["user[name]=Ann Lee", "user[tags][]=a&b", "user[tags][]=c"], "the server decoded \(fields)")
            return ["server saw: \(result.output.values(of: "Content-Type").first ?? "?"), \(result.output.bodySize) bytes",
                    "body:       \(String(decoding: result.output.bodyData ?? Data(), as: UTF8.self))",
                    "decoded:    " + fields.joined(separator: "  ")]
        }

        await step("JSON POST (async-http-client)") {
            let request = try JSONRequestSerializer(base: serializer, writingOptions: [.sortedKeys])
                .httpRequest(method: "POST", urlString: base + "/items", parameters: ["name": "pen", "price": 1.5, "tags": ["office"], "stock": nil])
            let report = try await client.execute(request, serializer: reports).output
            let body = String(decoding: report.bodyData ?? Data(), as: UTF8.self)
            try expect(body == #"{"name":"pen","price":1.5,"stock":null,"tags":["office"]}"#, "the server got \(body)")
            return ["server saw: \(report.values(of: "Content-Type").first ?? "?"), \(report.framing) \(report.bodySize)", "body:       \(body)"]
        }

        await step("multipart upload of a generated \(uploadBytes >> 20) MiB file, streamed with a known length (async-http-client)") {
            let folder = FileManager.default.temporaryDirectory.appendingPathComponent("httpser-demo-\(UUID().uuidString)")
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            defer { try? FileManager.default.removeItem(at: folder) }
            let file = folder.appendingPathComponent("upload.bin")
            let digest = try Self.writeFile(file, bytes: uploadBytes)
            let request = try serializer.multipartFormHTTPRequest(method: "POST", urlString: base + "/upload", parameters: ["album": ["id": 7]]) { form in
                try form.appendPart(fileURL: file, name: "file")
                try form.appendPart(fileData: Data("notes".utf8), name: "notes", fileName: "notes.txt", mimeType: "text/plain")
            }
            guard case .multipart(let form) = request.body else { throw Failure(description: "the request has no multipart form") }
            let bar = ProgressBar(label: "upload", console: console)
            let report = try await client.execute(request, serializer: reports, timeout: .seconds(120), uploadProgress: { bar.update($0) }).output
            bar.finish()
            let parts = report.parts ?? []
            try expect(report.framing == "content-length" && report.bodySize == Int(form.contentLength),
                       "framing \(report.framing), \(report.bodySize) of \(form.contentLength) bytes")
            try expect(parts.map(\.name) == ["album[id]", "file", "notes"], "parts \(parts.map(\.name))")
            try expect(parts[1].size == uploadBytes && parts[1].sha256 == digest, "the file part arrived as \(parts[1].size) bytes, \(parts[1].sha256)")
            return ["server saw: Content-Length \(report.values(of: "Content-Length").first ?? "?"), parts:"]
                + parts.map { "  \($0.name ?? "?")\($0.fileName.map { " (\($0))" } ?? ""): \($0.size) bytes, SHA-256 \($0.sha256.prefix(16))…" }
        }

        await step("a 404 whose JSON error payload is decoded through the failed validation") {
            let request = try serializer.httpRequest(method: "GET", urlString: base + "/status/404")
            do {
                _ = try await client.execute(request, serializer: reports)
                throw Failure(description: "the 404 was accepted")
            } catch let error as any HTTPSerializationError {
                let payload = try unwrap(reports.decodeErrorPayload(StatusPayload.self, from: error), "no error payload")
                try expect(payload.status == 404, "payload \(payload)")
                return ["error:      \(error.localizedDescription)", "payload:    status \(payload.status), \"\(payload.error)\""]
            }
        }

        await step("JSON, XML, property-list and PNG responses decoded") {
            let get = { (path: String) throws -> SerializedRequest in try serializer.httpRequest(method: "GET", urlString: base + path) }
            let json = try await client.execute(get("/json"), serializer: JSONResponseSerializer()).output as? [String: Any]
            try expect(json?["name"] as? String == "httpser", "JSON \(String(describing: json))")
            let xml = try await client.execute(get("/xml"), serializer: XMLDocumentResponseSerializer()).output
            let titles = xml.rootElement()?.elements(forName: "book").compactMap { $0.elements(forName: "title").first?.stringValue } ?? []
            try expect(titles == ["Swift", "HTTP"], "XML titles \(titles)")
            let plist = try await client.execute(get("/plist"), serializer: PropertyListResponseSerializer()).output as? [String: Any]
            try expect(plist?["count"] as? Int == 3, "plist \(String(describing: plist))")
            var images = ImageResponseSerializer()
            images.imageScale = 2
            let image = try unwrap(try await client.execute(get("/png"), serializer: images).output, "no image")
            #if canImport(UIKit) || canImport(AppKit)
            let size = "\(image.size.width) × \(image.size.height) points"
            #else
            let size = "\(image.width) × \(image.height) pixels, first pixel \(image.pixel(x: 0, y: 0).map { "\($0)" } ?? "?")"
            #endif
            return ["JSON:  name = \(json?["name"] ?? "?"), items = \(json?["items"] ?? "?")",
                    "XML:   <\(xml.rootElement()?.name ?? "?")> with titles \(titles)",
                    "plist: name = \(plist?["name"] ?? "?"), count = \(plist?["count"] ?? "?")",
                    "PNG:   \(size)"]
        }

        await step("an empty 204 decodes to nil for an optional type") {
            let request = try serializer.httpRequest(method: "GET", urlString: base + "/empty")
            let result = try await client.execute(request, serializer: DecodableResponseSerializer(EchoReport?.self))
            try expect(result.output == nil && result.response.status.code == 204, "got \(String(describing: result.output))")
            return ["204 No Content ⇒ nil"]
        }

        await step("server-sent events and gzipped JSON Lines, decoded as they arrive (async-http-client)") {
            struct Tick: Decodable { var n: Int; var text: String }
            let events = try await client.stream(try serializer.httpRequest(method: "GET", urlString: base + "/sse?count=60&pause=2"))
            var ticks: [Tick] = []
            var lastID: String?
            for try await event in events.values(ServerSentEventsResponseSerializer()) {
                ticks.append(try event.decodeData(as: Tick.self))
                lastID = event.id
            }
            try expect(ticks.map(\.n) == Array(0..<60), "events \(ticks.map(\.n))")
            var request = try serializer.httpRequest(method: "GET", urlString: base + "/ndjson?count=5000&compress=1&pause=0")
            request.request.headerFields[.acceptEncoding] = "gzip"
            let lines = try await client.stream(request)
            let coding = lines.response.headerFields[.contentEncoding] ?? "none"
            var records = 0
            struct Line: Decodable { var id: Int }
            for try await line in try lines.decodingContentEncoding().values(JSONStreamResponseSerializer(decoding: Line.self)) {
                try expect(line.id == records, "record \(records) has id \(line.id)")
                records += 1
            }
            try expect(records == 5000, "\(records) records")
            return ["events:  \(ticks.count) in 1-61 byte pieces, last id \(lastID ?? "?"), \"\(ticks[1].text)\"",
                    "records: \(records) NDJSON lines, Content-Encoding \(coding), inflated as they came"]
        }

        try? await client.shutdown()
        try? await server.stop()
        let seconds = Date().timeIntervalSince(started)
        console.out("\n\(passed) passed, \(failed) failed (\(String(format: "%.1f", seconds)) s)\n")
        return failed == 0
    }

    /// A file of deterministic bytes; returns its SHA-256.
    static func writeFile(_ url: URL, bytes: Int) throws -> String {
        guard FileManager.default.createFile(atPath: url.path, contents: nil) else {
            throw Failure(description: "cannot create \(url.path)")
        }
        let handle = try FileHandle(forWritingTo: url)
        defer { try? handle.close() }
        var hasher = SHA256()
        var chunk = [UInt8](repeating: 0, count: 1 << 20)
        var written = 0
        while written < bytes {
            let count = min(chunk.count, bytes - written)
            for index in 0..<count { chunk[index] = UInt8(truncatingIfNeeded: (written + index) &* 2_654_435_761 >> 13) }
            let data = Data(chunk[0..<count])
            hasher.update(data)
            try handle.write(contentsOf: data)
            written += count
        }
        return hasher.hexDigest()
    }
}

private func expect(_ condition: Bool, _ message: @autoclosure () -> String) throws {
    if !condition { throw DemoRunner.Failure(description: "check failed: \(message())") }
}

private func unwrap<T>(_ value: T?, _ message: String) throws -> T {
    guard let value else { throw DemoRunner.Failure(description: message) }
    return value
}
