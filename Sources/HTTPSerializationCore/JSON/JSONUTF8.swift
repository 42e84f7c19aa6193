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

    /// Validates text from `start` (a byte ≥ 0x80) for at least 32 bytes, and stops early at
    /// a quote, backslash or control character between sequences; returns where it stopped:
    /// at that byte (not consumed) or at a character boundary.
    ///
    /// Text that mixes scripts changes between ASCII and multi-byte sequences every few bytes,
    /// and a branch on each change is mispredicted half the time. Here every byte is one step
    /// of a table-driven automaton (Table 3-7's byte ranges, plus an exit for the string's own
    /// specials), and the only branch taken is the exit. After 32 bytes the caller's
    /// eight-bytes-at-a-time loop gets the text back, in case the rest is ASCII.
    @inline(__always)
    package static func validateRun(_ base: UnsafePointer<UInt8>, from start: Int, end: Int) throws(JSONReadingError) -> Int {
        var index = start
        var state: UInt64 = 0
        let stop = min(start &+ 32, end)
        transitions.withUnsafeBufferPointer { table in
            // To `stop`, then on to the end of a sequence that `stop` cut.
            while index < stop || (state != 0 && index < end) {
                state = table[Int(base[index])] &>> state & 63
                if state >= UTF8State.error { return }
                index &+= 1
            }
        }
        if state == UTF8State.boundary || state == UTF8State.special { return index }
        // Malformed, or cut off by the end: the sequence-by-sequence check finds the offset
        // to report (the lead byte), as it would have without this loop.
        let last = min(index, end - 1)
        var position = start
        while position <= last {
            position = base[position] < 0x80 ? position + 1 : try validateSequence(base, at: position, end: end)
        }
        throw JSONReadingError(.invalidEncoding, offset: last)
    }

    /// States of ``validateRun(_:from:end:)``'s automaton; each is a bit offset into a row of
    /// ``transitions``, whose six bits there are the next state.
    private enum UTF8State {
        static let boundary: UInt64 = 0
        static let oneLeft: UInt64 = 6
        static let twoLeft: UInt64 = 12
        static let afterE0: UInt64 = 18
        static let afterED: UInt64 = 24
        static let threeLeft: UInt64 = 30
        static let afterF0: UInt64 = 36
        static let afterF4: UInt64 = 42
        static let error: UInt64 = 48
        static let special: UInt64 = 54
    }

    /// One row per byte: the next state from each state, six bits at the state's offset.
    private static let transitions: [UInt64] = (0...255).map { (byte: Int) -> UInt64 in
        typealias S = UTF8State
        func next(_ state: UInt64) -> UInt64 {
            let continuation = 0x80...0xBF ~= byte
            switch state {
            case S.boundary:
                switch byte {
                case 0x22, 0x5C, 0x00..<0x20: return S.special
                case 0x20..<0x80: return S.boundary
                case 0xC2...0xDF: return S.oneLeft
                case 0xE0: return S.afterE0
                case 0xE1...0xEC, 0xEE...0xEF: return S.twoLeft
                case 0xED: return S.afterED
                case 0xF0: return S.afterF0
                case 0xF1...0xF3: return S.threeLeft
                case 0xF4: return S.afterF4
                default: return S.error
                }
            case S.oneLeft: return continuation ? S.boundary : S.error
            case S.twoLeft: return continuation ? S.oneLeft : S.error
            case S.afterE0: return 0xA0...0xBF ~= byte ? S.oneLeft : S.error
            case S.afterED: return 0x80...0x9F ~= byte ? S.oneLeft : S.error
            case S.threeLeft: return continuation ? S.twoLeft : S.error
            case S.afterF0: return 0x90...0xBF ~= byte ? S.twoLeft : S.error
            case S.afterF4: return 0x80...0x8F ~= byte ? S.twoLeft : S.error
            default: return state
            }
        }
        return stride(from: UInt64(0), through: S.special, by: 6).reduce(0) { row, state in row | next(state) << state }
    }

    /// For the byte after a backslash: what a simple escape stands for (always 2 or more),
    /// 1 for `u`, 0 for a byte that starts no escape. One load instead of a branch per kind,
    /// which text with many escapes would mispredict.
    package static let escapes: [UInt8] = (0...255).map { (byte: Int) -> UInt8 in
        switch UInt8(byte) {
        case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): return UInt8(byte)
        case UInt8(ascii: "b"): return 0x08
        case UInt8(ascii: "f"): return 0x0C
        case UInt8(ascii: "n"): return 0x0A
        case UInt8(ascii: "r"): return 0x0D
        case UInt8(ascii: "t"): return 0x09
        case UInt8(ascii: "u"): return 1
        default: return 0
        }
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
