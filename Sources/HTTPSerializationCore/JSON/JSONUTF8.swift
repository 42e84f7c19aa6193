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

    /// Validates text from `start` (a byte ≥ 0x80) for at least 32 bytes, passing simple
    /// escapes such as `\n`, and stops early between sequences at a quote, a control character
    /// or an escape it leaves to the caller (`\u`, or an invalid one). Returns where it stopped,
    /// at that byte or at that escape's backslash (neither consumed) or at a character
    /// boundary, and whether it passed a backslash.
    ///
    /// Text that mixes scripts changes between ASCII and multi-byte sequences every few bytes,
    /// and a branch on each change is mispredicted half the time. Here every byte is one step
    /// of a table-driven automaton (Table 3-7's byte ranges, plus states for a string's
    /// escapes and exits for its specials), and the only branch taken is the exit. The run
    /// goes on in stretches of 32 bytes while the last one held non-ASCII text (past the
    /// run's first four bytes, where its first sequence is), then the caller's
    /// eight-bytes-at-a-time loop gets the text back, in case the rest is ASCII: prose that
    /// mixes scripts stays in the automaton, and ASCII with a rare accent pays 32 bytes of
    /// steps for each. (The design notes have what this and the other lengths tried measured.)
    @inline(__always)
    package static func validateRun(_ base: UnsafePointer<UInt8>, from start: Int, end: Int) throws(JSONReadingError) -> (end: Int, passedEscape: Bool) {
        var index = start
        // The shifted row: the state is its low six bits. `&>>` reads only those six bits of
        // its count, so the next step needs no mask and each byte costs one shift of latency.
        var row: UInt64 = 0
        // Every row passed, or-ed: bit 63 is set if one was a backslash's, bit 62 if one in
        // the current stretch was a byte above 0x7F's.
        var marks: UInt64 = 0
        var stop = min(start &+ 32, end)
        utf8Transitions.withUnsafeBufferPointer { table in
            /// One byte's step; true at an exit.
            @inline(__always) func step(_ at: Int) -> Bool {
                let next = table[Int(base[at])]
                marks |= next
                row = next &>> row
                return row & 63 >= UTF8State.error
            }
            /// Four steps, with a test for the exit after each (never taken but once); true at
            /// an exit, with `index` at its byte.
            @inline(__always) func fourSteps() -> Bool {
                if step(index) { return true }
                if step(index &+ 1) { index &+= 1; return true }
                if step(index &+ 2) { index &+= 2; return true }
                if step(index &+ 3) { index &+= 3; return true }
                index &+= 4
                return false
            }
            // Stretches of 32 bytes, while the last one held non-ASCII text past the run's
            // first four bytes (its first sequence).
            if index &+ 4 <= stop {
                if fourSteps() { return }
                marks &= ~nonASCIIMark
            }
            while true {
                while index &+ 4 <= stop {
                    if fourSteps() { return }
                }
                guard marks & nonASCIIMark != 0, stop &+ 32 <= end else { break }
                marks &= ~nonASCIIMark
                stop &+= 32
            }
            // On to `stop`, then to the end of a sequence or escape that `stop` cut.
            while index < stop || (row & 63 != 0 && index < end) {
                if step(index) { return }
                index &+= 1
            }
        }
        let passedEscape = marks >> 63 != 0
        switch row & 63 {
        case UTF8State.boundary, UTF8State.special:
            return (index, passedEscape)
        case UTF8State.escapeToCheck, UTF8State.escape:
            // A `\u`, an invalid escape, or a backslash that ends the text: the caller's own
            // escape check reads it from its backslash and reports it as it would have.
            return (index - 1, passedEscape)
        default:
            break
        }
        // Malformed, or cut off by the end: the sequence-by-sequence check finds the offset
        // to report (the lead byte), as it would have without this loop.
        let last = min(index, end - 1)
        var position = start
        while position <= last {
            position = base[position] < 0x80 ? position + 1 : try validateSequence(base, at: position, end: end)
        }
        throw JSONReadingError(.invalidEncoding, offset: last)
    }

    /// The bit of a row of ``utf8Transitions`` set for bytes above 0x7F.
    static let nonASCIIMark: UInt64 = 1 << 62

    /// States of ``validateRun(_:from:end:)``'s automaton; each is a bit offset into a row of
    /// ``utf8Transitions`` (generated by `Scripts/generate-json-byte-tables.py`), whose six
    /// bits there are the next state. The last three are exits: values only, with no field.
    enum UTF8State {
        static let boundary: UInt64 = 0
        static let oneLeft: UInt64 = 6
        static let twoLeft: UInt64 = 12
        static let afterE0: UInt64 = 18
        static let afterED: UInt64 = 24
        static let threeLeft: UInt64 = 30
        static let afterF0: UInt64 = 36
        static let afterF4: UInt64 = 42
        /// After a backslash.
        static let escape: UInt64 = 48
        static let error: UInt64 = 54
        /// A `\u` or invalid escape, left to the caller.
        static let escapeToCheck: UInt64 = 57
        /// A quote or control character.
        static let special: UInt64 = 60
    }

    @inline(__always)
    package static func hexValue(_ byte: UInt8) -> UInt8? {
        let value = hexDigits[Int(byte)]
        return value < 16 ? value : nil
    }
}
