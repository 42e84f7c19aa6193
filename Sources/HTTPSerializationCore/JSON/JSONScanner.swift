/// Validates UTF-8 JSON text against RFC 8259 and records its values on a tape, in one pass
/// and without recursion: containers open and close on an explicit stack, bounded by the
/// depth limit, so any input (a million `[`, say) is a typed error at its first excess level.
package struct JSONScanner: ~Copyable {
    private let base: UnsafePointer<UInt8>
    private let end: Int
    private let maximumDepth: Int
    /// Lengths and counts from here on make wide entries: ``JSONTape/narrowLimit``, lowered by
    /// tests so that small documents take the wide path too.
    private let narrowLimit: Int
    private var words: JSONTapeWords

    /// `bytes[start...]` is the text; offsets on the tape and in errors count from `bytes`.
    package init(_ bytes: UnsafeBufferPointer<UInt8>, maximumDepth: Int, narrowLimit: Int = JSONTape.narrowLimit) {
        base = bytes.baseAddress ?? UnsafePointer(bitPattern: 1)!
        end = bytes.count
        self.maximumDepth = maximumDepth
        self.narrowLimit = min(narrowLimit, JSONTape.narrowLimit)
        // Typical documents hold one value per 6–12 bytes: reserving for one per 6 avoids
        // regrowing (a copy of the whole tape) and costs only untouched address space.
        words = JSONTapeWords(capacity: min(bytes.count / 6, 1 << 27) + 32)
    }

    /// The tape written by ``scan(from:)``.
    package consuming func takeWords() -> JSONTapeWords {
        words
    }

    private enum State {
        case value, afterValue, key
    }

    /// A container that is open around the innermost one.
    private struct Enclosing {
        var entry: Int
        var count: Int
        var isObject: Bool
    }

    package mutating func scan(from start: Int) throws(JSONReadingError) {
        var index = skipWhitespace(start)
        guard index < end else { throw JSONReadingError(.noValue, offset: index) }
        // The innermost open container (entry -1: none, the document level) lives in locals,
        // so a value costs no stack access; the ones around it wait on `enclosing`.
        var current = -1
        var currentIsObject = false
        var currentCount = 0
        var depth = 0
        var enclosing: [Enclosing] = []
        enclosing.reserveCapacity(16)
        var state = State.value
        while true {
            switch state {
            case .value:
                guard index < end else { throw JSONReadingError(.unexpectedEnd(expected: "a value"), offset: index) }
                // An object counts its keys; an array (and the document level, harmlessly) its values.
                if !currentIsObject { currentCount &+= 1 }
                let byte = base[index]
                switch byte {
                case UInt8(ascii: "\""):
                    index = try string(at: index)
                    state = .afterValue
                case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
                    index = try number(at: index)
                    state = .afterValue
                case UInt8(ascii: "{"), UInt8(ascii: "["):
                    guard depth < maximumDepth else {
                        throw JSONReadingError(.nestingTooDeep(limit: maximumDepth), offset: index)
                    }
                    let isObject = byte == UInt8(ascii: "{")
                    enclosing.append(Enclosing(entry: current, count: currentCount, isObject: currentIsObject))
                    current = words.count
                    currentIsObject = isObject
                    currentCount = 0
                    depth += 1
                    append(isObject ? .object : .array, flags: 0, length: 0, word: 0)
                    index = skipWhitespace(index + 1)
                    if index < end, base[index] == (isObject ? UInt8(ascii: "}") : UInt8(ascii: "]")) {
                        close(&current, &currentIsObject, &currentCount, &enclosing)
                        depth -= 1
                        index += 1
                        state = .afterValue
                    } else {
                        state = isObject ? .key : .value
                    }
                case UInt8(ascii: "t"):
                    index = try literal("true", .true, at: index)
                    state = .afterValue
                case UInt8(ascii: "f"):
                    index = try literal("false", .false, at: index)
                    state = .afterValue
                case UInt8(ascii: "n"):
                    index = try literal("null", .null, at: index)
                    state = .afterValue
                default:
                    throw JSONReadingError(.unexpectedCharacter(byte, expected: "a value"), offset: index)
                }
            case .key:
                guard index < end else {
                    throw JSONReadingError(.unexpectedEnd(expected: "a key in quotes"), offset: index)
                }
                guard base[index] == UInt8(ascii: "\"") else {
                    throw JSONReadingError(.unexpectedCharacter(base[index], expected: "a key in quotes"), offset: index)
                }
                currentCount &+= 1
                index = try string(at: index)
                if index < end, base[index] == UInt8(ascii: ":") {
                    index += 1
                } else {
                    index = skipWhitespace(index)
                    guard index < end else { throw JSONReadingError(.unexpectedEnd(expected: "\":\""), offset: index) }
                    guard base[index] == UInt8(ascii: ":") else {
                        throw JSONReadingError(.unexpectedCharacter(base[index], expected: "\":\""), offset: index)
                    }
                    index += 1
                }
                index = skipWhitespace(index)
                state = .value
            case .afterValue:
                index = skipWhitespace(index)
                guard current >= 0 else {
                    guard index == end else { throw JSONReadingError(.trailingData, offset: index) }
                    return
                }
                guard index < end else {
                    throw JSONReadingError(.unexpectedEnd(expected: currentIsObject ? "\",\" or \"}\"" : "\",\" or \"]\""), offset: index)
                }
                let byte = base[index]
                if byte == UInt8(ascii: ",") {
                    index = skipWhitespace(index + 1)
                    state = currentIsObject ? .key : .value
                } else if byte == (currentIsObject ? UInt8(ascii: "}") : UInt8(ascii: "]")) {
                    close(&current, &currentIsObject, &currentCount, &enclosing)
                    depth -= 1
                    index += 1
                } else {
                    throw JSONReadingError(.unexpectedCharacter(byte, expected: currentIsObject ? "\",\" or \"}\"" : "\",\" or \"]\""), offset: index)
                }
            }
        }
    }

    // MARK: Tape

    @inline(__always)
    private mutating func append(_ kind: JSONTape.Kind, flags: UInt8, length: Int, word: Int) {
        let low = UInt64(kind.rawValue) | UInt64(flags) << JSONTape.flagsShift
        guard length < narrowLimit, UInt64(word) >> 32 == 0 else {
            words.append(words.wide(low, length: length, offset: word))
            return
        }
        words.append(low | UInt64(length) << JSONTape.lengthShift | UInt64(word) << 32)
    }

    /// Writes the innermost open container's count and end into its entry, and makes the one
    /// around it innermost.
    @inline(__always)
    private mutating func close(_ current: inout Int, _ isObject: inout Bool, _ count: inout Int, _ enclosing: inout [Enclosing]) {
        let end = words.count
        if count < narrowLimit, UInt64(end) >> 32 == 0 {
            words[current] |= UInt64(count) << JSONTape.lengthShift | UInt64(end) << 32
        } else {
            words[current] = words.wide(words[current], length: count, offset: end)
        }
        let outer = enclosing.removeLast()
        current = outer.entry
        isObject = outer.isObject
        count = outer.count
    }

    // MARK: Whitespace and literals

    @inline(__always)
    private func skipWhitespace(_ from: Int) -> Int {
        var index = from
        while index < end {
            switch base[index] {
            case 0x20, 0x0A, 0x0D, 0x09: index += 1
            default: return index
            }
        }
        return index
    }

    private mutating func literal(_ text: StaticString, _ kind: JSONTape.Kind, at start: Int) throws(JSONReadingError) -> Int {
        let length = text.utf8CodeUnitCount
        // All literals are four or five bytes: compare the first four at once.
        if start &+ length <= end,
           UnsafeRawPointer(base + start).loadUnaligned(as: UInt32.self) == UnsafeRawPointer(text.utf8Start).loadUnaligned(as: UInt32.self),
           length == 4 || base[start + 4] == text.utf8Start[4] {
            append(kind, flags: 0, length: 0, word: 0)
            return start + length
        }
        for offset in 0..<length {
            guard start + offset < end else {
                throw JSONReadingError(.unexpectedEnd(expected: "\"\(text)\""), offset: start + offset)
            }
            let byte = base[start + offset]
            guard byte == text.utf8Start[offset] else {
                throw JSONReadingError(.unexpectedCharacter(byte, expected: "\"\(text)\""), offset: start + offset)
            }
        }
        append(kind, flags: 0, length: 0, word: 0)
        return start + length
    }

    // MARK: Strings

    /// Scans the string whose opening quote is at `quote`; returns the index after its closing quote.
    @inline(__always)
    private mutating func string(at quote: Int) throws(JSONReadingError) -> Int {
        var index = quote + 1
        var flags: UInt8 = 0
        while true {
            // Eight bytes at a time while none is a quote, a backslash, a control character
            // or non-ASCII; the lowest flagged byte is always a real one (borrows only run up).
            while index &+ 8 <= end {
                let word = UnsafeRawPointer(base + index).loadUnaligned(as: UInt64.self).littleEndian
                let special = Self.zeroBytes(word ^ 0x2222_2222_2222_2222) | Self.zeroBytes(word ^ 0x5C5C_5C5C_5C5C_5C5C)
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
                append(.string, flags: flags, length: index - quote - 1, word: quote + 1)
                return index + 1
            } else if byte == UInt8(ascii: "\\") {
                flags |= JSONTape.hasEscapes
                index = try escape(at: index)
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
    private func escape(at backslash: Int) throws(JSONReadingError) -> Int {
        guard backslash + 1 < end else {
            throw JSONReadingError(.unexpectedEnd(expected: "an escape"), offset: backslash + 1)
        }
        switch JSONUTF8.escapes[Int(base[backslash + 1])] {
        case 0:
            throw JSONReadingError(.invalidEscape, offset: backslash)
        case 1:
            let unit = try hex4(at: backslash + 2)
            switch unit {
            case 0xD800...0xDBFF:
                // A high surrogate must be followed at once by an escaped low one.
                guard backslash + 7 < end, base[backslash + 6] == UInt8(ascii: "\\"), base[backslash + 7] == UInt8(ascii: "u"),
                      case 0xDC00...0xDFFF = try hex4(at: backslash + 8) else {
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

    private func hex4(at start: Int) throws(JSONReadingError) -> UInt16 {
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

    /// Scans the number starting at `start`; returns the index after it.
    private mutating func number(at start: Int) throws(JSONReadingError) -> Int {
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
        append(.number, flags: flags, length: index - start, word: start)
        return index
    }

    @inline(__always)
    private func isDigit(_ byte: UInt8) -> Bool { byte &- UInt8(ascii: "0") < 10 }
}
