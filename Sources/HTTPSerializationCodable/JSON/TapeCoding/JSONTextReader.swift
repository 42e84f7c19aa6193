#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import HTTPSerializationCore

/// A JSON document read value by value straight from its bytes, as a generated reader
/// (``JSONTapeDecodable/init(jsonText:)``) reads it: the fast path of a generated decode.
///
/// Nothing is parsed ahead of the reader: each value is checked and read where it stands, so a
/// document whose keys come in the model's order is scanned once. The reader throws no
/// `DecodingError` of its own: anything it does not expect (bad JSON, a value of the wrong kind,
/// a type with no reader, a custom strategy) stops it, and the decoder reads the document again
/// through ``JSONTapeValue``, whose values are the same and whose errors are the
/// `DecodingError`s `init(from:)` would throw (``JSONBodyDecoder/onTextReaderFallback`` hears
/// why). An object read key by key, as generated code reads one whose
/// first key is the model's (the macro names each type by a closure that reads the property,
/// and puts the two ways in initializers of their own); values go into locals and `self` is
/// set once all reads are done, which spares a large model a copy of itself on the way out:
///
/// ```swift
/// init(jsonText reader: inout JSONTextReader) throws {
///     var object = try reader.object()
///     let id = try reader.decode(Int.self, forKey: "id", in: &object)
///     let nickname = try reader.decodeIfPresent(String.self, forKey: "nickname", in: &object)
///     try reader.close(&object)
///     self.id = id
///     self.nickname = nickname
/// }
/// ```
///
/// For an object whose first key is not the model's first (``starts(with:in:)``), the
/// generated code reads the members in the document's order instead, each value once where it
/// stands:
///
/// ```swift
/// var id = JSONTextReader.Slot(Int.self), nickname = JSONTextReader.Slot(String.self)
/// while let member = try reader.nextMember(in: &object) {
///     if try reader.member(member, is: "id") { try reader.read(into: &id) }
///     else if try reader.member(member, is: "nickname") { try reader.read(into: &nickname) }
///     else { try reader.skipValue() }
/// }
/// self.id = try reader.decode(from: id)
/// self.nickname = try reader.decodeIfPresent(from: nickname)
/// ```
///
/// Valid only during the decode that made it, as it reads memory the decode lends it: it cannot
/// be copied and is only handed on `inout` (the compiler refuses `kept = reader`), and a decode
/// that ends with a reader other than its own, swapped in from a nested decode, traps before
/// the swapped one can be read. Part of `@GeneratedJSONCoding`'s runtime, not for hand use.
@_documentation(visibility: internal)
public struct JSONTextReader: ~Copyable {
    /// Where the reader is in the text: a pointer into memory the decode lends, which no one
    /// can keep, as the reader cannot be copied.
    @usableFromInline var cursor: JSONTextCursor
    /// The decoder's options, for the values read through the tape's rules (dates, data, URLs, decimals).
    let options: JSONBodyDecoder

    /// An object being read, which the keyed reads and ``close(_:)`` take.
    @_documentation(visibility: internal)
    public struct Object {
        @usableFromInline var state: JSONTextCursor.Object
        @usableFromInline init(_ state: JSONTextCursor.Object) { self.state = state }
    }

    init(_ cursor: JSONTextCursor, options: JSONBodyDecoder) {
        self.cursor = cursor
        self.options = options
    }

    /// The reader's answer to anything it does not read: the decoder reads again through the tape.
    @usableFromInline static var miss: JSONTextCursor.Miss { JSONTextCursor.Miss() }

    // MARK: Objects

    /// Opens the object at the reader.
    @inlinable
    @_documentation(visibility: internal)
    public mutating func object() throws -> Object {
        try Object(cursor.openObject())
    }

    /// The value for `key` in `object` as `type` (the first, where a key repeats).
    @inlinable
    @_documentation(visibility: internal)
    public mutating func decode<T: JSONTapeDecodable>(_ type: T.Type = T.self, forKey key: StaticString, in object: inout Object) throws -> T {
        guard try seek(key, in: &object) else { throw Self.miss }
        defer { cursor.finishValue(in: &object.state) }
        return try read(T.self)
    }

