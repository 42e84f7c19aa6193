#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
internal import CZlib
import HTTPSerializationCore

/// A body compressed as it is read: its source is pulled in 64 KiB steps and deflated, so a
/// large form or file is never held whole. Without a source, input is pushed in instead
/// (``deflate(pushing:)``), for bodies that arrive as an async sequence.
final class DeflatingStream: MultipartPartStream {
    private let source: (any BodyByteSource)?
    private let stream: UnsafeMutablePointer<z_stream>
    private var input: UnsafeMutableBufferPointer<UInt8>
    private var sourceEnded = false
    private var finished = false
    /// zlib accepted the stream, so `deinit` must end it.
    private var started = false

    init(source: (any BodyByteSource)?, encoding: ContentEncoding, level: Int32) throws {
        self.source = source
        stream = .allocate(capacity: 1)
        stream.initialize(to: z_stream())
        input = .allocate(capacity: 1 << 16)
        // Every property is set, so `deinit` runs (and frees the buffers) even if this throws.
        guard czlib_deflate_init(stream, level, encoding == .gzip ? 31 : 15) == Z_OK else {
            throw MultipartStreamError(reason: "zlib could not start compressing")
        }
        started = true
    }

    deinit {
        if started { deflateEnd(stream) }
        stream.deinitialize(count: 1)
        stream.deallocate()
        input.deallocate()
    }

    func read(into buffer: inout OutputSpan<UInt8>) throws {
        try buffer.withUnsafeMutableBufferPointer { free, initializedCount in
            initializedCount += try deflate(into: UnsafeMutableRawBufferPointer(UnsafeMutableBufferPointer(rebasing: free[initializedCount...])))
        }
    }

    /// Fills `buffer` with compressed bytes and returns how many; 0 once the stream has ended.
    func deflate(into buffer: UnsafeMutableRawBufferPointer) throws -> Int {
        guard !finished, let out = buffer.baseAddress, buffer.count > 0 else { return 0 }
        stream.pointee.next_out = out.assumingMemoryBound(to: UInt8.self)
        stream.pointee.avail_out = UInt32(min(buffer.count, Int(UInt32.max)))
        // Deflate until some output is ready or the stream has ended.
        while stream.pointee.avail_out == UInt32(min(buffer.count, Int(UInt32.max))) {
            if stream.pointee.avail_in == 0, !sourceEnded, let source {
                let count = try source.read(into: UnsafeMutableRawBufferPointer(input))
                if count == 0 { sourceEnded = true }
                stream.pointee.next_in = input.baseAddress
                stream.pointee.avail_in = UInt32(count)
            }
            let status = zlibDeflate(stream, sourceEnded ? Z_FINISH : Z_NO_FLUSH)
            if status == Z_STREAM_END {
                finished = true
                break
            }
            guard status == Z_OK || status == Z_BUF_ERROR else {
                throw MultipartStreamError(reason: "zlib failed compressing (\(status))")
            }
        }
        return buffer.count - Int(stream.pointee.avail_out)
    }

    func close() {
        source?.close()
    }

    /// Compresses `input`, or ends the stream when it is nil, and returns the output zlib has
    /// ready (often none until enough input has gone in).
    func deflate(pushing input: ArraySlice<UInt8>?) throws -> [UInt8] {
        guard !finished else { return [] }
        var output: [UInt8] = []
        try (input ?? []).withUnsafeBufferPointer { bytes in
            stream.pointee.next_in = UnsafeMutablePointer(mutating: bytes.baseAddress)
            stream.pointee.avail_in = UInt32(bytes.count)
            // The input pointer is only valid in here: every byte goes in before it returns.
            defer {
                stream.pointee.next_in = nil
                stream.pointee.avail_in = 0
            }
            while true {
                stream.pointee.next_out = self.input.baseAddress
                stream.pointee.avail_out = UInt32(self.input.count)
                let status = zlibDeflate(stream, input == nil ? Z_FINISH : Z_NO_FLUSH)
                guard status == Z_OK || status == Z_BUF_ERROR || status == Z_STREAM_END else {
                    throw MultipartStreamError(reason: "zlib failed compressing (\(status))")
                }
                output += UnsafeBufferPointer(rebasing: self.input[..<(self.input.count - Int(stream.pointee.avail_out))])
                if status == Z_STREAM_END {
                    finished = true
                    return
                }
                // Done when all input is in and zlib had room to spare (and, at the end, said so).
                if stream.pointee.avail_in == 0, stream.pointee.avail_out > 0, input != nil { return }
            }
        }
        return output
    }
}

