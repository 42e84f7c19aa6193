/// Sixteen bytes compared at once, for the loop that escapes string text.
///
/// Lane comparisons on `SIMD16<UInt8>` compile to a vector instruction or two each (SSE2 on
/// x86-64, NEON on arm64); the mask is read back as two words, so the first flagged byte is found
/// with one bit scan and no false alarms (word tricks can flag a byte that only borrowed).
@usableFromInline package enum ByteBlock {
    // Spelled out as `SIMD16<UInt8>`: written inline as `SIMD16(repeating:)`, the comparisons
    // compile lane by lane, many times slower (the design notes have the figure).
    @inlinable static var quotes: SIMD16<UInt8> { SIMD16<UInt8>(repeating: UInt8(ascii: "\"")) }
    @inlinable static var backslashes: SIMD16<UInt8> { SIMD16<UInt8>(repeating: UInt8(ascii: "\\")) }
    @inlinable static var slashes: SIMD16<UInt8> { SIMD16<UInt8>(repeating: UInt8(ascii: "/")) }
    @inlinable static var spaces: SIMD16<UInt8> { SIMD16<UInt8>(repeating: 0x20) }

    /// The first lane of `mask` that is set; 16 when none is.
    @inlinable @inline(__always)
    package static func firstSet(_ mask: SIMDMask<SIMD16<Int8>>) -> Int {
        // Lane i is byte i in memory; `littleEndian` makes it byte i of each word on any host.
        let words = unsafeBitCast(mask, to: SIMD2<UInt64>.self)
        let low = words[0].littleEndian
        if low != 0 { return low.trailingZeroBitCount &>> 3 }
        let high = words[1].littleEndian
        return high == 0 ? 16 : 8 &+ high.trailingZeroBitCount &>> 3
    }

    /// The offset of the first byte of the 16 at `source` that JSON output must escape (a
    /// control character, a quote, a backslash, and a slash when `slashes`); 16 when none is.
    @inlinable @inline(__always)
    package static func firstEscaped(_ source: UnsafeRawPointer, slashes: Bool) -> Int {
        let block = source.loadUnaligned(as: SIMD16<UInt8>.self)
        var special = (block .== Self.quotes) .| (block .== Self.backslashes) .| (block .< Self.spaces)
        if slashes { special .|= block .== Self.slashes }
        return firstSet(special)
    }
}