    /// The value for `key` in `object` as `type`, or nil when the key is missing or its value is null.
    @inlinable
    @_documentation(visibility: internal)
    public mutating func decodeIfPresent<T: JSONTapeDecodable>(_ type: T.Type = T.self, forKey key: StaticString, in object: inout Object) throws -> T? {
        guard try seek(key, in: &object) else { return nil }
        defer { cursor.finishValue(in: &object.state) }
        if try readNull() { return nil }
        return try read(T.self)
    }

    /// A property whose type the generated code knows only as `Decodable` (a generic
    /// parameter's, say): read by its reader where it has one at run time (a `Page<T>` of
    /// generated models); any other is read through its `init(from:)`, on the tape, and stops
    /// the reader here.
    @_documentation(visibility: internal)
    public mutating func decode<T: Decodable>(_ type: T.Type = T.self, forKey key: StaticString, in object: inout Object) throws -> T {
        guard let reader = T.self as? any JSONTapeDecodable.Type else { throw Unread.noReader(T.self) }
        guard try seek(key, in: &object) else { throw Self.miss }
        defer { cursor.finishValue(in: &object.state) }
        return try read(T.self, by: reader)
    }

    /// A property of a type known only as `Decodable`: nil when the key is missing or its
    /// value is null (as on the tape), else read by its reader where it has one at run time;
    /// any other stops the reader.
    @_documentation(visibility: internal)
    public mutating func decodeIfPresent<T: Decodable>(_ type: T.Type = T.self, forKey key: StaticString, in object: inout Object) throws -> T? {
        guard try seek(key, in: &object) else { return nil }
        defer { cursor.finishValue(in: &object.state) }
        if try readNull() { return nil }
        guard let reader = T.self as? any JSONTapeDecodable.Type else { throw Unread.noReader(T.self) }
        return try read(T.self, by: reader)
    }

    /// The value at the reader as `type`, by `reader`: `type` itself, found to have a reader
    /// of its own at run time.
    mutating func read<T>(_ type: T.Type, by reader: any JSONTapeDecodable.Type) throws -> T {
        func open<Reader: JSONTapeDecodable>(_: Reader.Type) throws -> T {
            unsafeBitCast(try read(Reader.self), to: T.self)
        }
        return try open(reader)
    }

    /// The value for `key` of a property whose type is an optional the macro cannot see as
    /// one (spelled through a type alias, or not written): nil when the key is missing or
    /// null, as synthesized `Codable` reads any optional. Overload resolution picks it
    /// wherever the type is an optional once aliases are resolved.
    @inlinable
    @_documentation(visibility: internal)
    public mutating func decode<Wrapped: JSONTapeDecodable>(_ type: Wrapped?.Type, forKey key: StaticString, in object: inout Object) throws -> Wrapped? {
        try decodeIfPresent(Wrapped.self, forKey: key, in: &object)
    }

    /// An optional the macro cannot see as one, of a type known only as `Decodable`.
    @_documentation(visibility: internal)
    public mutating func decode<Wrapped: Decodable>(_ type: Wrapped?.Type, forKey key: StaticString, in object: inout Object) throws -> Wrapped? {
        try decodeIfPresent(Wrapped.self, forKey: key, in: &object)
    }

    /// Reads the rest of `object` (members no property asked for) through its closing brace.
    @inlinable
    @_documentation(visibility: internal)
    public mutating func close(_ object: inout Object) throws {
        try cursor.closeObject(&object.state)
    }

    // MARK: Objects in the document's order

    /// Whether `object`'s first key is `key`, nothing read: a generated reader reads the object
    /// key by key in its model's order when it is, and member by member in the document's when not.
    ///
    /// A document whose first key is the model's first likely lists the rest in the model's
    /// order too (one written from the same model); any other order is cheaper read as it
    /// comes, each member matched once where it stands, than sought key by key.
    @inlinable @inline(__always)
    @_documentation(visibility: internal)
    public func starts(with key: StaticString, in object: Object) -> Bool {
        cursor.starts(with: key, in: object.state)
    }

