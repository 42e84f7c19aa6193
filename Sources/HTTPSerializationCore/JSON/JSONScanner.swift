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

    // MARK: Tokens (JSONLexer), recorded

    @inline(__always)
    private func skipWhitespace(_ from: Int) -> Int {
        JSONLexer.skipWhitespace(base, from: from, end: end)
    }

    @inline(__always)
    private mutating func literal(_ text: StaticString, _ kind: JSONTape.Kind, at start: Int) throws(JSONReadingError) -> Int {
        let after = try JSONLexer.literal(base, text, at: start, end: end)
        append(kind, flags: 0, length: 0, word: 0)
        return after
    }

    /// Scans the string whose opening quote is at `quote`; returns the index after its closing quote.
    @inline(__always)
    private mutating func string(at quote: Int) throws(JSONReadingError) -> Int {
        let (after, flags) = try JSONLexer.string(base, at: quote, end: end)
        append(.string, flags: flags, length: after - quote - 2, word: quote + 1)
        return after
    }

    /// Scans the number starting at `start`; returns the index after it.
    private mutating func number(at start: Int) throws(JSONReadingError) -> Int {
        let (after, flags) = try JSONLexer.number(base, at: start, end: end)
        append(.number, flags: flags, length: after - start, word: start)
        return after
    }
}