/// zlib's `deflate`, named apart from the method above.
private func zlibDeflate(_ stream: UnsafeMutablePointer<z_stream>, _ flush: Int32) -> Int32 {
    deflate(stream, flush)
}

/// An async-sequence body compressed chunk by chunk as it is sent, with no thread waiting.
struct DeflatedChunks: AsyncSequence, Sendable {
    typealias Element = ArraySlice<UInt8>

    let chunks: AsyncChunkFactory
    let encoding: ContentEncoding
    let level: Int32

    func makeAsyncIterator() -> AsyncIterator {
        AsyncIterator(reader: chunks.makeReader(), encoding: encoding, level: level)
    }

    struct AsyncIterator: AsyncIteratorProtocol {
        let reader: any AsyncChunkReading
        let encoding: ContentEncoding
        let level: Int32
        var deflater: DeflatingStream?
        var ended = false

        init(reader: any AsyncChunkReading, encoding: ContentEncoding, level: Int32) {
            self.reader = reader
            self.encoding = encoding
            self.level = level
        }

        mutating func next() async throws -> ArraySlice<UInt8>? {
            let deflater = try self.deflater ?? DeflatingStream(source: nil, encoding: encoding, level: level)
            self.deflater = deflater
            while !ended {
                let input = try await reader.next()
                if input == nil { ended = true }
                let output = try deflater.deflate(pushing: input)
                if !output.isEmpty { return output[...] }
            }
            return nil
        }
    }
}

extension RequestBody {
    /// This body compressed with `encoding`: bytes stay bytes (with their new, smaller length);
    /// a form or stream becomes a stream compressed as it is sent, whose length is not known
    /// in advance, so it goes out chunked.
    ///
    /// As Alamofire's `DeflateRequestCompressor` does for `Data` bodies; set the matching
    /// `Content-Encoding`, or use `SerializedRequest.compressed(_:level:)`,
    /// which does.
    ///
    /// - Parameters:
    ///   - encoding: gzip, or zlib-wrapped deflate.
    ///   - level: zlib's level, 1 (fastest) to 9 (smallest); 6 by default.
    public func compressed(_ encoding: ContentEncoding, level: Int = 6) throws -> RequestBody {
        let level = Int32(clamping: Swift.min(Swift.max(level, 1), 9))
        switch self {
        case .none:
            return .none
        case .bytes(let data):
            return .bytes(Data(try Deflater.compress(Array(data), as: encoding, level: level)))
        case .multipart, .stream:
            let body = self
            if let chunks = asyncChunks {
                return .stream(RequestBodyStream(chunks: DeflatedChunks(chunks: chunks, encoding: encoding, level: level)))
            }
            return .stream(try RequestBodyStream(length: nil) {
                try DeflatingStream(source: body.makeSource(), encoding: encoding, level: level)
            })
        }
    }
}

extension SerializedRequest {
    /// This request with its body compressed with `encoding` and `Content-Encoding` set: a
    /// bytes body gets its new `Content-Length`, a form or stream goes out chunked.
    ///
    /// ```swift
    /// let request = try serializer.httpRequest(method: .post, url: url, body: .bytes(export)).compressed(.gzip)
    /// ```
    ///
    /// - Throws: ``/HTTPSerializationCore/RequestSerializationError/invalidHeaderField(name:reason:)``
    ///   when the request already has a `Content-Encoding`: a body is compressed once.
    public func compressed(_ encoding: ContentEncoding = .gzip, level: Int = 6) throws -> SerializedRequest {
        guard request.headerFields[.contentEncoding] == nil else {
            throw RequestSerializationError.invalidHeaderField(name: "Content-Encoding", reason: "the body is already encoded")
        }
        var compressed = self
        compressed.body = try body.compressed(encoding, level: level)
        guard !compressed.body.isEmpty else { return self }
        compressed.request.headerFields[.contentEncoding] = encoding.rawValue
        compressed.request.headerFields[.contentLength] = compressed.body.length.map(String.init)
        return compressed
    }
}
