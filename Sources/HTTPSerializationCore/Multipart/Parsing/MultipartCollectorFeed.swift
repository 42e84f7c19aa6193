/// Feeds a ``MultipartFormCollector`` a body as it arrives, on the reading task while the
/// bytes can only go to memory, and through ``BlockingIO`` once they may create, write or close
/// a temporary file: a large chunk there on its own, small ones gathered to 256 KiB so a
/// spilled file costs one thread hop per 256 KiB, not per chunk.
///
/// `@unchecked Sendable` is sound: one read owns it and calls it in sequence, and the part of a
/// call that runs through ``BlockingIO`` runs while that read's task awaits it, so the
/// collector and the gathered bytes are never touched by two threads at once.
final class MultipartCollectorFeed: @unchecked Sendable {
    /// Bytes gathered before one hop.
    static let batchSize = 256 << 10

    private let collector: MultipartFormCollector
    private var gathered: [UInt8] = []

    init(_ collector: MultipartFormCollector) {
        self.collector = collector
    }

    /// Feeds `chunk`, after any bytes gathered before it.
    func take<Chunk: Sequence<UInt8>>(_ chunk: Chunk) async throws {
        let estimate = chunk.underestimatedCount
        if gathered.isEmpty, estimate >= Self.batchSize / 2, collector.mayWriteFile(taking: estimate) {
            // A chunk this large is read where it is, on the blocking thread.
            let held = UncheckedChunk { try chunk.withChunkBytes($0) }
            try await BlockingIO.run { try held.withBytes { try self.collector.feed(UnsafeRawBufferPointer($0)) } }
            return
        }
        try chunk.withChunkBytes { bytes in
            if gathered.isEmpty, !collector.mayWriteFile(taking: bytes.count) {
                try collector.feed(UnsafeRawBufferPointer(bytes))
            } else {
                gathered.append(contentsOf: bytes)
            }
        }
        if gathered.count >= Self.batchSize { try await flush() }
    }

    /// Feeds what is gathered, then ends the read.
    func finish() async throws -> MultipartForm {
        try await flush()
        return try collector.finish()
    }

    private func flush() async throws {
        guard !gathered.isEmpty else { return }
        try await BlockingIO.run {
            defer { self.gathered.removeAll(keepingRoomUpTo: 2 * Self.batchSize) }
            try self.gathered.withUnsafeBytes { try self.collector.feed($0) }
        }
    }
}

/// A chunk of a body, as the way to read its bytes, carried to ``BlockingIO`` and back.
///
/// `@unchecked Sendable` is sound: the task that owns the chunk awaits the one call that reads
/// it, and keeps no other reference to it meanwhile.
private struct UncheckedChunk: @unchecked Sendable {
    let withBytes: ((UnsafeBufferPointer<UInt8>) throws -> Void) throws -> Void
}
