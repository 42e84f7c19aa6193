/// Reading a run of fewer than eight bytes as one word, for the writers and hashes that
/// otherwise take short strings a byte at a time.
@usableFromInline package enum ShortBytes {
    /// One to seven bytes at `source` as a word, byte 0 lowest and zeros above, in at most
    /// three loads and never past `source + count`.
    @inlinable @inline(__always) package static func word(_ source: UnsafePointer<UInt8>, count: Int) -> UInt64 {
        let raw = UnsafeRawPointer(source)
        if count >= 4 {
            // Two four-byte loads that overlap in the middle cover every byte.
            let low = UInt64(raw.loadUnaligned(as: UInt32.self).littleEndian)
            let high = UInt64(raw.loadUnaligned(fromByteOffset: count &- 4, as: UInt32.self).littleEndian)
            return low | high &<< UInt64(8 &* (count &- 4))
        }
        // One to three bytes: the first, the middle and the last are all of them.
        let middle = count &>> 1
        return UInt64(source[0]) | UInt64(source[middle]) &<< UInt64(8 &* middle) | UInt64(source[count &- 1]) &<< UInt64(8 &* (count &- 1))
    }
}
