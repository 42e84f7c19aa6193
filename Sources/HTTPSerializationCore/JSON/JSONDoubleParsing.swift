extension JSONTapeReader {
    /// The double nearest `significand` × 10^`power` (significand nonzero), correctly rounded,
    /// or nil in the rare case the 128-bit product cannot decide the rounding.
    ///
    /// The Eisel-Lemire method: the significand times a 128-bit approximation of 5^power
    /// (``powersOfFive``) gives the binary significand, and 2^power is only an exponent. It
    /// holds any significand of up to 19 digits, where the exact fast path needs 15.
    static func nearestDouble(significand: UInt64, power: Int) -> Double? {
        // Below 10^-342 every significand rounds to zero; above 10^308 to infinity.
        guard power >= -342 else { return 0 }
        guard power <= 308 else { return .infinity }
        let leadingZeros = significand.leadingZeroBitCount
        let normalized = significand << leadingZeros
        let index = 2 * (power + 342)
        var (high, low) = normalized.multipliedFullWidth(by: powersOfFive[index])
        // 55 bits decide the result (52 stored, the hidden bit, a rounding bit and one more);
        // when the bits below them are all ones, a carry from the low word could change them.
        let belowPrecision: UInt64 = 0x1FF
        if high & belowPrecision == belowPrecision {
            let correction = normalized.multipliedFullWidth(by: powersOfFive[index + 1]).high
            let (sum, carry) = low.addingReportingOverflow(correction)
            low = sum
            if carry { high &+= 1 }
        }
        // Possibly undecided outside the range where the table is exact enough.
        if low == .max, power < -27 || power > 55 { return nil }
        let upperBit = Int(high >> 63)
        let shift = upperBit + 64 - 52 - 3
        var mantissa = high >> UInt64(shift)
        // floor(log2(10^power)) + 63, from 217706 / 2^16 ≈ log2(10); exact across the table.
        var exponent = ((217_706 &* power) >> 16) + 63 + upperBit - leadingZeros + 1023
        if exponent <= 0 {
            // Subnormal: shift into place, round half up (ties cannot occur here).
            guard -exponent + 1 < 64 else { return 0 }
            mantissa >>= UInt64(-exponent + 1)
            mantissa += mantissa & 1
            mantissa >>= 1
            exponent = mantissa < 1 << 52 ? 0 : 1
            return Double(bitPattern: mantissa & ((1 << 52) - 1) | UInt64(exponent) << 52)
        }
        // A product exactly halfway between two doubles rounds to the even one; only powers
        // in -4...23 can give an exact halfway product.
        if low <= 1, power >= -4, power <= 23, mantissa & 3 == 1, mantissa << UInt64(shift) == high {
            mantissa &= ~1
        }
        mantissa += mantissa & 1
        mantissa >>= 1
        if mantissa >= 2 << 52 {
            mantissa = 1 << 52
            exponent += 1
        }
        guard exponent < 0x7FF else { return .infinity }
        return Double(bitPattern: mantissa & ((1 << 52) - 1) | UInt64(exponent) << 52)
    }
}
