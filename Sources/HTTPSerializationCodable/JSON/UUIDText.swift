#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// A UUID's 36-character text (`E621E1F8-C36C-495A-93FC-0C247A3E6E5F`, either case), read
/// from its bytes with no `String` made.
///
/// Only the exact form `UUID(uuidString:)` reads: hyphens at 8, 13, 18 and 23, hex digits
/// elsewhere. Anything else is nil, so the caller falls back to `UUID(uuidString:)`, whose
/// answer stands.
enum UUIDText {
    static func parse(_ bytes: UnsafeBufferPointer<UInt8>) -> UUID? {
        guard bytes.count == 36, let base = bytes.baseAddress, base[8] == UInt8(ascii: "-"), base[13] == UInt8(ascii: "-"),
              base[18] == UInt8(ascii: "-"), base[23] == UInt8(ascii: "-") else { return nil }
        // The 32 digits as two 64-bit halves, each digit's value or 0xFF; any 0xFF spoils `seen`.
        var seen: UInt8 = 0
        @inline(__always) func digits(_ start: Int, _ count: Int, into value: inout UInt64) {
            for index in start..<(start &+ count) {
                let digit = nibble(base[index])
                seen |= digit
                value = value << 4 | UInt64(digit & 0x0F)
            }
        }
        var high: UInt64 = 0, low: UInt64 = 0
        digits(0, 8, into: &high)
        digits(9, 4, into: &high)
        digits(14, 4, into: &high)
        digits(19, 4, into: &low)
        digits(24, 12, into: &low)
        guard seen & 0xF0 == 0 else { return nil }
        @inline(__always) func byte(_ word: UInt64, _ index: UInt64) -> UInt8 { UInt8(truncatingIfNeeded: word >> (56 &- index &* 8)) }
        return UUID(uuid: (byte(high, 0), byte(high, 1), byte(high, 2), byte(high, 3), byte(high, 4), byte(high, 5), byte(high, 6), byte(high, 7),
                           byte(low, 0), byte(low, 1), byte(low, 2), byte(low, 3), byte(low, 4), byte(low, 5), byte(low, 6), byte(low, 7)))
    }

    /// The value of one hex digit, or 0xFF.
    @inline(__always)
    private static func nibble(_ byte: UInt8) -> UInt8 {
        let digit = byte &- UInt8(ascii: "0")
        // Folds A-F onto a-f; nothing else lands in a-f.
        let letter = (byte | 0x20) &- UInt8(ascii: "a")
        return digit < 10 ? digit : letter < 6 ? letter &+ 10 : 0xFF
    }
}
