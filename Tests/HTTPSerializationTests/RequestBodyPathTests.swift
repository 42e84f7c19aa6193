import AsyncHTTPClient
import Checksums
import EchoServer
import Foundation
import Synchronization
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import HTTPTypes
import Testing
import HTTPSerialization
import HTTPSerializationAsyncHTTPClient

/// One request path: bodies the caller made (bytes, files, streams), ordered form fields,
/// models and typed overloads, through `SerializedRequest`, `URLRequest` and both transports.
@Suite("Request bodies on the one path: raw, file, stream, ordered fields, models")
struct RequestBodyPathTests {
    /// Counts up from 0 in bytes, `total` of them, `chunk` at a time: a stream whose length
    /// the test knows but the stream does not announce.
    final class CountingStream: MultipartPartStream {
        let total: Int
        var produced = 0
        /// Told when the stream is closed; the stream itself is handed over, so the test
        /// cannot ask it.
        let closed: Flag?
        /// Reads after the last byte fail, so a test sees whether anyone asked past the end.
        let failsPastEnd: Bool

        init(total: Int, closed: Flag? = nil, failsPastEnd: Bool = false) {
            self.total = total
            self.closed = closed
            self.failsPastEnd = failsPastEnd
        }

        func read(into buffer: inout OutputSpan<UInt8>) throws {
            if failsPastEnd, produced == total { throw MultipartStreamError(reason: "read past the end") }
            let count = min(buffer.freeCapacity, total - produced, 10_000)
            for index in 0..<count { buffer.append(UInt8(truncatingIfNeeded: produced + index)) }
            produced += count
        }

        func close() { closed?.set() }
    }

    final class Flag: Sendable {
        private let value = Atomic(false)
        func set() { value.store(true, ordering: .sequentiallyConsistent) }
        var isSet: Bool { value.load(ordering: .sequentiallyConsistent) }
    }

    static func counting(_ total: Int) -> Data {
        Data((0..<total).map { UInt8(truncatingIfNeeded: $0) })
    }

    static let serializer = HTTPRequestSerializer(headers: HTTPHeaderFields())

    enum Transport: String, CaseIterable, CustomTestStringConvertible {
        case urlSession, asyncHTTPClient
        var testDescription: String { rawValue }

        func send(_ request: SerializedRequest) async throws -> EchoReport {
            let serializer = DecodableResponseSerializer(EchoReport.self)
            switch self {
            case .urlSession:
                return try await URLSession(configuration: .ephemeral).response(for: request, serializer: serializer).output
            case .asyncHTTPClient:
                let client = HTTPClient(eventLoopGroupProvider: .singleton)
                do {
                    let output = try await client.execute(request, serializer: serializer).output
                    try await client.shutdown()
                    return output
                } catch {
                    try await client.shutdown()
                    throw error
                }
            }
        }
    }