    /// A member ``nextMember(in:)`` found, whose key ``member(_:is:)`` compares: a token only,
    /// as the reader keeps the key itself, so a kept one reads nothing.
    @_documentation(visibility: internal)
    public struct Member {
        @usableFromInline init() {}
    }

    /// The key of `object`'s next member, the reader then at its value; nil once the object's
    /// closing brace is read, which ends the object (no ``close(_:)`` follows). Each member's
    /// value must be read (or skipped) before the next key.
    ///
    /// ```swift
    /// while let member = try reader.nextMember(in: &object) {
    ///     if try reader.member(member, is: "id") { try reader.read(into: &id) }
    ///     else { try reader.skipValue() }
    /// }
    /// ```
    @inlinable
    @_documentation(visibility: internal)
    public mutating func nextMember(in object: inout Object) throws -> Member? {
        try cursor.nextMemberKey(in: &object.state) ? Member() : nil
    }

    /// Whether the key ``nextMember(in:)`` read last is `key`, compared as the keyed
    /// `decode(_:forKey:in:)` compares keys (under the decoder's key strategy); a key that is not
    /// ASCII stops the reader. Compare a member's key before its value is read: reading a
    /// nested object reads keys of its own.
    @inlinable @inline(__always)
    @_documentation(visibility: internal)
    public func member(_ member: Member, is key: StaticString) throws -> Bool {
        try cursor.memberKey(is: key)
    }

    /// A member's value, for an object read in the document's order, held until the object is
    /// read: a string only noted where it stands and made once the object is, in the model's
    /// order (the order the keyed reads make them, and the order a model's values are freed
    /// in: strings made in another order cost glibc two to three times as much to free); any
    /// other value read at once. A slot holds one member of one object: declare the slots
    /// afresh for each object read.
    @_documentation(visibility: internal)
    public struct Slot<Value> {
        @usableFromInline var noted = JSONTextCursor.NotedValue()
        @usableFromInline var value: Value?
        /// A slot for a value of `type` that no member has filled.
        @inlinable public init(_ type: Value.Type) {}
    }

    /// Reads the value at the reader into `slot` (a string only noted); a slot filled already
    /// (a repeated key) keeps its first value, as the keyed `decode(_:forKey:in:)` does, and this one
    /// is only checked.
    @inlinable
    @_documentation(visibility: internal)
    public mutating func read<T: JSONTapeDecodable>(into slot: inout Slot<T>) throws {
        // A string is only noted (the note keeps the first of a repeated key itself).
        if T.self == String.self { return try cursor.note(&slot.noted) }
        guard slot.noted.start < 0 else { return try skipValue() }
        let start = cursor.index
        if try !readNull() { slot.value = try read(T.self) }
        slot.noted.start = start
    }

    /// Notes the value of a type known only as `Decodable`, which `decode(from:)` then reads
    /// by its reader where it has one at run time, and otherwise leaves to the tape (as
    /// `decodeIfPresent(from:)` does unless it is null).
    @_documentation(visibility: internal)
    public mutating func read<T: Decodable>(into slot: inout Slot<T>) throws {
        try cursor.note(&slot.noted)
    }

    /// The value in `slot`; an empty slot (a key the object did not have) stops the reader, and
    /// the tape gives `DecodingError.keyNotFound` for it. A null is read by the type's reader,
    /// which stops there unless the type reads null.
    @inlinable
    @_documentation(visibility: internal)
    public mutating func decode<T: JSONTapeDecodable>(from slot: Slot<T>) throws -> T {
        if let value = slot.value { return value }
        guard slot.noted.start >= 0 else { throw Self.miss }
        return try readNoted(T.self, slot.noted)
    }

