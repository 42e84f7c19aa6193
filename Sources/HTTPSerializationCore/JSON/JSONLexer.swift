/// The tokens of RFC 8259 JSON text over raw bytes: one implementation of strings (with their
/// escapes and UTF-8), numbers, literals and whitespace, shared by the scanner that writes the
/// tape and by the reader that generated code runs straight over the text, so both accept the
/// same documents and flag the same strings and numbers.
///
/// Every function reads `base[0..<end]` and nothing past it, and returns the index after what
/// it read.
package enum JSONLexer {
    @inline(__always)
    package static func skipWhitespace(_ base: UnsafePointer<UInt8>, from: Int, end: Int) -> Int {
        var index = from
        while index < end {
            switch base[index] {
            case 0x20, 0x0A, 0x0D, 0x09: index += 1
            default: return index
            }
        }
        return index
    }

    /// Checks the literal `text` (`true`, `false` or `null`) at `start`.
    @inline(__always)
    package static func literal(_ base: UnsafePointer<UInt8>, _ text: StaticString, at start: Int, end: Int) throws(JSONReadingError) -> Int {
        let length = text.utf8CodeUnitCount
        // All literals are four or five bytes: compare the first four at once.
        if start &+ length <= end,
           UnsafeRawPointer(base + start).loadUnaligned(as: UInt32.self) == UnsafeRawPointer(text.utf8Start).loadUnaligned(as: UInt32.self),
           length == 4 || base[start + 4] == text.utf8Start[4] {
            return start + length
        }
        return try misspelledLiteral(base, text, at: start, end: end)
    }

    /// The error for a literal that is not `text`.
    private static func misspelledLiteral(_ base: UnsafePointer<UInt8>, _ text: StaticString, at start: Int, end: Int) throws(JSONReadingError) -> Int {
        let length = text.utf8CodeUnitCount
        for offset in 0..<length {
            guard start + offset < end else {
                throw JSONReadingError(.unexpectedEnd(expected: "\"\(text)\""), offset: start + offset)
            }
            let byte = base[start + offset]
            guard byte == text.utf8Start[offset] else {
                throw JSONReadingError(.unexpectedCharacter(byte, expected: "\"\(text)\""), offset: start + offset)
            }
        }
        return start + length
    }

    // MARK: Strings

    /// Scans the string whose opening quote is at `quote`: the index after its closing quote,
    /// and its ``JSONTape/hasEscapes`` and ``JSONTape/hasNonASCII`` flags.
    @inline(__always)
    package static func string(_ base: UnsafePointer<UInt8>, at quote: Int, end: Int) throws(JSONReadingError) -> (end: Int, flags: UInt8) {
        var index = quote + 1
        var flags: UInt8 = 0
        while true {
            // Eight bytes at a time while none is a quote, a backslash, a control character
            // or non-ASCII; the lowest flagged byte is always a real one (borrows only run up).
            while index &+ 8 <= end {
                let word = UnsafeRawPointer(base + index).loadUnaligned(as: UInt64.self).littleEndian
                let special = zeroBytes(word ^ 0x2222_2222_2222_2222) | zeroBytes(word ^ 0x5C5C_5C5C_5C5C_5C5C)
                    | ((word &- 0x2020_2020_2020_2020) & ~word) | word
                let flagged = special & 0x8080_8080_8080_8080
                if flagged != 0 {
                    index &+= flagged.trailingZeroBitCount >> 3
                    break
                }
                index &+= 8
            }
            guard index < end else {
                throw JSONReadingError(.unexpectedEnd(expected: "a closing quote"), offset: index)
            }
            let byte = base[index]
            if byte == UInt8(ascii: "\"") {
                return (index + 1, flags)
            } else if byte == UInt8(ascii: "\\") {
                flags |= JSONTape.hasEscapes
                index = try escape(base, at: index, end: end)
            } else if byte < 0x20 {
                throw JSONReadingError(.controlCharacterInString, offset: index)
            } else if byte < 0x80 {
                index += 1
            } else {
                flags |= JSONTape.hasNonASCII
                let run = try JSONUTF8.validateRun(base, from: index, end: end)
                index = run.end
                if run.passedEscape { flags |= JSONTape.hasEscapes }
            }
        }
    }

    /// Bytes of `word` that are zero get their high bit set (and bytes above a zero may too).
    @inline(__always)
    private static func zeroBytes(_ word: UInt64) -> UInt64 {
        (word &- 0x0101_0101_0101_0101) & ~word
    }

    /// Validates the escape at `backslash`; returns the index after it.
    private static func escape(_ base: UnsafePointer<UInt8>, at backslash: Int, end: Int) throws(JSONReadingError) -> Int {
        guard backslash + 1 < end else {
            throw JSONReadingError(.unexpectedEnd(expected: "an escape"), offset: backslash + 1)
        }
        switch JSONUTF8.escapes[Int(base[backslash + 1])] {
        case 0:
            throw JSONReadingError(.invalidEscape, offset: backslash)
        case 1:
            let unit = try hex4(base, at: backslash + 2, end: end)
            switch unit {
            case 0xD800...0xDBFF:
                // A high surrogate must be followed at once by an escaped low one.
                guard backslash + 7 < end, base[backslash + 6] == UInt8(ascii: "\\"), base[backslash + 7] == UInt8(ascii: "u"),
                      case 0xDC00...0xDFFF = try hex4(base, at: backslash + 8, end: end) else {
                    throw JSONReadingError(.loneSurrogate, offset: backslash)
                }
                return backslash + 12
            case 0xDC00...0xDFFF:
                throw JSONReadingError(.loneSurrogate, offset: backslash)
            default:
                return backslash + 6
            }
        default:
            return backslash + 2
        }
    }

    private static func hex4(_ base: UnsafePointer<UInt8>, at start: Int, end: Int) throws(JSONReadingError) -> UInt16 {
        guard start + 4 <= end else { throw JSONReadingError(.unexpectedEnd(expected: "four hex digits"), offset: end) }
        // Four loads and one test: a bad digit reads 0xFF, which no good one's bits can hide.
        @inline(__always) func digit(_ at: Int) -> UInt16 { UInt16(JSONUTF8.hexDigits[Int(base[at])]) }
        let (a, b, c, d) = (digit(start), digit(start + 1), digit(start + 2), digit(start + 3))
        guard a | b | c | d < 16 else {
            var bad = start
            while digit(bad) < 16 { bad += 1 }
            throw JSONReadingError(.invalidEscape, offset: bad)
        }
        return a << 12 | b << 8 | c << 4 | d
    }

    // MARK: Numbers

    /// Scans the number starting at `start`: the index after it, and its ``JSONTape/isInteger``
    /// and ``JSONTape/isNegative`` flags. A number no Swift type can hold is refused here.
    @inline(__always)
    package static func number(_ base: UnsafePointer<UInt8>, at start: Int, end: Int) throws(JSONReadingError) -> (end: Int, flags: UInt8) {
        var index = start
        var flags = JSONTape.isInteger
        if base[index] == UInt8(ascii: "-") {
            flags |= JSONTape.isNegative
            index += 1
        }
        guard index < end else { throw JSONReadingError(.unexpectedEnd(expected: "a digit"), offset: index) }
        // The power of ten of the first significant digit, to find numbers no type can hold.
        var magnitude = 0
        var significant = false
        switch base[index] {
        case UInt8(ascii: "0"):
            index += 1
            if index < end, isDigit(base[index]) { throw JSONReadingError(.invalidNumber, offset: index) }
        case UInt8(ascii: "1")...UInt8(ascii: "9"):
            let digitsStart = index
            while index < end, isDigit(base[index]) { index += 1 }
            magnitude = index - digitsStart
            significant = true
        default:
            throw JSONReadingError(.invalidNumber, offset: index)
        }
        if index < end, base[index] == UInt8(ascii: ".") {
            flags &= ~JSONTape.isInteger
            index += 1
            guard index < end, isDigit(base[index]) else { throw JSONReadingError(.invalidNumber, offset: index) }
            while index < end, isDigit(base[index]) {
                if !significant {
                    if base[index] == UInt8(ascii: "0") { magnitude -= 1 } else { significant = true }
                }
                index += 1
            }
        }
        if index < end, base[index] | 0x20 == UInt8(ascii: "e") {
            flags &= ~JSONTape.isInteger
            index += 1
            var negative = false
            if index < end, base[index] == UInt8(ascii: "+") || base[index] == UInt8(ascii: "-") {
                negative = base[index] == UInt8(ascii: "-")
                index += 1
            }
            guard index < end, isDigit(base[index]) else { throw JSONReadingError(.invalidNumber, offset: index) }
            var exponent = 0
            while index < end, isDigit(base[index]) {
                exponent = min(exponent * 10 + Int(base[index] - UInt8(ascii: "0")), 1_000_000)
                index += 1
            }
            magnitude += negative ? -exponent : exponent
        }
        // Past 10^309 no Swift number holds the value; near it only a real conversion tells.
        if significant, magnitude >= 308 {
            let text = String(decoding: UnsafeBufferPointer(start: base + start, count: index - start), as: UTF8.self)
            if magnitude > 310 || !(Double(text)?.isFinite ?? false) {
                throw JSONReadingError(.numberOutOfRange, offset: start)
            }
        }
        return (index, flags)
    }

    @inline(__always)
    private static func isDigit(_ byte: UInt8) -> Bool { byte &- UInt8(ascii: "0") < 10 }
}