    @Test("a file body arrives byte-exact with its Content-Length on both transports", arguments: Transport.allCases)
    func fileBody(transport: Transport) async throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let payload = Self.counting(300_000)
        let file = try folder.file("payload.bin", contents: payload)
        let server = try await EchoServer.start()
        let request = try Self.serializer.httpRequest(
            method: .put, url: server.baseURL.appendingPathComponent("echo"),
            body: .stream(RequestBodyStream(fileURL: file)), contentType: "application/octet-stream")
        #expect(request.request.headerFields[.contentLength] == "300000")
        let report = try await transport.send(request)
        try await server.stop()
        #expect(report.framing == "content-length")
        #expect(report.bodySize == payload.count)
        #expect(report.bodySHA256 == SHA256.hex(payload))
        #expect(report.values(of: "Content-Type") == ["application/octet-stream"])
    }

    @Test("a stream of unknown length goes out chunked, whole, on both transports", arguments: Transport.allCases)
    func unknownLengthStream(transport: Transport) async throws {
        let server = try await EchoServer.start()
        let body = try RequestBodyStream(length: nil) { CountingStream(total: 123_457) }
        let request = try Self.serializer.httpRequest(
            method: "POST", urlString: server.baseURL.absoluteString + "/echo", body: .stream(body), contentType: "text/plain")
        #expect(request.request.headerFields[.contentLength] == nil)
        let report = try await transport.send(request)
        try await server.stop()
        #expect(report.framing == "chunked")
        #expect(report.bodySHA256 == SHA256.hex(Self.counting(123_457)))
    }

    @Test("a stream shorter or longer than its declared length is a typed error, never a different body",
          arguments: [99, 101])
    func declaredLengthIsEnforced(actual: Int) async throws {
        let body = RequestBody.stream(try RequestBodyStream(length: 100) { CountingStream(total: actual) })
        #expect(throws: RequestSerializationError.multipartLengthMismatch(part: "the request body", declared: 100, actual: UInt64(actual))) {
            try body.collect()
        }
        await #expect(throws: RequestSerializationError.self) {
            for try await _ in body.chunks(size: 7) {}
        }
        #expect(throws: (any Error).self) {
            try readAll(body.makeInputStream())
        }
    }

    @Test("a single-use stream is read once; a second read names the body")
    func singleUseStream() throws {
        let closed = Flag()
        let body = RequestBody.stream(try RequestBodyStream(stream: CountingStream(total: 10, closed: closed), length: 10))
        #expect(try body.collect() == Self.counting(10))
        #expect(closed.isSet)
        #expect(throws: RequestSerializationError.multipartStreamAlreadyConsumed(part: "the request body")) {
            try body.collect()
        }
    }

    @Test("raw bytes keep their own content type; one with CR or LF is refused")
    func rawBytes() throws {
        let json = Data(#"{"signed":true}"#.utf8)
        let request = try Self.serializer.httpRequest(
            method: "POST", urlString: "https://example.com/hook", body: .bytes(json), contentType: "application/json")
        #expect(request.body.data == json)
        #expect(request.request.headerFields[.contentType] == "application/json")
        #expect(throws: RequestSerializationError.self) {
            try Self.serializer.httpRequest(method: "POST", urlString: "https://example.com/hook", body: .bytes(json),
                                            contentType: "text/plain\r\nX-Injected: 1")
        }
        var withOwnType = Self.serializer
        try withOwnType.setValue("application/vnd.api+json", forHTTPHeaderField: "Content-Type")
        let kept = try withOwnType.httpRequest(method: "POST", urlString: "https://example.com/hook", body: .bytes(json), contentType: "application/json")
        #expect(kept.request.headerFields[.contentType] == "application/vnd.api+json")
    }

    @Test("ordered form fields keep the caller's order and repeats, in the body or the query")
    func orderedFormFields() throws {
        let fields = [QueryStringPair(field: "z", value: "1"), QueryStringPair(field: "a b", value: "x&y"), QueryStringPair(field: "z", value: "2")]
        let post = try Self.serializer.httpRequest(method: "POST", urlString: "https://example.com/f", formFields: fields)
        #expect(post.body.data.map { String(decoding: $0, as: UTF8.self) } == "z=1&a%20b=x%26y&z=2")
        #expect(post.request.headerFields[.contentType] == "application/x-www-form-urlencoded")
        let get = try Self.serializer.httpRequest(method: .get, url: URL(string: "https://example.com/f?k=v")!, formFields: fields)
        #expect(get.request.path == "/f?k=v&z=1&a%20b=x%26y&z=2")
        #expect(get.body.isEmpty)
    }

    struct Search: Encodable { var q: String; var tags: [String]; var page: Int }

    @Test("an Encodable model is a form, a query or a property list, as the serializer makes them")
    func encodableBodies() throws {
        let model = Search(q: "swift nio", tags: ["b", "a"], page: 2)
        let form = try Self.serializer.httpRequest(method: "POST", urlString: "https://example.com/s", body: model)
        #expect(form.body.data.map { String(decoding: $0, as: UTF8.self) } == "page=2&q=swift%20nio&tags%5B%5D=b&tags%5B%5D=a")
        let query = try Self.serializer.httpRequest(method: .get, url: URL(string: "https://example.com/s")!, body: model)
        #expect(query.request.path == "/s?page=2&q=swift%20nio&tags%5B%5D=b&tags%5B%5D=a")
        let plist = try PropertyListRequestSerializer(base: Self.serializer)
            .httpRequest(method: "PUT", urlString: "https://example.com/s", body: model)
        let decoded = try PropertyListSerialization.propertyList(from: try #require(plist.body.data), format: nil) as? [String: Any]
        #expect(decoded?["q"] as? String == "swift nio")
        #expect(decoded?["tags"] as? [String] == ["b", "a"])
        #expect(plist.request.headerFields[.contentType] == "application/x-plist")
    }

    @Test("typed overloads give the same request as the string forms")
    func typedOverloads() throws {
        let url = URL(string: "https://example.com/items?x=1")!
        let typed = try Self.serializer.httpRequest(method: .delete, url: url, parameters: ["id": 7])
        let text = try Self.serializer.httpRequest(method: "DELETE", urlString: url.absoluteString, parameters: ["id": 7])
        #expect(typed.request == text.request)
        var form = try MultipartFormData(boundary: "typed")
        try form.appendPart(formData: Data("v".utf8), name: "k")
        let typedForm = try Self.serializer.httpRequest(method: .post, url: url, multipartForm: form)
        let textForm = try Self.serializer.httpRequest(method: "POST", urlString: url.absoluteString, multipartForm: form)
        #expect(typedForm.request == textForm.request)
        #expect(throws: RequestSerializationError.multipartMethodNotAllowed("GET")) {
            try Self.serializer.httpRequest(method: .get, url: url, multipartForm: form)
        }
        let json = try JSONRequestSerializer(base: Self.serializer).httpRequest(method: .post, url: url, body: Search(q: "a", tags: [], page: 1))
        #expect(json.request.headerFields[.contentType] == "application/json")
    }

    @Test("URLRequest(SerializedRequest) and SerializedRequest(URLRequest) are one pair: head and body come back")
    func conversionPair() throws {
        var form = try MultipartFormData(boundary: "pair")
        try form.appendPart(formData: Data("v".utf8), name: "k")
        let serialized = try Self.serializer.httpRequest(method: "POST", urlString: "https://example.com/up?a=1", multipartForm: form)
        let urlRequest = try URLRequest(serialized)
        #expect(urlRequest.httpMethod == "POST")
        #expect(urlRequest.url?.absoluteString == "https://example.com/up?a=1")
        #expect(urlRequest.value(forHTTPHeaderField: "Content-Length") == String(form.contentLength))
        let back = try SerializedRequest(urlRequest)
        #expect(back.request.method == serialized.request.method)
        #expect(back.urlString == serialized.urlString)
        guard case .multipart(let recovered) = back.body else { Issue.record("the form did not come back: \(back.body)"); return }
        #expect(try recovered.encodedData() == form.encodedData())

        let streamed = SerializedRequest(request: serialized.request, body: .stream(try RequestBodyStream(length: 5) { CountingStream(total: 5) }))
        let streamBack = try SerializedRequest(URLRequest(streamed))
        #expect(try streamBack.body.collect() == Self.counting(5))
        #expect(streamBack.body.length == 5)
    }

    @Test("another InputStream on a URLRequest is read once, lazily, with its Content-Length")
    func foreignStream() throws {
        var request = URLRequest(url: URL(string: "https://example.com/raw")!)
        request.httpMethod = "PUT"
        request.httpBodyStream = InputStream(data: Data("hello".utf8))
        request.setValue("5", forHTTPHeaderField: "Content-Length")
        let serialized = try SerializedRequest(request)
        #expect(serialized.body.length == 5)
        #expect(try serialized.body.collect() == Data("hello".utf8))
        #expect(throws: RequestSerializationError.multipartStreamAlreadyConsumed(part: "the request body")) {
            try serialized.body.collect()
        }
    }

    @Test("a file that changed size after its body was made is a length mismatch on both transports, never a different body",
          arguments: Transport.allCases, [500, 1_500])
    func changedFile(transport: Transport, newSize: Int) async throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let file = try folder.file("payload.bin", contents: Self.counting(1_000))
        let body = try RequestBodyStream(fileURL: file)
        try Self.counting(newSize).write(to: file)
        let server = try await EchoServer.start()
        let request = try Self.serializer.httpRequest(
            method: .put, url: server.baseURL.appendingPathComponent("echo"), body: .stream(body), contentType: "application/octet-stream")
        do {
            let report = try await transport.send(request)
            Issue.record("sent \(report.bodySize) bytes under Content-Length 1000")
        } catch let error as RequestSerializationError {
            guard case .multipartLengthMismatch(let part, let declared, _) = error else { Issue.record("got \(error)"); return }
            #expect(part == "the request body" && declared == 1_000)
        } catch {
            // async-http-client may report the body's failure as its own error; what matters is
            // that no request went out whole.
            #expect(transport == .asyncHTTPClient, "got \(error)")
        }
        try await server.stop()
    }

    @Test("a declared length no transport can frame is a typed error where it is declared")
    func lengthsPastInt64() throws {
        let tooLong = UInt64(Int64.max) + 1
        #expect(throws: RequestSerializationError.self) { try RequestBodyStream(length: tooLong) { CountingStream(total: 0) } }
        #expect(throws: RequestSerializationError.self) { try RequestBodyStream(stream: CountingStream(total: 0), length: .max) }
        #expect(try RequestBodyStream(length: UInt64(Int64.max)) { CountingStream(total: 0) }.length == UInt64(Int64.max))

        var request = URLRequest(url: URL(string: "https://example.com/raw")!)
        request.httpMethod = "PUT"
        request.httpBodyStream = InputStream(data: Data("hello".utf8))
        request.setValue(String(UInt64.max), forHTTPHeaderField: "Content-Length")
        #expect(throws: RequestSerializationError.self) { try SerializedRequest(request) }

        var form = try MultipartFormData(boundary: "b")
        try form.appendPart(streamFactory: { CountingStream(total: 0) }, name: "a", fileName: "a", length: 1 << 61, mimeType: "x/y")
        #expect(throws: RequestSerializationError.self) {
            try form.appendPart(streamFactory: { CountingStream(total: 0) }, name: "b", fileName: "b", length: .max, mimeType: "x/y")
        }
        #expect(throws: RequestSerializationError.self) {
            try form.appendPart(streamFactory: { CountingStream(total: 0) }, name: "c", fileName: "c", length: 1 << 62, mimeType: "x/y")
        }
        #expect(form.partCount == 1)
        #expect(form.contentLength > 1 << 61)
    }

    @Test("an input stream hands over the last byte without reading past it; the read after it checks the length")
    func inputStreamReadsPastTheEndOnlyWhenAsked() throws {
        let stream = RequestBody.stream(try RequestBodyStream(stream: CountingStream(total: 10, failsPastEnd: true), length: 10)).makeInputStream()
        stream.open()
        defer { stream.close() }
        var buffer = [UInt8](repeating: 0, count: 64)
        #expect(stream.read(&buffer, maxLength: 64) == 10)
        #expect(stream.streamStatus == .open)
        // The probe read reaches the stream now, and its failure is the stream's error.
        #expect(stream.read(&buffer, maxLength: 64) == -1)
        #expect(stream.streamError is RequestSerializationError)

        let exact = RequestBody.stream(try RequestBodyStream(length: 10) { CountingStream(total: 10) }).makeInputStream()
        #expect(try readAll(exact) == Self.counting(10))
        #expect(exact.streamStatus == .closed)
    }

    @Test("body: data sends the bytes as they are, on every serializer, with the Codable layer in scope")
    func dataBodyIsRaw() throws {
        let bytes = Data(#"{"already":"encoded"}"#.utf8)
        let plain = try Self.serializer.httpRequest(method: "PUT", urlString: "https://example.com/doc", body: bytes, contentType: "application/json")
        #expect(plain.body.data == bytes)
        #expect(plain.request.headerFields[.contentType] == "application/json")
        let json = try JSONRequestSerializer().httpRequest(method: .post, url: URL(string: "https://example.com/doc")!, body: bytes)
        #expect(json.body.data == bytes)
    }
}
