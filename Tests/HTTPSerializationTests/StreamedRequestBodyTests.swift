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

/// Values in memory as an async sequence that can be iterated again, failing after
/// `failingAfter` values if set: the source a replayable request body needs.
struct ReplayableValues<Value: Sendable>: AsyncSequence, Sendable {
    struct SourceFailure: Error, Equatable {}

    let values: [Value]
    var failingAfter: Int?

    struct AsyncIterator: AsyncIteratorProtocol {
        let values: [Value]
        let failingAfter: Int?
        var index = 0
        mutating func next() async throws -> Value? {
            if index == failingAfter { throw SourceFailure() }
            guard index < values.count else { return nil }
            defer { index += 1 }
            return values[index]
        }
    }

    func makeAsyncIterator() -> AsyncIterator { AsyncIterator(values: values, failingAfter: failingAfter) }
}

/// Request bodies written from async sequences: sent chunked on both transports, read again
/// on a replay, compressed and written to a file without a thread waiting, and read by
/// synchronous readers on threads of their own.
@Suite("Request bodies from async sequences: bulk uploads written as they are sent")
struct StreamedRequestBodyTests {
    struct Document: Codable, Equatable, Sendable {
        var id: Int
        var title: String
    }

    final class Counter: Sendable {
        private let count = Atomic(0)
        func increment() { count.add(1, ordering: .relaxed) }
        var value: Int { count.load(ordering: .relaxed) }
    }

    static let documents = (0..<3_000).map { Document(id: $0, title: "document \($0) with a line\nbreak and é") }
    static let writer = JSONStreamWriter<Document>(format: .lines)
    static let serializer = HTTPRequestSerializer(headers: HTTPHeaderFields())

    /// `body` run on a thread of its own, as URLSession reads an `InputStream`.
    static func onThread<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
        try await withCheckedThrowingContinuation { continuation in
            Thread.detachNewThread { continuation.resume(with: Result { try body() }) }
        }
    }

    static func collected(_ body: RequestBody, size: Int = 4096) async throws -> Data {
        var data = Data()
        for try await chunk in body.chunks(size: size) { data.append(chunk) }
        return data
    }

    @Test("JSON Lines written from models go out whole on both transports: chunked through async-http-client, spooled through URLSession", arguments: RequestBodyPathTests.Transport.allCases)
    func bulkUpload(transport: RequestBodyPathTests.Transport) async throws {
        let expected = try Self.writer.data(for: Self.documents)
        let server = try await EchoServer.start()
        let request = try Self.serializer.httpRequest(
            method: "POST", urlString: server.baseURL.absoluteString + "/echo",
            body: Self.writer.requestBody(for: ReplayableValues(values: Self.documents), minimumChunkSize: 16 * 1024),
            contentType: Self.writer.contentType)
        #expect(request.request.headerFields[.contentLength] == nil)
        let report = try await transport.send(request)
        try await server.stop()
        // URLSession is handed a spooled copy (it cannot be fed from Swift's pool), so it sends a length.
        #expect(report.framing == (transport == .urlSession ? "content-length" : "chunked"))
        #expect(report.bodySize == expected.count)
        #expect(report.bodySHA256 == SHA256.hex(expected))
        #expect(report.values(of: "Content-Type") == ["application/x-ndjson"])
    }

    @Test("every read iterates the sequence again, re-cut to the reader's sizes, and reads back as the values")
    func replays() async throws {
        let body = Self.writer.requestBody(for: ReplayableValues(values: Self.documents))
        let expected = try Self.writer.data(for: Self.documents)
        #expect(body.length == nil)
        #expect(try await Self.collected(body, size: 7) == expected)
        #expect(try await Self.collected(body, size: 1 << 20) == expected)
        var sizes: [Int] = []
        for try await chunk in body.byteChunks(size: 1000) { sizes.append(chunk.count) }
        #expect(sizes.allSatisfy { $0 <= 1000 } && sizes.reduce(0, +) == expected.count)
        let read = try JSONStreamResponseSerializer(decoding: Document.self).responseObject(
            for: HTTPResponse(status: .ok, headerFields: [.contentType: Self.writer.contentType]), data: expected)
        #expect(read == Self.documents)
    }

    @Test("the source's error ends every reader with that error, after the bytes before it")
    func sourceFailure() async throws {
        let body = Self.writer.requestBody(for: ReplayableValues(values: Self.documents, failingAfter: 10))
        var received = Data()
        await #expect(throws: ReplayableValues<Document>.SourceFailure.self) {
            for try await chunk in body.chunks(size: 100) { received.append(chunk) }
        }
        #expect(received == (try Self.writer.data(for: Self.documents.prefix(10))))
        await #expect(throws: ReplayableValues<Document>.SourceFailure.self) {
            try await Self.onThread { try body.collect() }
        }
        let streamError = try await Self.onThread { () -> String in
            do {
                _ = try readAll(body.makeInputStream(), readSizes: [333])
                return "no error"
            } catch {
                return String(describing: type(of: error))
            }
        }
        #expect(streamError.contains("SourceFailure"))
    }

    @Test("synchronous readers on threads of their own (collect, an InputStream) read the same bytes")
    func synchronousReaders() async throws {
        let body = Self.writer.requestBody(for: ReplayableValues(values: Self.documents), minimumChunkSize: 5000)
        let expected = try Self.writer.data(for: Self.documents)
        #expect(try await Self.onThread { try body.collect() } == expected)
        #expect(try await Self.onThread { try readAll(body.makeInputStream(), readSizes: [1, 4096, 77]) } == expected)
    }

    @Test("written to a file chunk by chunk, with progress, and compressed as gzip on the way")
    func fileAndCompression() async throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let body = Self.writer.requestBody(for: ReplayableValues(values: Self.documents))
        let expected = try Self.writer.data(for: Self.documents)
        let file = folder.url.appendingPathComponent("bulk.ndjson")
        let progress = Counter()
        try await body.write(to: file) { _ in progress.increment() }
        #expect(try Data(contentsOf: file) == expected)
        #expect(progress.value > 0)
        let compressed = try body.compressed(.gzip)
        #expect(compressed.length == nil)
        let gzip = try await Self.collected(compressed)
        #expect(gzip.count < expected.count / 4)
        let head = HTTPResponse(status: .ok, headerFields: [.contentEncoding: "gzip"])
        #expect(try ResponseContext(response: head, data: gzip).decodingContentEncoding().data == expected)
        // Replayed, it compresses to the same bytes again.
        #expect(try await Self.collected(compressed, size: 100) == gzip)
    }
}
