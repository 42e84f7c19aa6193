#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import HTTPTypes
import Testing
@testable import HTTPSerializationCompression
import HTTPSerializationCore

/// `chunks` one at a time.
struct Chunks: AsyncSequence, Sendable {
    let chunks: [[UInt8]]

    init(_ bytes: [UInt8], size: Int) {
        chunks = stride(from: 0, to: bytes.count, by: Swift.max(size, 1)).map { Array(bytes[$0..<Swift.min($0 + size, bytes.count)]) }
    }

    struct AsyncIterator: AsyncIteratorProtocol {
        var remaining: ArraySlice<[UInt8]>
        mutating func next() async -> [UInt8]? { remaining.popFirst() }
    }

    func makeAsyncIterator() -> AsyncIterator { AsyncIterator(remaining: chunks[...]) }
}

@Suite("Compressed bodies: gzip and deflate undone as they arrive, within limits")
struct ContentDecodingTests {
    static func head(_ coding: String?, type: String = "application/x-ndjson") -> HTTPResponse {
        var fields: HTTPFields = [.contentType: type]
        if let coding { fields[.contentEncoding] = coding }
        return HTTPResponse(status: .ok, headerFields: fields)
    }

    /// Text that compresses as real bodies do: records with varied values.
    static let plain: [UInt8] = {
        var text = ""
        var state: UInt64 = 7
        for index in 0..<4_000 {
            state = state &* 6364136223846793005 &+ 1442695040888963407
            text += #"{"id":\#(index),"value":\#(state >> 40),"name":"item \#(state % 977)"}"# + "\n"
        }
        return Array(text.utf8)
    }()

    static func decoded(_ body: [UInt8], coding: String?, size: Int, limits: DecompressionLimits = DecompressionLimits()) async throws -> [UInt8] {
        var out: [UInt8] = []
        for try await chunk in try Chunks(body, size: size).decodingContentEncoding(of: head(coding), limits: limits) { out += chunk }
        return out
    }

    @Test("gzip, zlib deflate and raw deflate decode to the same bytes at every chunking", arguments: ["gzip", "x-gzip", "deflate", "raw"])
    func decodesAnyChunking(coding: String) async throws {
        var body = try Deflater.compress(Self.plain, as: coding.hasSuffix("gzip") ? .gzip : .deflate)
        if coding == "raw" { body = Array(body.dropFirst(2).dropLast(4)) }  // the zlib header and checksum off
        for size in [1, 2, 3, 7, 100, 4_096, body.count] {
            #expect(try await Self.decoded(body, coding: coding == "raw" ? "deflate" : coding, size: size) == Self.plain, "chunk size \(size)")
        }
    }

    @Test("concatenated gzip members read as one body, as gzip -dc reads them; no coding passes the body through")
    func membersAndIdentity() async throws {
        let first = Array(Self.plain.prefix(1000)), second = Array(Self.plain.dropFirst(1000))
        let body = try Deflater.compress(first, as: .gzip) + Deflater.compress(second, as: .gzip)
        #expect(try await Self.decoded(body, coding: "gzip", size: 5) == Self.plain)
        #expect(try await Self.decoded(Self.plain, coding: nil, size: 333) == Self.plain)
        #expect(try await Self.decoded(Self.plain, coding: "identity", size: 333) == Self.plain)
    }

    @Test("a truncated body, bytes after the stream, and corrupt data are typed errors")
    func malformed() async throws {
        let gzip = try Deflater.compress(Self.plain, as: .gzip)
        await #expect(throws: DecompressionError.truncated) { _ = try await Self.decoded(Array(gzip.dropLast(3)), coding: "gzip", size: 100) }
        await #expect(throws: DecompressionError.truncated) { _ = try await Self.decoded([0x78], coding: "deflate", size: 1) }
        await #expect(throws: DecompressionError.trailingData) { _ = try await Self.decoded(gzip + Array("xyz".utf8), coding: "gzip", size: 64) }
        let deflate = try Deflater.compress(Self.plain, as: .deflate)
        await #expect(throws: DecompressionError.trailingData) { _ = try await Self.decoded(deflate + [0], coding: "deflate", size: 64) }
        var corrupt = gzip
        corrupt[40] ^= 0xFF
        corrupt[41] ^= 0xFF
        await #expect(throws: DecompressionError.self) { _ = try await Self.decoded(corrupt, coding: "gzip", size: 64) }
        #expect(throws: DecompressionError.unsupportedEncoding("br")) { _ = try Chunks([], size: 1).decodingContentEncoding(of: Self.head("br")) }
        #expect(throws: DecompressionError.unsupportedEncoding("gzip, br")) { _ = try ContentEncoding(contentEncoding: "gzip, br") }
        // An empty body with a coding (a HEAD or 204 answer) is empty.
        #expect(try await Self.decoded([], coding: "gzip", size: 1).isEmpty)
    }

    @Test("a decompression bomb stops at the ratio or size limit, having decoded little more than the limit")
    func bombs() async throws {
        let zeros = [UInt8](repeating: 0, count: 64 << 20)
        let bomb = try Deflater.compress(zeros, as: .gzip, level: 9)
        #expect(bomb.count < 100_000)
        await #expect(throws: DecompressionError.ratioTooHigh(limit: 250)) { _ = try await Self.decoded(bomb, coding: "gzip", size: 4_096) }
        let sizeOnly = DecompressionLimits(maximumSize: 2 << 20, maximumRatio: .max)
        await #expect(throws: DecompressionError.outputTooLarge(limit: 2 << 20)) {
            _ = try await Self.decoded(bomb, coding: "gzip", size: 4_096, limits: sizeOnly)
        }
        let generous = DecompressionLimits(maximumSize: nil, maximumRatio: 2_000)
        #expect(try await Self.decoded(bomb, coding: "gzip", size: 65_536, limits: generous).count == zeros.count)
    }

    @Test("a streaming serializer reads a compressed body, and a whole body decodes the same, without its coding fields")
    func withSerializers() async throws {
        let gzip = try Deflater.compress(Self.plain, as: .gzip)
        let head = Self.head("gzip")
        var count = 0
        for try await _ in JSONStreamResponseSerializer().values(for: head, body: try Chunks(gzip, size: 1_000).decodingContentEncoding(of: head)) {
            count += 1
        }
        #expect(count == 4_000)
        var withLength = head
        withLength.headerFields[.contentLength] = String(gzip.count)
        let context = try ResponseContext(response: withLength, data: Data(gzip)).decodingContentEncoding()
        #expect(context.data == Data(Self.plain))
        #expect(context.response?.headerFields[.contentEncoding] == nil && context.response?.headerFields[.contentLength] == nil)
        #expect(try JSONStreamResponseSerializer().responseObject(for: context).count == 4_000)
    }
}
