#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// A request body's async sequence of byte chunks with its type erased: each read makes a
/// fresh iterator, so the body can be sent again (a retry, a 307 or 308 redirect).
package struct AsyncChunkFactory: Sendable {
    private let chunks: any AsyncChunkSequence

    package init<Chunks: AsyncSequence & Sendable>(_ chunks: Chunks) where Chunks.Element: Sequence<UInt8> {
        self.chunks = ErasedChunks(chunks: chunks)
    }

    /// A reader from the sequence's first chunk.
    package func makeReader() -> any AsyncChunkReading { chunks.makeReader() }
}

/// A sequence of byte chunks that makes readers, whatever its type.
private protocol AsyncChunkSequence: Sendable {
    func makeReader() -> any AsyncChunkReading
}

private struct ErasedChunks<Chunks: AsyncSequence & Sendable>: AsyncChunkSequence where Chunks.Element: Sequence<UInt8> {
    let chunks: Chunks
    func makeReader() -> any AsyncChunkReading { AsyncChunkReader(chunks.makeAsyncIterator()) }
}

/// Reads an async body chunk by chunk; one task reads it at a time.
package protocol AsyncChunkReading: AnyObject {
    /// The next chunk (possibly empty), or nil once the sequence has ended; the sequence's own
    /// error, unchanged.
    func next() async throws -> ArraySlice<UInt8>?
}

final class AsyncChunkReader<Iterator: AsyncIteratorProtocol>: AsyncChunkReading where Iterator.Element: Sequence<UInt8> {
    private var iterator: Iterator

    init(_ iterator: Iterator) {
        self.iterator = iterator
    }

    func next() async throws -> ArraySlice<UInt8>? {
        guard let chunk = try await iterator.next() else { return nil }
        if let slice = chunk as? ArraySlice<UInt8> { return slice }
        return chunk.withContiguousStorageIfAvailable { ArraySlice($0) } ?? ArraySlice(chunk)
    }
}

/// An async body's chunks re-cut to the sizes a reader asks for.
package final class AsyncChunkBuffer {
    private let reader: any AsyncChunkReading
    private var pending: ArraySlice<UInt8> = []
    private var ended = false

    package init(_ reader: any AsyncChunkReading) {
        self.reader = reader
    }

    /// Up to `maximum` (at least 1) of the next bytes, never empty; nil once the sequence has ended.
    package func next(upTo maximum: Int) async throws -> ArraySlice<UInt8>? {
        while pending.isEmpty {
            guard !ended, let chunk = try await reader.next() else {
                ended = true
                return nil
            }
            pending = chunk
        }
        let taken = pending.prefix(Swift.max(1, maximum))
        pending = pending.dropFirst(taken.count)
        return taken
    }
}

/// An async body read by a synchronous reader (an `InputStream` on URLSession's thread, a
/// synchronous `collect()`): each chunk is fetched by a task while the reading thread waits.
///
/// Only readers on threads of their own come here; the package's async paths (both
/// transports' chunk sequences, `write(to:)`, compression) read the sequence directly, so no
/// thread of Swift's cooperative pool ever waits on another task.
final class BlockingChunkSource: BodyByteSource {
    private let chunks: ChunksBox
    private var ended = false

    /// Hands the chunks to one task at a time.
    ///
    /// `@unchecked Sendable`: they are touched only by the task `read` starts, and `read`
    /// starts the next only after waiting for that one's result, so no two tasks ever use
    /// them at once.
    private final class ChunksBox: @unchecked Sendable {
        let chunks: AsyncChunkBuffer
        init(_ chunks: AsyncChunkBuffer) { self.chunks = chunks }
    }

    init(_ factory: AsyncChunkFactory) {
        chunks = ChunksBox(AsyncChunkBuffer(factory.makeReader()))
    }

    func read(into buffer: UnsafeMutableRawBufferPointer) throws -> Int {
        guard !ended, !buffer.isEmpty else { return 0 }
        let box = chunks
        let maximum = buffer.count
        switch BlockingResult<ArraySlice<UInt8>?>.waiting({ try await box.chunks.next(upTo: maximum) }) {
        case .success(let chunk?):
            chunk.withUnsafeBytes { buffer.copyMemory(from: $0) }
            return chunk.count
        case .success(nil):
            ended = true
            return 0
        case .failure(let error):
            ended = true
            throw error
        }
    }

    func close() {
        ended = true
    }
}
