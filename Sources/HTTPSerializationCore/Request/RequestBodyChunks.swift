#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

extension MultipartFormData {
    /// The body as an `AsyncSequence` of chunks for async transports; iterate again for a replay.
    ///
    /// ```swift
    /// for try await chunk in form.chunks() { try await upload(chunk) }
    /// ```
    public func chunks(size: Int = 256 * 1024) -> RequestBodyChunks {
        RequestBody.multipart(self).chunks(size: size)
    }

    /// The body as an `AsyncSequence` of byte slices with a known length: the shape
    /// swift-openapi-runtime's `HTTPBody` and other async transports take, without a
    /// dependency on them.
    ///
    /// ```swift
    /// let body = HTTPBody(form.byteChunks(), length: .known(Int64(form.contentLength)),
    ///                     iterationBehavior: .multiple)
    /// ```
    public func byteChunks(size: Int = 256 * 1024) -> RequestByteChunks {
        RequestBody.multipart(self).byteChunks(size: size)
    }
}

extension RequestBody {
    /// The body as an `AsyncSequence` of `Data` chunks for async transports; iterate again for
    /// a replay (a single-use stream cannot be replayed).
    public func chunks(size: Int = 256 * 1024) -> RequestBodyChunks {
        RequestBodyChunks(body: self, chunkSize: max(1, size))
    }

    /// The body as an `AsyncSequence` of byte slices with its length, for transports that take
    /// that shape (swift-openapi-runtime's `HTTPBody`).
    public func byteChunks(size: Int = 256 * 1024) -> RequestByteChunks {
        RequestByteChunks(body: self, chunkSize: max(1, size))
    }
}

/// The chunk sequence of a form, as ``MultipartFormData/chunks(size:)`` makes it.
public typealias MultipartBodyChunks = RequestBodyChunks
/// The byte-slice sequence of a form, as ``MultipartFormData/byteChunks(size:)`` makes it.
public typealias MultipartByteChunks = RequestByteChunks

/// Chunks of at most `chunkSize` bytes (or the throttle's packet size), read lazily; the
/// throttle's delay is a `Task.sleep`, so no thread is blocked.
public struct RequestBodyChunks: AsyncSequence, Sendable {
    /// Each chunk is `Data` of at most ``chunkSize`` bytes.
    public typealias Element = Data

    /// The body the chunks make up.
    public let body: RequestBody
    /// The most bytes one chunk holds (at least 1); a throttle's packet size can lower it.
    public let chunkSize: Int

    /// An iterator that reads the body afresh from its first byte.
    public func makeAsyncIterator() -> AsyncIterator {
        AsyncIterator(producer: BodyChunkProducer(body: body, chunkSize: chunkSize))
    }

    /// Reads the body lazily, one chunk per `next()`, and closes the parts when it ends or fails.
    public struct AsyncIterator: AsyncIteratorProtocol {
        var producer: BodyChunkProducer

        /// The next chunk, or nil once the body has ended; throws what reading a part throws.
        public mutating func next() async throws -> Data? {
            try await producer.next { count, read in
                var chunk = Data(count: count)
                let filled = try chunk.withUnsafeMutableBytes(read)
                chunk.count = filled
                return chunk
            }
        }
    }
}

/// The body as `ArraySlice<UInt8>` chunks with its exact ``length``, read lazily and again on
/// every iteration (unless a part is a one-shot stream).
public struct RequestByteChunks: AsyncSequence, Sendable {
    /// Each chunk is an `ArraySlice<UInt8>` of at most ``chunkSize`` bytes.
    public typealias Element = ArraySlice<UInt8>

    /// The body the chunks make up.
    public let body: RequestBody
    /// The most bytes one chunk holds (at least 1); a throttle's packet size can lower it.
    public let chunkSize: Int

    /// The number of bytes every iteration yields (a form's `Content-Length`); nil for a
    /// stream of unknown length.
    public var length: UInt64? { body.length }

    /// An iterator that reads the body afresh from its first byte.
    public func makeAsyncIterator() -> AsyncIterator {
        AsyncIterator(producer: BodyChunkProducer(body: body, chunkSize: chunkSize))
    }

    /// Reads the body lazily, one chunk per `next()`, and closes the parts when it ends or fails.
    public struct AsyncIterator: AsyncIteratorProtocol {
        var producer: BodyChunkProducer

        /// The next chunk, or nil once the body has ended; throws what reading a part throws.
        public mutating func next() async throws -> ArraySlice<UInt8>? {
            try await producer.next { count, read in
                var filled = 0
                let bytes = try [UInt8](unsafeUninitializedCapacity: count) { buffer, initialized in
                    filled = try read(UnsafeMutableRawBufferPointer(buffer))
                    initialized = filled
                }
                return bytes[...]
            }
        }
    }
}

/// What every chunk sequence shares (these two, and the async-http-client bridge's
/// `ByteBuffer`s): the lazy reader, a form's throttle, and closing the sources once the body
/// ends or fails.
package struct BodyChunkProducer {
    private let body: RequestBody
    private let chunkSize: Int
    private var reader: (any BodyByteSource)?
    /// An async-sequence body is awaited directly, never through a blocking reader.
    private var asyncChunks: AsyncChunkBuffer?
    private var throttle: ThrottleState
    private var finished = false

    package init(body: RequestBody, chunkSize: Int) {
        self.body = body
        self.chunkSize = chunkSize
        throttle = ThrottleState(body.throttle)
    }

    /// The next chunk, made by `make` from a capacity and a function that fills a buffer and
    /// returns the count; nil once the body has ended.
    package mutating func next<Chunk>(
        _ make: (Int, (UnsafeMutableRawBufferPointer) throws -> Int) throws -> Chunk
    ) async throws -> Chunk? {
        guard !finished else { return nil }
        if let factory = body.asyncChunks { return try await nextAsync(from: factory, make) }
        let pause = throttle.pauseBeforeNextPacket()
        if pause > 0 { try await Task.sleep(nanoseconds: UInt64(pause * 1e9)) }
        var count = 0
        let chunk: Chunk
        do {
            let reader = try reader ?? body.makeSource()
            self.reader = reader
            chunk = try make(throttle.cap(chunkSize)) { buffer in
                count = try reader.read(into: buffer)
                return count
            }
        } catch {
            finish()
            throw error
        }
        guard count > 0 else {
            finish()
            return nil
        }
        return chunk
    }

    /// The next chunk of an async-sequence body: at most `chunkSize` bytes of what the
    /// sequence delivered.
    private mutating func nextAsync<Chunk>(
        from factory: AsyncChunkFactory, _ make: (Int, (UnsafeMutableRawBufferPointer) throws -> Int) throws -> Chunk
    ) async throws -> Chunk? {
        do {
            let chunks = asyncChunks ?? AsyncChunkBuffer(factory.makeReader())
            asyncChunks = chunks
            guard let taken = try await chunks.next(upTo: chunkSize) else {
                finish()
                return nil
            }
            return try make(taken.count) { buffer in
                taken.withUnsafeBytes { buffer.copyMemory(from: $0) }
                return taken.count
            }
        } catch {
            finish()
            throw error
        }
    }

    private mutating func finish() {
        finished = true
        reader?.close()
        reader = nil
        asyncChunks = nil
    }
}
