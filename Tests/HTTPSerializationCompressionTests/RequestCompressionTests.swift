#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import HTTPTypes
import Testing
@testable import HTTPSerializationCompression
import HTTPSerializationCore

@Suite("Compressed request bodies: bytes with their new length, forms and streams chunked")
struct RequestCompressionTests {
    /// `bytes` decoded with the package's own inflater.
    static func inflate(_ bytes: Data, _ encoding: ContentEncoding) throws -> Data {
        let head = HTTPResponse(status: .ok, headerFields: [.contentEncoding: encoding.rawValue])
        return try ResponseContext(response: head, data: bytes).decodingContentEncoding().data ?? Data()
    }

    static let serializer = HTTPRequestSerializer(headers: HTTPHeaderFields())

    @Test("a bytes body is compressed in place, with Content-Encoding and its new Content-Length", arguments: ContentEncoding.allCases)
    func bytesBody(encoding: ContentEncoding) throws {
        let text = Data(String(repeating: "{\"id\":1,\"name\":\"compress me\"}\n", count: 500).utf8)
        let request = try Self.serializer.httpRequest(method: .post, url: URL(string: "https://example.com/upload")!, body: text, contentType: "application/x-ndjson")
        let compressed = try request.compressed(encoding)
        guard case .bytes(let bytes) = compressed.body else { Issue.record("not bytes: \(compressed.body)"); return }
        #expect(bytes.count < text.count / 10)
        #expect(compressed.request.headerFields[.contentEncoding] == encoding.rawValue)
        #expect(compressed.request.headerFields[.contentLength] == String(bytes.count))
        #expect(compressed.request.headerFields[.contentType] == "application/x-ndjson")
        #expect(try Self.inflate(bytes, encoding) == text)
        #expect(throws: RequestSerializationError.self) { try compressed.compressed(.gzip) }
    }

    @Test("a form is compressed as it is read, replayably, with no length (sent chunked)")
    func formBody() throws {
        var form = try MultipartFormData(boundary: "compressed-form")
        try form.appendPart(formData: Data(String(repeating: "field value ", count: 20_000).utf8), name: "text")
        try form.appendPart(streamFactory: { CountingStream(total: 300_000) }, name: "blob", fileName: "blob.bin", length: 300_000, mimeType: "application/octet-stream")
        let request = try Self.serializer.httpRequest(method: .post, url: URL(string: "https://example.com/form")!, multipartForm: form).compressed()
        #expect(request.body.length == nil)
        #expect(request.request.headerFields[.contentLength] == nil)
        #expect(request.request.headerFields[.contentEncoding] == "gzip")
        let first = try request.body.collect()
        #expect(try Self.inflate(first, .gzip) == form.encodedData())
        #expect(try request.body.collect() == first)
    }

    @Test("a single-use stream compresses once; its short read is the stream's typed error")
    func streamBodies() throws {
        let once = RequestBody.stream(try RequestBodyStream(stream: CountingStream(total: 70_000), length: 70_000))
        let compressed = try once.compressed(.deflate)
        #expect(try Self.inflate(compressed.collect(), .deflate).count == 70_000)
        #expect(throws: RequestSerializationError.multipartStreamAlreadyConsumed(part: "the request body")) { try compressed.collect() }
        let short = try RequestBody.stream(RequestBodyStream(length: 100) { CountingStream(total: 99) }).compressed(.gzip)
        #expect(throws: RequestSerializationError.multipartLengthMismatch(part: "the request body", declared: 100, actual: 99)) { try short.collect() }
        #expect(try RequestBody.none.compressed(.gzip).isEmpty)
    }
}

/// Counts up from 0, `total` bytes, in reads of at most 10,000.
final class CountingStream: MultipartPartStream {
    let total: Int
    var produced = 0
    init(total: Int) { self.total = total }
    func read(into buffer: inout OutputSpan<UInt8>) throws {
        let count = Swift.min(buffer.freeCapacity, total - produced, 10_000)
        for index in 0..<count { buffer.append(UInt8(truncatingIfNeeded: produced + index)) }
        produced += count
    }
    func close() {}
}
