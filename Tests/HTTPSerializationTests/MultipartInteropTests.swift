import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import EchoServer
import MultipartKit
import NIOCore
import SeededGenerators
import Testing
@testable import HTTPSerialization
@testable import HTTPSerializationCodable
@testable import HTTPSerializationCore
@testable import HTTPSerializationFoundation
@testable import HTTPSerializationImages
@testable import HTTPSerializationXML

@Suite("Multipart: independent parser and a real upload")
struct MultipartInteropTests {
    struct ParsedPart: Equatable {
        var headers: [String: String]
        var body: Data
    }

    /// Parses a body with multipart-kit, an implementation that shares nothing with ours.
    static func parse(_ body: Data, boundary: String) throws -> [ParsedPart] {
        let parser = MultipartParser(boundary: boundary)
        var parts: [ParsedPart] = []
        var current = ParsedPart(headers: [:], body: Data())
        parser.onHeader = { name, value in current.headers[name.lowercased()] = value }
        parser.onBody = { buffer in current.body.append(contentsOf: buffer.readableBytesView) }
        parser.onPartComplete = {
            parts.append(current)
            current = ParsedPart(headers: [:], body: Data())
        }
        try parser.execute(Array(body))
        return parts
    }

    @Test("multipart-kit's parser reads back every part's headers and bytes from seeded random forms")
    func independentParserRoundTrip() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        var random = SplitMix64(seed: 42)
        for _ in 0..<12 {
            var form = try MultipartFormData(boundary: "interop-\(random.next() % 100_000)")
            var expected: [ParsedPart] = []
            for index in 0..<random.range(1, 5) {
                let body = Data((0..<random.range(0, 200_000)).map { _ in UInt8(truncatingIfNeeded: random.next()) })
                let name = "n\(index) \"quoted\""
                if random.range(0, 1) == 0 {
                    try form.appendPart(formData: body, name: name)
                    expected.append(ParsedPart(headers: ["content-disposition": "form-data; name=\"n\(index) %22quoted%22\""], body: body))
                } else {
                    let file = try folder.file("data\(index)-\(random.next()).json", contents: body)
                    try form.appendPart(fileURL: file, name: name)
                    expected.append(ParsedPart(headers: [
                        "content-disposition": "form-data; name=\"n\(index) %22quoted%22\"; filename=\"\(file.lastPathComponent)\"",
                        "content-type": "application/json",
                    ], body: body))
                }
            }
            #expect(try Self.parse(form.encodedData(), boundary: form.boundary) == expected)
        }
    }

    @Test("uploaded through URLSession from a file, the body arrives byte-exact with a real Content-Length")
    func urlSessionFileUploadToLoopback() async throws {
        let server = try await EchoServer.start()
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let payload = Data((0..<2_500_000).map { UInt8(truncatingIfNeeded: $0 &* 7 &+ $0 >> 11) })
        let source = try folder.file("payload.bin", contents: payload)
        let serializer = HTTPRequestSerializer(headers: HTTPHeaderFields())
        let streamed = try serializer.multipartFormRequest(
            method: "POST", urlString: server.baseURL.appendingPathComponent("upload").absoluteString, parameters: ["key": "value"]
        ) { form in
            try form.appendPart(fileURL: source, name: "file")
        }
        let bodyFile = folder.url.appendingPathComponent("body.bin")
        let request = try await serializer.request(withMultipartFormRequest: streamed, writingStreamContentsTo: bodyFile)
        let expectedBody = try readAll(try #require(streamed.httpBodyStream))

        let session = URLSession(configuration: .ephemeral)
        let (data, response) = try await session.upload(for: request, fromFile: bodyFile)
        try await server.stop()

        #expect((response as? HTTPURLResponse)?.statusCode == 200)
        let report = try JSONDecoder().decode(EchoReport.self, from: data)
        #expect(report.method == "POST")
        #expect(report.target == "/upload")
        #expect(report.framing == "content-length")
        #expect(report.values(of: "Content-Length") == [String(expectedBody.count)])
        #expect(report.values(of: "Transfer-Encoding").isEmpty)
        #expect(report.bodySize == expectedBody.count)
        #expect(report.bodyData == expectedBody)
        let boundary = try #require(report.values(of: "Content-Type").first?.components(separatedBy: "boundary=").last)
        let parts = try Self.parse(try #require(report.bodyData), boundary: boundary)
        #expect(parts.map(\.body) == [Data("value".utf8), payload])
    }

    @Test("streamed through URLSession as httpBodyStream, the body arrives byte-exact")
    func urlSessionStreamedUploadToLoopback() async throws {
        let server = try await EchoServer.start()
        var form = try MultipartFormData(boundary: "streamed")
        try form.appendPart(formData: Data("value".utf8), name: "key")
        try form.appendPart(fileData: Data((0..<700_000).map { UInt8(truncatingIfNeeded: $0 &* 13) }),
                            name: "file", fileName: "f.bin", mimeType: "application/octet-stream")
        var request = try HTTPRequestSerializer(headers: HTTPHeaderFields())
            .request(method: "POST", urlString: server.baseURL.absoluteString, multipartForm: form)
        #if os(Linux)
        // URLSession on Linux sends a body stream chunked and would add this header too,
        // which RFC 9112 forbids; the file upload is the way to a real Content-Length there.
        request.setValue(nil, forHTTPHeaderField: "Content-Length")
        #endif
        let (data, _) = try await URLSession(configuration: .ephemeral).data(for: request)
        try await server.stop()
        let report = try JSONDecoder().decode(EchoReport.self, from: data)
        #expect(report.bodyData == (try form.encodedData()))
        #if os(Linux)
        #expect(report.framing == "chunked")
        #endif
    }
}
