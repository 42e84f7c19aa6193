/// The chunks of a body a ``StreamBodyWriter`` writes from an `AsyncSequence` of values, as
/// ``StreamBodyWriter/chunks(for:minimumChunkSize:)`` makes them.
///
/// Pull-driven: each `next()` reads from the source only what one chunk needs, so the
/// consumer's pace (a socket's back-pressure) sets the source's. Iterating again iterates the
/// source again.
public struct StreamBodyChunks<Writer: StreamBodyWriter, Source: AsyncSequence>: AsyncSequence
where Source.Element == Writer.Value {
    /// One or more values' bytes.
    public typealias Element = ArraySlice<UInt8>

    /// How each value is written.
    public let writer: Writer
    let source: Source
    /// The fewest bytes a chunk gathers before it is handed on (the last may hold fewer);
    /// 0 hands on each value alone.
    public let minimumChunkSize: Int

    init(writer: Writer, source: Source, minimumChunkSize: Int) {
        self.writer = writer
        self.source = source
        self.minimumChunkSize = Swift.max(0, minimumChunkSize)
    }

    /// Starts writing the body from the source's first value.
    public func makeAsyncIterator() -> AsyncIterator {
        AsyncIterator(writer: writer, source: source.makeAsyncIterator(), minimumChunkSize: minimumChunkSize)
    }

    /// Writes one chunk per `next()`.
    public struct AsyncIterator: AsyncIteratorProtocol {
        private let writer: Writer
        private var source: Source.AsyncIterator
        private let minimumChunkSize: Int
        private var state = State.start
        /// Values written so far.
        private var count = 0

        private enum State {
            case start
            case writing
            /// The chunk before this error has been handed on; the error comes next.
            case failed(any Error)
            case done
        }

        init(writer: Writer, source: Source.AsyncIterator, minimumChunkSize: Int) {
            self.writer = writer
            self.source = source
            self.minimumChunkSize = minimumChunkSize
        }

        /// The next chunk; nil after the last; the source's error or a
        /// ``StreamWritingError`` after the chunks written before it.
        public mutating func next() async throws -> ArraySlice<UInt8>? {
            var bytes: [UInt8] = []
            switch state {
            case .done:
                return nil
            case .failed(let error):
                state = .done
                throw error
            case .start:
                state = .writing
                writer.writeStart(into: &bytes)
            case .writing:
                break
            }
            if minimumChunkSize > 0 { bytes.reserveCapacity(minimumChunkSize + minimumChunkSize / 4) }
            while true {
                let value: Source.Element
                do {
                    guard let next = try await source.next() else {
                        writer.writeEnd(count: count, into: &bytes)
                        state = .done
                        return bytes.isEmpty ? nil : bytes[...]
                    }
                    value = next
                    let mark = bytes.count
                    do {
                        try writer.write(value, index: count + 1, into: &bytes)
                    } catch {
                        bytes.removeSubrange(mark...)
                        throw error
                    }
                    count += 1
                } catch {
                    // What was written before the failure goes first; the error follows.
                    if bytes.isEmpty {
                        state = .done
                        throw error
                    }
                    state = .failed(error)
                    return bytes[...]
                }
                if bytes.count >= minimumChunkSize { return bytes[...] }
            }
        }
    }
}

extension StreamBodyChunks: Sendable where Source: Sendable {}