    /// The value in `slot`, or nil when the slot is empty or holds null.
    @inlinable
    @_documentation(visibility: internal)
    public mutating func decodeIfPresent<T: JSONTapeDecodable>(from slot: Slot<T>) throws -> T? {
        if let value = slot.value { return value }
        // Other than a string, a value read at once that left none was null.
        guard slot.noted.start >= 0, T.self == String.self else { return nil }
        if slot.noted.kind != .string {
            guard try notedIsNull(slot.noted) else { throw Self.miss }
            return nil
        }
        return try readNoted(T.self, slot.noted)
    }

    /// A value of a type known only as `Decodable`, read by its reader where it has one at
    /// run time; an empty slot, or a type with none, stops the reader, and the tape reads it
    /// through its `init(from:)`.
    @_documentation(visibility: internal)
    public mutating func decode<T: Decodable>(from slot: Slot<T>) throws -> T {
        guard let reader = T.self as? any JSONTapeDecodable.Type else { throw Unread.noReader(T.self) }
        guard slot.noted.start >= 0 else { throw Self.miss }
        return try readNoted(T.self, slot.noted, by: reader)
    }

    /// A value of a type known only as `Decodable`: nil when the slot is empty or holds null
    /// (as on the tape), else read by its reader where it has one at run time; a type with
    /// none stops the reader.
    @_documentation(visibility: internal)
    public mutating func decodeIfPresent<T: Decodable>(from slot: Slot<T>) throws -> T? {
        try presentNoted(T.self, slot.noted)
    }

    /// A noted value of a type known only as `Decodable`: nil when nothing was noted or it is
    /// null, else read by the type's reader where it has one at run time.
    mutating func presentNoted<T>(_ type: T.Type, _ value: JSONTextCursor.NotedValue) throws -> T? {
        guard value.start >= 0 else { return nil }
        if value.kind != .string, try notedIsNull(value) { return nil }
        guard let reader = T.self as? any JSONTapeDecodable.Type else { throw Unread.noReader(T.self) }
        return try readNoted(T.self, value, by: reader)
    }

    /// A noted value as `type`, by `reader` (`type` itself, found to have one at run time).
    mutating func readNoted<T>(_ type: T.Type, _ value: JSONTextCursor.NotedValue, by reader: any JSONTapeDecodable.Type) throws -> T {
        func open<Reader: JSONTapeDecodable>(_: Reader.Type) throws -> T {
            unsafeBitCast(try readNoted(Reader.self, value), to: T.self)
        }
        return try open(reader)
    }

    /// The value in the slot of a property whose type is an optional the macro cannot see as
    /// one: nil when the slot is empty or holds null, as synthesized `Codable` reads any optional.
    @inlinable
    @_documentation(visibility: internal)
    public mutating func decode<Wrapped: JSONTapeDecodable>(from slot: Slot<Wrapped?>) throws -> Wrapped? {
        if let value = slot.value { return value }
        // Read at once (the optional's reader), so a filled slot with no value held null.
        return nil
    }

    /// The slot of an optional the macro cannot see as one, of a type known only as
    /// `Decodable`: nil when empty or null, else as `decode(from:)` reads it.
    @_documentation(visibility: internal)
    public mutating func decode<Wrapped: Decodable>(from slot: Slot<Wrapped?>) throws -> Wrapped? {
        try presentNoted(Wrapped.self, slot.noted)
    }

    /// Whether a noted value (not a string) is null.
    @usableFromInline mutating func notedIsNull(_ value: JSONTextCursor.NotedValue) throws -> Bool {
        let resume = cursor.enterNoted(value)
        defer { cursor.leaveNoted(resumingAt: resume) }
        return try readNull()
    }

