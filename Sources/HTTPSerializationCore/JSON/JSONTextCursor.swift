/// Reads a JSON document value by value, straight from its bytes, for readers generated per
/// model: no tape is written, so a document whose keys come in the order they are asked for is
/// scanned once, as it is read.
///
/// It never accepts what ``JSONScanner`` refuses (the same ``JSONLexer`` reads every token, and
/// containers nest no deeper than the same limit), though it may stop where the scanner goes
/// on (a skipped value nested past 64 levels, an object crowded with members read out of
/// order, a key that is not ASCII), and it says nothing about what went wrong: anything
/// unexpected, whether bad JSON or a value of the wrong kind, is a ``Miss``, and the caller
/// reads the document again through the tape for the exact error. A value the cursor reads is
/// the one the tape would give, and an object's keys are matched as the tape readers match
/// them: the first of a repeated key, escaped and non-ASCII keys compared as `String`s, and
/// under ``convertsFromSnakeCase`` keys with underscores compared as converted.
///
/// Before a value is read the cursor stands at its first byte; after, just past its last.
@usableFromInline
package struct JSONTextCursor {
    /// The reason a read stopped, which the caller does not need: it reads again for that.
    @usableFromInline package struct Miss: Error {
        @usableFromInline package init() {}
    }

    /// An object being read: where its members are, and those passed over so far.
    @usableFromInline package struct Object {
        /// No member has been read yet (so no comma comes first).
        @usableFromInline var first = true
        /// Its closing brace has been read.
        @usableFromInline var closed = false
        /// Its level of ``JSONTextCursor/depth`` has been given back (once, by whichever call
        /// ends it: a close, or a member-by-member read that reaches its brace).
        var released = false
        /// Where this object's entries of ``JSONTextCursor/passed`` start.
        let passedBase: Int
        /// Members of this object have been passed over and remembered.
        @usableFromInline var remembers = false
        /// The stream position to go back to after a value read from a passed member, or -1.
        var resume = -1
    }

    /// A member read past while looking for a later key, which a later lookup may want.
    struct PassedMember {
        /// The key's text (between its quotes, escapes as written) and its lexer flags.
        var key: Int
        var length: Int
        var flags: UInt8
        /// Where its value starts.
        var value: Int
    }

    @usableFromInline let base: UnsafePointer<UInt8>
    @usableFromInline let end: Int
    @usableFromInline package var index: Int
    /// Containers open around the cursor, which ``maximumDepth`` bounds as it bounds the scanner.
    var depth = 0
    let maximumDepth: Int
    var passed: [PassedMember] = []
    /// Keys are matched as `.convertFromSnakeCase` converts them: a key written with an
    /// underscore is compared as converted (``JSONSnakeCaseKey``), any other as written, which
    /// the conversion leaves it. An escaped or non-ASCII key met on the way, or one whose
    /// conversion the bytes do not settle, is a ``Miss``.
    @usableFromInline package var convertsFromSnakeCase = false
    /// The key of the member ``nextMemberKey(in:)`` read last: kept here, not handed out, so a
    /// member key can only ever be compared with the text it was read from.
    @usableFromInline package var memberKey = MemberKey(start: 0, length: 0, flags: 0, isPlain: true)

    /// Whether this cursor reads the same text as `other`: how a decode checks, as it ends, that
    /// the reader it hands back is its own.
    package func readsSameText(as other: JSONTextCursor) -> Bool {
        base == other.base && end == other.end
    }

    /// A cursor at the first value of `bytes[start...]`.
    package init(_ bytes: UnsafeBufferPointer<UInt8>, from start: Int = 0, maximumDepth: Int) {
        base = bytes.baseAddress ?? UnsafePointer(bitPattern: 1)!
        end = bytes.count
        self.maximumDepth = maximumDepth
        index = JSONLexer.skipWhitespace(base, from: start, end: end)
    }

    /// Checks that nothing but whitespace follows the document's value.
    package mutating func finishDocument() throws(Miss) {
        // A reader that left a container open (a hand-written one that did not close an object)
        // read its members as its parent's: not an answer.
        guard depth == 0, JSONLexer.skipWhitespace(base, from: index, end: end) == end else { throw Miss() }
    }

    // MARK: Scalars

    /// The string at the cursor, escapes decoded.
    @usableFromInline package mutating func readString() throws(Miss) -> String {
        let (text, flags) = try readStringText()
        return string(text: text, flags: flags)
    }

    /// The string at the cursor as its text between the quotes, escapes as written, and its
    /// lexer flags (``JSONTape/hasEscapes``, ``JSONTape/hasNonASCII``): for a value parsed
    /// straight from its bytes (a date, a UUID), with no `String` made. Valid as long as the
    /// text the cursor reads.
    package mutating func readStringText() throws(Miss) -> (text: UnsafeBufferPointer<UInt8>, flags: UInt8) {
        guard index < end, base[index] == UInt8(ascii: "\"") else { throw Miss() }
        let quote = index
        let (after, flags) = try lex { () throws(JSONReadingError) in try JSONLexer.string(base, at: quote, end: end) }
        index = after
        return (UnsafeBufferPointer(start: base + quote + 1, count: after - quote - 2), flags)
    }

    /// The string that ``readStringText()`` returned, escapes decoded.
    package func string(text: UnsafeBufferPointer<UInt8>, flags: UInt8) -> String {
        JSONTapeReader.string(text, flags: flags, readable: end - (text.baseAddress! - base))
    }

    /// The string lexed from the quote at `quote` to just past its closing quote, escapes decoded.
    @inline(__always)
    func string(quotedFrom quote: Int, to after: Int, flags: UInt8) -> String {
        JSONTapeReader.string(UnsafeBufferPointer(start: base + quote + 1, count: after - quote - 2), flags: flags, readable: end - quote - 1)
    }

    /// The number at the cursor, as its text and its lexer flags.
    package mutating func readNumber() throws(Miss) -> (text: UnsafeBufferPointer<UInt8>, flags: UInt8) {
        guard index < end, base[index] == UInt8(ascii: "-") || base[index] &- UInt8(ascii: "0") < 10 else { throw Miss() }
        let start = index
        let (after, flags) = try lex { () throws(JSONReadingError) in try JSONLexer.number(base, at: start, end: end) }
        index = after
        return (UnsafeBufferPointer(start: base + start, count: after - start), flags)
    }

    /// Whether a string stands at the cursor.
    @inlinable package var atString: Bool { index < end && base[index] == UInt8(ascii: "\"") }

    /// `true` or `false` at the cursor.
    @usableFromInline package mutating func readBool() throws(Miss) -> Bool {
        guard index < end else { throw Miss() }
        let start = index
        switch base[index] {
        case UInt8(ascii: "t"):
            index = try lex { () throws(JSONReadingError) in try JSONLexer.literal(base, "true", at: start, end: end) }
            return true
        case UInt8(ascii: "f"):
            index = try lex { () throws(JSONReadingError) in try JSONLexer.literal(base, "false", at: start, end: end) }
            return false
        default:
            throw Miss()
        }
    }

    /// Reads a `null` at the cursor, if that is what stands there.
    @usableFromInline package mutating func readNull() throws(Miss) -> Bool {
        guard index < end, base[index] == UInt8(ascii: "n") else { return false }
        let start = index
        index = try lex { () throws(JSONReadingError) in try JSONLexer.literal(base, "null", at: start, end: end) }
        return true
    }

    /// A lexer call whose error is only a miss here.
    @inline(__always)
    func lex<Result>(_ body: () throws(JSONReadingError) -> Result) throws(Miss) -> Result {
        do throws(JSONReadingError) {
            return try body()
        } catch {
            throw Miss()
        }
    }

    // MARK: Containers

    /// Opens the array at the cursor: true when it has a first element (the cursor then at
    /// it), false when it is empty (and read).
    @usableFromInline package mutating func openArray() throws(Miss) -> Bool {
        guard index < end, base[index] == UInt8(ascii: "["), depth < maximumDepth else { throw Miss() }
        index = JSONLexer.skipWhitespace(base, from: index + 1, end: end)
        guard index < end else { throw Miss() }
        if base[index] == UInt8(ascii: "]") {
            index += 1
            return false
        }
        depth += 1
        return true
    }

    /// How many containers are open around the cursor (none: the next value read is the
    /// document's own).
    @usableFromInline package var openContainers: Int { depth }

    /// How many elements the document's array likely holds, its first read from `start` to
    /// here: a quarter more than the rest of the document holds at that size, as elements vary
    /// and one regrowth would copy them all (pages reserved and never written cost nothing).
    /// Nil for a first element under 16 bytes (numbers, say), which says little, and never
    /// more elements than take a byte of memory per byte of text left.
    @usableFromInline package func estimatedCount(firstElementFrom start: Int, stride: Int) -> Int? {
        let used = index - start
        guard used >= 16 else { return nil }
        let remaining = end - index
        return 1 + min(remaining / used * 5 / 4, remaining / max(stride, 1))
    }

    /// After an element: true when another follows (the cursor then at it), false at the
    /// array's end (read).
    @usableFromInline package mutating func nextElement() throws(Miss) -> Bool {
        index = JSONLexer.skipWhitespace(base, from: index, end: end)
        guard index < end else { throw Miss() }
        if base[index] == UInt8(ascii: ",") {
            index = JSONLexer.skipWhitespace(base, from: index + 1, end: end)
            return true
        }
        guard base[index] == UInt8(ascii: "]") else { throw Miss() }
        index += 1
        depth -= 1
        return false
    }

    /// Opens the object at the cursor.
    @usableFromInline package mutating func openObject() throws(Miss) -> Object {
        guard index < end, base[index] == UInt8(ascii: "{"), depth < maximumDepth else { throw Miss() }
        index += 1
        depth += 1
        return Object(passedBase: passed.count)
    }

    /// Moves to the value of `key` in `object`, the first if the key repeats: true when it is
    /// there (the cursor then at the value), false when the object has no such key.
    ///
    /// Keys asked for in the order the document has them are matched as bytes where they
    /// stand; members passed over on the way are remembered, so a key asked for later is found
    /// among them. After reading a value found that way, call ``finishValue(in:)``.
    @inlinable @inline(__always)
    package mutating func seek(_ key: StaticString, in object: inout Object) throws(Miss) -> Bool {
        // The usual case, compact text with the key next: `,"key":` (no comma first), tested
        // here, in the generated reader, with no call. (String literals are pointers; a
        // `StaticString` made from a lone scalar is not, and the call leaves it to the tape.)
        if !object.remembers, !object.closed, key.hasPointerRepresentation {
            let count = key.utf8CodeUnitCount
            let quote = object.first ? index : index &+ 1
            if quote &+ count &+ 3 < end, object.first || base[index] == UInt8(ascii: ","), base[quote] == UInt8(ascii: "\""),
               base[quote &+ 1 &+ count] == UInt8(ascii: "\""), base[quote &+ 2 &+ count] == UInt8(ascii: ":"),
               JSONTapeReader.equal(base + (quote &+ 1), key.utf8Start, count: count), Self.clean(key),
               !convertsFromSnakeCase || !Self.hasUnderscore(key) {
                object.first = false
                index = quote &+ 3 &+ count
                if base[index] <= 0x20 { skipWhitespace() }
                return true
            }
        }
        return try seekMember(key, in: &object)
    }

    /// Moves past whitespace at the cursor.
    @usableFromInline mutating func skipWhitespace() {
        index = JSONLexer.skipWhitespace(base, from: index, end: end)
    }

    /// ``seek(_:in:)`` past its fast path: among the members passed over, then member by member.
    @usableFromInline mutating func seekMember(_ key: StaticString, in object: inout Object) throws(Miss) -> Bool {
        // A lone scalar has no byte count to compare (`utf8CodeUnitCount` traps): rare enough
        // for the tape.
        guard key.hasPointerRepresentation else { throw Miss() }
        // A non-ASCII key can equal another as `String`s (a Kelvin sign and `K`): which member
        // each of two such keys takes depends on the order they are asked for, so the tape decides.
        let clean = Self.clean(key)
        guard clean || Self.ascii(key) else { throw Miss() }
        if object.remembers, passed.count > object.passedBase, let value = try passedValue(key, object) {
            object.resume = index
            index = value
            return true
        }
        // A key written as `key`'s bytes is `key`, except under the conversion when `key`
        // has an underscore (`a_b` converts to `aB`).
        let bytesSettle = clean && (!convertsFromSnakeCase || !Self.hasUnderscore(key))
        while let keyStart = try nextKey(in: &object) {
            if bytesSettle, matchesHere(key, at: keyStart) {
                index = try colon(after: keyStart + 2 + key.utf8CodeUnitCount)
                return true
            }
            let (afterKey, flags) = try lex { () throws(JSONReadingError) in try JSONLexer.string(base, at: keyStart, end: end) }
            index = try colon(after: afterKey)
            let member = PassedMember(key: keyStart + 1, length: afterKey - keyStart - 2, flags: flags, value: index)
            if convertsFromSnakeCase {
                if try Self.convertedMatches(member, key, base) { return true }
            } else if flags & (JSONTape.hasEscapes | JSONTape.hasNonASCII) != 0, Self.matches(member, key, base, end) {
                return true
            }
            // Past this many, each lookup would search them all: the tape indexes such an object.
            guard passed.count - object.passedBase < Self.passedLimit else { throw Miss() }
            passed.append(member)
            object.remembers = true
            try skipValue()
        }
        return false
    }

    /// How many members of one object a lookup remembers before leaving the object to the tape.
    static var passedLimit: Int { 256 }

    /// Back to the stream after a value ``seek(_:in:)`` found among the passed members.
    @usableFromInline package mutating func finishValue(in object: inout Object) {
        if object.resume >= 0 {
            index = object.resume
            object.resume = -1
        }
    }

    /// Reads the rest of `object`, its members unread, through its closing brace.
    @usableFromInline package mutating func closeObject(_ object: inout Object) throws(Miss) {
        finishValue(in: &object)
        while let keyStart = try nextKey(in: &object) {
            let (afterKey, _) = try lex { () throws(JSONReadingError) in try JSONLexer.string(base, at: keyStart, end: end) }
            index = try colon(after: afterKey)
            try skipValue()
        }
        // The count too: a hand-written reader that closes an outer object before an inner one
        // has already dropped the inner one's members.
        if object.remembers, passed.count > object.passedBase { passed.removeSubrange(object.passedBase...) }
        release(&object)
    }

    /// Gives back `object`'s level of ``depth``, unless that was done already.
    mutating func release(_ object: inout Object) {
        guard !object.released else { return }
        object.released = true
        depth -= 1
    }

    /// The object's next key, decoded, with the cursor at its value; nil at the object's end
    /// (read): for an object read member by member, as a dictionary is.
    package mutating func nextMember(in object: inout Object) throws(Miss) -> String? {
        guard let keyStart = try nextKey(in: &object) else {
            release(&object)
            return nil
        }
        let (afterKey, flags) = try lex { () throws(JSONReadingError) in try JSONLexer.string(base, at: keyStart, end: end) }
        index = try colon(after: afterKey)
        return string(quotedFrom: keyStart, to: afterKey, flags: flags)
    }

    /// The opening quote of the object's next key, or nil at its end (the brace read).
    mutating func nextKey(in object: inout Object) throws(Miss) -> Int? {
        guard !object.closed else { return nil }
        index = JSONLexer.skipWhitespace(base, from: index, end: end)
        guard index < end else { throw Miss() }
        if base[index] == UInt8(ascii: "}") {
            index += 1
            object.closed = true
            return nil
        }
        if !object.first {
            guard base[index] == UInt8(ascii: ",") else { throw Miss() }
            index = JSONLexer.skipWhitespace(base, from: index + 1, end: end)
            guard index < end else { throw Miss() }
        }
        object.first = false
        guard base[index] == UInt8(ascii: "\"") else { throw Miss() }
        return index
    }

    /// The index of the value after the key that ends before `afterKey`: whitespace, a colon, whitespace.
    @inline(__always)
    func colon(after afterKey: Int) throws(Miss) -> Int {
        var at = afterKey
        if at >= end || base[at] != UInt8(ascii: ":") {
            at = JSONLexer.skipWhitespace(base, from: at, end: end)
            guard at < end, base[at] == UInt8(ascii: ":") else { throw Miss() }
        }
        return JSONLexer.skipWhitespace(base, from: at + 1, end: end)
    }

    /// Whether `key` is ASCII that needs no escape in JSON: then its bytes, quoted, are the only
    /// spelling without escapes, and a key written that way matches it byte for byte.
    @inlinable @inline(__always)
    static func clean(_ key: StaticString) -> Bool {
        key.withUTF8Buffer { bytes in
            let count = bytes.count
            guard count > 0, count <= 16, let start = bytes.baseAddress else {
                for byte in bytes where byte < 0x20 || byte >= 0x80 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") { return false }
                return true
            }
            // Up to sixteen bytes as two words that cover them (the usual key), tested at once.
            let ones: UInt64 = 0x0101_0101_0101_0101, highs: UInt64 = 0x8080_8080_8080_8080
            @inline(__always) func zero(_ word: UInt64) -> UInt64 { (word &- ones) & ~word }
            @inline(__always) func special(_ word: UInt64) -> UInt64 {
                ((word &- 0x20 &* ones) & ~word | zero(word ^ 0x22 &* ones) | zero(word ^ 0x5C &* ones) | word) & highs
            }
            if count >= 8 {
                let raw = UnsafeRawPointer(start)
                return special(raw.loadUnaligned(as: UInt64.self).littleEndian)
                    | special(raw.loadUnaligned(fromByteOffset: count &- 8, as: UInt64.self).littleEndian) == 0
            }
            // The zero bytes above a short key would pass for control characters.
            return special(ShortBytes.word(start, count: count)) & (highs &>> UInt64(64 &- 8 &* count)) == 0
        }
    }

    /// Whether `key` is all ASCII.
    static func ascii(_ key: StaticString) -> Bool {
        key.withUTF8Buffer { $0.allSatisfy { $0 < 0x80 } }
    }

    /// Whether `key` has an underscore, which the snake-case conversion may take out.
    @usableFromInline static func hasUnderscore(_ key: StaticString) -> Bool {
        key.withUTF8Buffer { $0.contains(UInt8(ascii: "_")) }
    }

    /// Whether the key whose opening quote is at `quote` is `key`'s bytes, closed right after.
    @inline(__always)
    private func matchesHere(_ key: StaticString, at quote: Int) -> Bool {
        let count = key.utf8CodeUnitCount
        guard quote &+ 1 &+ count < end, base[quote &+ 1 &+ count] == UInt8(ascii: "\"") else { return false }
        return Self.equal(base + quote + 1, key)
    }

    /// The value of the first passed member of `object` whose key is `key`.
    ///
    /// Mutating only so that `self` is not copied for the call: a method that borrows a cursor
    /// held `inout` gets a copy of it, and with it a retain and release of ``passed``.
    private mutating func passedValue(_ key: StaticString, _ object: Object) throws(Miss) -> Int? {
        var at = object.passedBase
        while at < passed.count {
            let member = passed[at]
            if convertsFromSnakeCase {
                if try Self.convertedMatches(member, key, base) { return member.value }
            } else if Self.matches(member, key, base, end) {
                return member.value
            }
            at += 1
        }
        return nil
    }

    /// Whether a member's key, converted from snake case, is `key` (ASCII): a key with an
    /// underscore is compared as converted, any other as written. Escaped and non-ASCII keys
    /// (whose conversion is `String` work) and conversions the bytes do not settle are misses.
    static func convertedMatches(_ member: PassedMember, _ key: StaticString, _ base: UnsafePointer<UInt8>) throws(Miss) -> Bool {
        guard member.flags & (JSONTape.hasEscapes | JSONTape.hasNonASCII) == 0 else { throw Miss() }
        let text = UnsafeBufferPointer(start: base + member.key, count: member.length)
        let converts = key.withUTF8Buffer { wanted -> Bool? in
            guard text.contains(UInt8(ascii: "_")) else {
                return text.count == wanted.count && JSONTapeReader.equal(text.baseAddress!, wanted.baseAddress, count: text.count)
            }
            return JSONSnakeCaseKey.converts(text, to: wanted)
        }
        guard let converts else { throw Miss() }
        return converts
    }

    /// Whether a member's key is `key` (ASCII), as the tape readers compare them: bytes when the
    /// member's key has no escapes, and as `String`s when it has escapes or non-ASCII text (a
    /// Kelvin sign equals `K` as a `String`, as `JSONDecoder`'s keys compare).
    @inline(__always)
    static func matches(_ member: PassedMember, _ key: StaticString, _ base: UnsafePointer<UInt8>, _ end: Int) -> Bool {
        // Lengths first: most members passed over differ from the key there.
        if member.length == key.utf8CodeUnitCount, member.flags & JSONTape.hasEscapes == 0,
           equal(base + member.key, key) {
            return true
        }
        guard member.flags & (JSONTape.hasEscapes | JSONTape.hasNonASCII) != 0 else { return false }
        let text = UnsafeBufferPointer(start: base + member.key, count: member.length)
        return JSONTapeReader.string(text, flags: member.flags, readable: end - member.key) == key.description
    }

    /// Whether the bytes at `text` are `key`'s (as many as it has), `key` a pointer (as
    /// ``seekMember(_:in:)`` requires): the closure of `withUTF8Buffer` would be a call per compare.
    @inline(__always)
    static func equal(_ text: UnsafePointer<UInt8>, _ key: StaticString) -> Bool {
        JSONTapeReader.equal(text, key.utf8Start, count: key.utf8CodeUnitCount)
    }

    // MARK: Skipping

    /// Reads the value at the cursor, whatever it is, checking it as the scanner would.
    @usableFromInline package mutating func skipValue() throws(Miss) {
        // Open containers of this value, innermost in the low bit (1: object). Deeper than
        // the bits go is left to the tape.
        var objects: UInt64 = 0
        var open = 0
        while true {
            // A value.
            guard index < end else { throw Miss() }
            let start = index
            switch base[index] {
            case UInt8(ascii: "\""):
                index = try lex { () throws(JSONReadingError) in try JSONLexer.string(base, at: start, end: end) }.end
            case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
                index = try lex { () throws(JSONReadingError) in try JSONLexer.number(base, at: start, end: end) }.end
            case UInt8(ascii: "t"):
                index = try lex { () throws(JSONReadingError) in try JSONLexer.literal(base, "true", at: start, end: end) }
            case UInt8(ascii: "f"):
                index = try lex { () throws(JSONReadingError) in try JSONLexer.literal(base, "false", at: start, end: end) }
            case UInt8(ascii: "n"):
                index = try lex { () throws(JSONReadingError) in try JSONLexer.literal(base, "null", at: start, end: end) }
            case UInt8(ascii: "{"), UInt8(ascii: "["):
                let isObject = base[index] == UInt8(ascii: "{")
                guard depth < maximumDepth, open < 64 else { throw Miss() }
                depth += 1
                open += 1
                objects = objects << 1 | (isObject ? 1 : 0)
                index = JSONLexer.skipWhitespace(base, from: index + 1, end: end)
                guard index < end else { throw Miss() }
                if base[index] == (isObject ? UInt8(ascii: "}") : UInt8(ascii: "]")) {
                    index += 1
                    depth -= 1
                    open -= 1
                    objects >>= 1
                } else {
                    if isObject { index = try memberValue() }
                    continue
                }
            default:
                throw Miss()
            }
            // After a value: close what ends here, then go on to the next value, if any.
            while true {
                guard open > 0 else { return }
                index = JSONLexer.skipWhitespace(base, from: index, end: end)
                guard index < end else { throw Miss() }
                let isObject = objects & 1 == 1
                if base[index] == UInt8(ascii: ",") {
                    index = JSONLexer.skipWhitespace(base, from: index + 1, end: end)
                    if isObject { index = try memberValue() }
                    break
                }
                guard base[index] == (isObject ? UInt8(ascii: "}") : UInt8(ascii: "]")) else { throw Miss() }
                index += 1
                depth -= 1
                open -= 1
                objects >>= 1
            }
        }
    }

    /// Reads a key (the cursor at its quote) and its colon: the index of the value after it.
    private func memberValue() throws(Miss) -> Int {
        let start = index
        guard start < end, base[start] == UInt8(ascii: "\"") else { throw Miss() }
        let afterKey = try lex { () throws(JSONReadingError) in try JSONLexer.string(base, at: start, end: end) }.end
        return try colon(after: afterKey)
    }
}
