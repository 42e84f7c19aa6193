extension Sequence<UInt8> {
    /// Runs `body` over this chunk's bytes in place when they are contiguous (`[UInt8]`,
    /// `Data`, a `ByteBuffer`'s view), and over one copy otherwise: the one way every
    /// streaming reader takes a chunk of an `AsyncSequence` body.
    package func withChunkBytes(_ body: (UnsafeBufferPointer<UInt8>) throws -> Void) rethrows {
        if let done: Void = try withContiguousStorageIfAvailable(body) { return done }
        try Array(self).withUnsafeBufferPointer(body)
    }
}