    /// A noted value as `type`: a string from the text the note kept (no lexer again), anything
    /// else (a null, or a value of the wrong kind) read again where it stands, where it stops
    /// the reader.
    @inlinable @inline(__always)
    mutating func readNoted<T: JSONTapeDecodable>(_ type: T.Type, _ value: JSONTextCursor.NotedValue) throws -> T {
        if T.self == String.self, value.kind == .string { return unsafeBitCast(cursor.string(value), to: T.self) }
        let resume = cursor.enterNoted(value)
        defer { cursor.leaveNoted(resumingAt: resume) }
        return try read(T.self)
    }

    /// The next key of an object read member by member (the reader then at its value), or nil
    /// at the object's end.
    mutating func nextKey(in object: inout Object) throws -> String? {
        try cursor.nextMember(in: &object.state)
    }

    @inlinable @inline(__always)
    mutating func seek(_ key: StaticString, in object: inout Object) throws -> Bool {
        try cursor.seek(key, in: &object.state)
    }

    // MARK: Values

    /// The value at the reader as `type`: the common scalars here, anything else by its reader.
    @inlinable @inline(__always)
    mutating func read<T: JSONTapeDecodable>(_ type: T.Type) throws -> T {
        if T.self == String.self { return unsafeBitCast(try readString(), to: T.self) }
        if T.self == Int.self { return unsafeBitCast(try readInt(), to: T.self) }
        if T.self == Double.self { return unsafeBitCast(try readDouble(), to: T.self) }
        if T.self == Bool.self { return unsafeBitCast(try readBool(), to: T.self) }
        // Arrays of these too, with no generic call (and no metadata lookup) per array.
        if T.self == [String].self { return unsafeBitCast(try readStrings(), to: T.self) }
        if T.self == [Int].self { return unsafeBitCast(try readInts(), to: T.self) }
        if T.self == [Double].self { return unsafeBitCast(try readDoubles(), to: T.self) }
        if T.self == [Bool].self { return unsafeBitCast(try readBools(), to: T.self) }
        return try T(jsonText: &self)
    }

    /// The value at the reader as `type`, by its reader.
    @inlinable
    @_documentation(visibility: internal)
    public mutating func decode<T: JSONTapeDecodable>(_ type: T.Type = T.self) throws -> T {
        try read(T.self)
    }

    /// The value at the reader as the raw value of `type`; a raw value no case has stops the
    /// reader (the tape's reading of it is `DecodingError.dataCorrupted`).
    @_documentation(visibility: internal)
    public mutating func decodeRawValue<T: RawRepresentable>(of type: T.Type) throws -> T where T.RawValue: JSONTapeDecodable {
        guard let value = T(rawValue: try read(T.RawValue.self)) else { throw Self.miss }
        return value
    }

    /// Reads the value at the reader, whatever it is.
    @inlinable
    @_documentation(visibility: internal)
    public mutating func skipValue() throws {
        try cursor.skipValue()
    }

    @inlinable mutating func readString() throws -> String {
        try cursor.readString()
    }

    @inlinable mutating func readBool() throws -> Bool {
        try cursor.readBool()
    }

    @inlinable mutating func readNull() throws -> Bool {
        try cursor.readNull()
    }

    @usableFromInline mutating func readInt() throws -> Int {
        try readInteger()
    }

    @usableFromInline mutating func readDouble() throws -> Double {
        try readFloatingPoint()
    }

    @usableFromInline mutating func readStrings() throws -> [String] {
        try array { try $0.readString() }
    }

    @usableFromInline mutating func readInts() throws -> [Int] {
        try array { try $0.readInt() }
    }

    @usableFromInline mutating func readDoubles() throws -> [Double] {
        try array { try $0.readDouble() }
    }

    @usableFromInline mutating func readBools() throws -> [Bool] {
        try array { try $0.readBool() }
    }

    @usableFromInline mutating func readInteger<T: FixedWidthInteger>() throws -> T {
        let (text, flags) = try cursor.readNumber()
        guard let value: T = JSONNumberText.integer(text, flags: flags) else { throw Self.miss }
        return value
    }

