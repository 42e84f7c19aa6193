/// Reading an object's members in the order the document has them, for a model whose keys
/// come in another order than its own: each member is matched once, where it stands, and its
/// value read there, where ``JSONTextCursor/seek(_:in:)`` would pass it over and come back.
extension JSONTextCursor {
    /// A member's key as the text has it, the cursor at its value.
    @usableFromInline package struct MemberKey {
        /// The key's text (between its quotes, escapes as written) and its lexer flags.
        @usableFromInline let start: Int
        @usableFromInline let length: Int
        let flags: UInt8
        /// Its bytes are its only reading: no escapes, all ASCII and, under the snake-case
        /// conversion, no underscore (which the conversion would take out).
        @usableFromInline let isPlain: Bool
    }

    /// Whether `object`'s first member, not yet read, has the key `key` (bytes compared, with
    /// whitespace allowed before it), under the snake-case conversion as converted; nothing is
    /// read. A document whose first key is the model's own likely has the model's order.
    @inlinable @inline(__always)
    package func starts(with key: StaticString, in object: Object) -> Bool {
        // Compact text, as ``seek(_:in:)``'s first test: the key's quote right after the brace.
        if object.first, !object.closed, key.hasPointerRepresentation, Self.clean(key), !convertsFromSnakeCase || !Self.hasUnderscore(key) {
            let count = key.utf8CodeUnitCount
            if index &+ count &+ 2 < end, base[index] == UInt8(ascii: "\""), base[index &+ 1 &+ count] == UInt8(ascii: "\""),
               JSONTapeReader.equal(base + (index &+ 1), key.utf8Start, count: count) {
                return true
            }
        }
        return slowStarts(with: key, in: object)
    }

    /// ``starts(with:in:)`` past compact text: whitespace first, or a key to convert.
    @usableFromInline func slowStarts(with key: StaticString, in object: Object) -> Bool {
        guard object.first, !object.closed, !object.remembers, key.hasPointerRepresentation, Self.clean(key) else { return false }
        let quote = JSONLexer.skipWhitespace(base, from: index, end: end)
        let count = key.utf8CodeUnitCount
        guard quote < end, base[quote] == UInt8(ascii: "\"") else { return false }
        if quote &+ count &+ 2 < end, base[quote &+ 1 &+ count] == UInt8(ascii: "\""), Self.equal(base + quote + 1, key),
           !convertsFromSnakeCase || !Self.hasUnderscore(key) {
            return true
        }
        guard convertsFromSnakeCase, let (afterKey, flags) = try? lex({ () throws(JSONReadingError) in try JSONLexer.string(base, at: quote, end: end) }) else {
            return false
        }
        let member = PassedMember(key: quote + 1, length: afterKey - quote - 2, flags: flags, value: afterKey)
        return (try? Self.convertedMatches(member, key, base)) ?? false
    }

    /// Reads the key of `object`'s next member into ``memberKey``, the cursor then at its value;
    /// false at the object's end (its brace read, the object closed).
    @usableFromInline package mutating func nextMemberKey(in object: inout Object) throws(Miss) -> Bool {
        guard let keyStart = try nextKey(in: &object) else {
            release(&object)
            return false
        }
        let (afterKey, flags) = try lex { () throws(JSONReadingError) in try JSONLexer.string(base, at: keyStart, end: end) }
        index = try colon(after: afterKey)
        let length = afterKey - keyStart - 2
        var isPlain = flags & (JSONTape.hasEscapes | JSONTape.hasNonASCII) == 0
        if isPlain, convertsFromSnakeCase {
            isPlain = !UnsafeBufferPointer(start: base + keyStart + 1, count: length).contains(UInt8(ascii: "_"))
        }
        memberKey = MemberKey(start: keyStart + 1, length: length, flags: flags, isPlain: isPlain)
        return true
    }

