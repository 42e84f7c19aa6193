/// UTF-8 and hex facts the JSON scanner and string decoder share.
package enum JSONUTF8 {
    /// Validates the multi-byte sequence whose lead byte (≥ 0x80) is at `start`, by the
    /// well-formed byte ranges of Unicode Table 3-7 (no overlongs, no surrogates, nothing past
    /// U+10FFFF); returns the index after it.
    @inline(__always)
    package static func validateSequence(_ base: UnsafePointer<UInt8>, at start: Int, end: Int) throws(JSONReadingError) -> Int {
        let lead = base[start]
        let length: Int
        var low: UInt8 = 0x80
        var high: UInt8 = 0xBF
        switch lead {
        case 0xC2...0xDF: length = 2
        case 0xE0: length = 3; low = 0xA0
        case 0xE1...0xEC, 0xEE...0xEF: length = 3
        case 0xED: length = 3; high = 0x9F
        case 0xF0: length = 4; low = 0x90
        case 0xF1...0xF3: length = 4
        case 0xF4: length = 4; high = 0x8F
        default: throw JSONReadingError(.invalidEncoding, offset: start)
        }
        guard start + length <= end else { throw JSONReadingError(.invalidEncoding, offset: start) }
        let second = base[start + 1]
        guard second >= low, second <= high else { throw JSONReadingError(.invalidEncoding, offset: start) }
        for index in (start + 2)..<(start + length) where base[index] & 0xC0 != 0x80 {
            throw JSONReadingError(.invalidEncoding, offset: start)
        }
        return start + length
    }

    @inline(__always)
    package static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): return byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): return byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): return byte - UInt8(ascii: "A") + 10
        default: return nil
        }
    }
}