    @usableFromInline mutating func readFloatingPoint<T: BinaryFloatingPoint & LosslessStringConvertible>() throws -> T {
        guard !cursor.atString else { return try readNonConformingFloat() }
        let (text, flags) = try cursor.readNumber()
        guard let value: T = JSONNumberText.floatingPoint(text, flags: flags) else { throw Self.miss }
        return value
    }

    /// A string where a float belongs: one of the names `.convertFromString` gives, as the
    /// tape reads it; any other string, or no such strategy, is the tape's error.
    mutating func readNonConformingFloat<T: BinaryFloatingPoint>() throws -> T {
        guard case .convertFromString = options.nonConformingFloatDecodingStrategy,
              let value: T = options.nonConformingFloatDecodingStrategy.value(named: try readString()) else { throw Self.miss }
        return value
    }

    // MARK: Arrays

    /// Opens the array at the reader: true when it has an element (the reader then at it).
    @inlinable mutating func openArray() throws -> Bool {
        try cursor.openArray()
    }

    /// After an element: true when another follows (the reader then at it).
    @inlinable mutating func nextElement() throws -> Bool {
        try cursor.nextElement()
    }

    /// The array at the reader, each element read by `element`.
    @inlinable
    mutating func array<Element>(_ element: (inout JSONTextReader) throws -> Element) throws -> [Element] {
        let atDocumentLevel = cursor.openContainers == 0
        guard try openArray() else { return [] }
        if atDocumentLevel { return try documentArray(element) }
        // A nested array (tags, say) is usually short: its first elements are read into the
        // stack and moved into an array of their number, one allocation of the size needed
        // where growing from a guess would regrow (and copy) as soon as the guess fell short.
        // Elements too large for two to fit grow as any array does, and so do arrays nested
        // deep (a recursive model's), so the stack spent on them stays bounded.
        let stride = MemoryLayout<Element>.stride
        guard stride <= Self.stackedArrayBytes / 2, cursor.openContainers <= Self.stackedArrayDepth else {
            var elements: [Element] = []
            repeat { elements.append(try element(&self)) } while try nextElement()
            return elements
        }
        let room = Self.stackedArrayBytes / stride
        return try withUnsafeTemporaryAllocation(of: Element.self, capacity: room) { stack in
            let start = stack.baseAddress!
            var count = 0
            // On a throw, the elements read so far; none once they have moved out.
            defer { start.deinitialize(count: count) }
            repeat {
                if count == room {
                    var elements = Self.moving(count, from: start, reserving: room &* 2)
                    count = 0
                    repeat { elements.append(try element(&self)) } while try nextElement()
                    return elements
                }
                (start + count).initialize(to: try element(&self))
                count &+= 1
            } while try nextElement()
            let elements = Self.moving(count, from: start, reserving: count)
            count = 0
            return elements
        }
    }

    /// A new array of `capacity` holding the `count` elements moved out of `start`.
    @inlinable
    static func moving<Element>(_ count: Int, from start: UnsafeMutablePointer<Element>, reserving capacity: Int) -> [Element] {
        var elements: [Element] = []
        elements.reserveCapacity(capacity)
        for index in 0..<count { elements.append((start + index).move()) }
        return elements
    }

    /// How many bytes of a nested array's first elements ``array(_:)`` holds on the stack.
    @inlinable static var stackedArrayBytes: Int { 256 }

    /// How deep in the document a nested array may be and still be read into the stack.
    @inlinable static var stackedArrayDepth: Int { 32 }

    /// The document's own array (records, usually), the reader at its first element. It grows
    /// to megabytes: regrowing it copies them and faults in fresh pages each time, so it is
    /// sized once from its first element.
    @inlinable
    mutating func documentArray<Element>(_ element: (inout JSONTextReader) throws -> Element) throws -> [Element] {
        var elements: [Element] = []
        let start = cursor.index
        elements.append(try element(&self))
        if let count = cursor.estimatedCount(firstElementFrom: start, stride: MemoryLayout<Element>.stride) {
            elements.reserveCapacity(count)
        }
        while try nextElement() {
            elements.append(try element(&self))
        }
        return elements
    }
}
