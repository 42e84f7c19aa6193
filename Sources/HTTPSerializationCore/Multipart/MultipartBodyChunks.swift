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
    public func chunks(size: Int = 256 * 1024) -> MultipartBodyChunks {
        MultipartBodyChunks(form: self, chunkSize: max(1, size))
    }
}

/// Chunks of at most `chunkSize` bytes (or the throttle's packet size), read lazily; the
/// throttle's delay is a `Task.sleep`, so no thread is blocked.
public struct MultipartBodyChunks: AsyncSequence, Sendable {
    public typealias Element = Data

    public let form: MultipartFormData
    public let chunkSize: Int

    public func makeAsyncIterator() -> AsyncIterator {
        AsyncIterator(form: form, chunkSize: chunkSize)
    }

    public struct AsyncIterator: AsyncIteratorProtocol {
        private let form: MultipartFormData
        private let chunkSize: Int
        private var reader: MultipartBodyReader?
        private var throttle: ThrottleState
        private var finished = false

        init(form: MultipartFormData, chunkSize: Int) {
            self.form = form
            self.chunkSize = chunkSize
            throttle = ThrottleState(form.throttle)
        }

        public mutating func next() async throws -> Data? {
            guard !finished else { return nil }
            if reader == nil { reader = MultipartBodyReader(form: form) }
            let pause = throttle.pauseBeforeNextPacket()
            if pause > 0 { try await Task.sleep(nanoseconds: UInt64(pause * 1e9)) }
            var chunk = Data(count: throttle.cap(chunkSize))
            let count: Int
            do {
                count = try chunk.withUnsafeMutableBytes { try reader!.read(into: $0) }
            } catch {
                finish()
                throw error
            }
            guard count > 0 else {
                finish()
                return nil
            }
            chunk.count = count
            return chunk
        }

        private mutating func finish() {
            finished = true
            reader?.close()
            reader = nil
        }
    }
}