    /// Whether the last member key read (``memberKey``) is `key`, as ``seek(_:in:)`` matches
    /// keys: bytes where they settle it, `String`s for escaped or non-ASCII text, and converted
    /// under ``convertsFromSnakeCase``.
    /// A key that is not ASCII is a ``Miss`` (as for `seek`, the tape decides which member a
    /// key such as a Kelvin sign takes), and so, under the conversion, is an escaped or
    /// non-ASCII member key, even one no property reads: every member is compared here, where
    /// `seek` compares only those it passes.
    @inlinable @inline(__always)
    package func memberKey(is key: StaticString) throws(Miss) -> Bool {
        let member = memberKey
        if member.isPlain, key.hasPointerRepresentation {
            let count = key.utf8CodeUnitCount
            if member.length == count, JSONTapeReader.equal(base + member.start, key.utf8Start, count: count) { return true }
            // A clean key is only ever spelled as its bytes, which these are not.
            if Self.clean(key) { return false }
        }
        return try slowMember(member, is: key)
    }

    /// ``memberKey(is:)`` past its bytes: escaped or non-ASCII text, the conversion, unclean keys.
    @usableFromInline func slowMember(_ member: MemberKey, is key: StaticString) throws(Miss) -> Bool {
        guard key.hasPointerRepresentation else { throw Miss() }
        let clean = Self.clean(key)
        guard clean || Self.ascii(key) else { throw Miss() }
        // An ASCII key that needs escapes is never an unescaped member's bytes.
        if member.isPlain { return false }
        let passed = PassedMember(key: member.start, length: member.length, flags: member.flags, value: index)
        guard convertsFromSnakeCase else { return Self.matches(passed, key, base, end) }
        return try Self.convertedMatches(passed, key, base)
    }
}

extension JSONTextCursor {
    /// Where a member's value stands, noted as its object is read in the document's order, to
    /// be read once the object is: a string is then made in the model's order, as the keyed
    /// path makes it (a model's strings made in another order than they are freed in cost
    /// glibc two to three times as much to free), from the text and flags noted here.
    @usableFromInline package struct NotedValue {
        /// Where the value starts, or -1 when the object had no such member.
        @usableFromInline package var start = -1
        /// Just past the value, and a string's lexer flags: its text, made a `String` with no
        /// second lexer pass.
        @usableFromInline package var end = 0
        @usableFromInline package var flags: UInt8 = 0
        @usableFromInline package var kind = Kind.other

        @usableFromInline package enum Kind { case string, other }

        @inlinable package init() {}
    }

    /// Notes where the value at the cursor stands and reads past it; a value noted already
    /// (a repeated key) keeps the first, as the keyed path does, and this one is only checked.
    @usableFromInline package mutating func note(_ value: inout NotedValue) throws(Miss) {
        guard value.start < 0 else { return try skipValue() }
        guard index < end else { throw Miss() }
        let start = index
        switch base[start] {
        case UInt8(ascii: "\""):
            (value.end, value.flags) = try lex { () throws(JSONReadingError) in try JSONLexer.string(base, at: start, end: end) }
            value.kind = .string
            index = value.end
        default:
            try skipValue()
            value.kind = .other
            value.end = index
        }
        value.start = start
    }

    /// The string a noted value holds, escapes decoded.
    @usableFromInline package func string(_ value: NotedValue) -> String {
        if _slowPath(value.start < 0 || value.start >= value.end || value.end > end) { Self.foreign() }
        return string(quotedFrom: value.start, to: value.end, flags: value.flags)
    }

    /// Traps for a noted value past the text: one noted in another, longer text (a slot kept
    /// and handed to another decode) would read out of bounds.
    /// Out of line, so each inlined check is a compare and a call.
    @usableFromInline @inline(never)
    static func foreign() -> Never {
        preconditionFailure("A JSONTextReader.Slot was read by a decode other than the one that filled it")
    }

    /// Moves the cursor to a noted value inside the object just read, to read it where it
    /// stands: the object counts as open again (for the depth limit) until ``leaveNoted(resumingAt:)``.
    @usableFromInline package mutating func enterNoted(_ value: NotedValue) -> Int {
        // Every read from here checks the index against the end; a value that is not a string
        // may have no end noted (a null in a slot, read with its type's reader).
        if _slowPath(value.start < 0 || value.start >= end) { Self.foreign() }
        let resume = index
        index = value.start
        depth += 1
        return resume
    }

    /// Back past the object after a noted value was read.
    @usableFromInline package mutating func leaveNoted(resumingAt resume: Int) {
        index = resume
        depth -= 1
    }
}
