#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import HTTPSerializationCore

/// Where one value of a ``JSONTapeEncodable`` writer goes in the JSON text being written.
///
/// Valid only during the writer's call. Part of `@GeneratedJSONCoding`'s runtime, not for hand use.
@_documentation(visibility: internal)
public struct JSONTapeWriter {
    // Strong: an unowned, unchecked reference is retained and released around every call made
    // through it, two pairs per property; a strong one is borrowed, retained once per writer.
    let encoder: JSONStreamingEncoder

    init(encoder: JSONStreamingEncoder) {
        self.encoder = encoder
    }

    /// The keys and indexes that lead to the value, as `Encoder.codingPath` gives them.
    @_documentation(visibility: internal)
    public var codingPath: [any CodingKey] { encoder.codingPath }

    /// The encoder's `userInfo`, as `Encoder.userInfo` gives it.
    @_documentation(visibility: internal)
    public var userInfo: [CodingUserInfoKey: Any] { encoder.userInfo }

    /// Writes the value as an object, whose properties are then written by key.
    @_documentation(visibility: internal)
    public func object() -> JSONTapeObjectWriter {
        guard let id = encoder.openGeneratedObject() else {
            // A value below wrote out of order and the tree took the text: the object goes there.
            return JSONTapeObjectWriter(encoder: encoder, id: 0, tree: encoder.currentTreeEncoder())
        }
        return JSONTapeObjectWriter(encoder: encoder, id: id, tree: nil)
    }

    /// Writes `value` here, by its own writer.
    @inlinable
    @_documentation(visibility: internal)
    public func encode<T: JSONTapeEncodable>(_ value: T) throws {
        try value.encode(jsonTape: self)
    }

    /// Writes `value` here as the `Encodable` path writes it: by its own writer if its
    /// dynamic type has one, else through its `encode(to:)`, with the encoder's strategies for
    /// dates, data, URLs and decimals. Not a way for a writer to call its own `encode(to:)`.
    @_documentation(visibility: internal)
    public func encode<T: Encodable>(_ value: T) throws {
        try encoder.encodeValue(value)
    }

    // MARK: Arrays, for the inlined loop of `JSONTapeEncodable.encodeArray(_:jsonTape:)`

    /// Opens an array here; nil when the tree has taken the text.
    @usableFromInline func beginArray() -> Int? {
        encoder.openGeneratedArray()
    }

    /// Puts an index on the coding path, for ``beginElement(in:index:)`` to move.
    @usableFromInline func pushIndex() { encoder.codingPath.append(JSONIndexCodingKey(0)) }
    /// Takes the index off again.
    @usableFromInline func popIndex() { encoder.codingPath.removeLast() }

    /// Begins element `index` of `array`; false when the tree takes it.
    @usableFromInline func beginElement(in array: Int, index: Int) throws -> Bool {
        encoder.codingPath[encoder.codingPath.count - 1] = JSONIndexCodingKey(index)
        return try encoder.beginValue(inArray: array)
    }

    // A writer for the value just begun runs between `beginRun()` and `endRun(_:)`, or
    // `failRun(_:)` when it throws, which takes back what it wrote. Not a closure: capturing
    // the value would copy it, retaining everything in it.

    /// Where the output stands as a value's writer begins.
    @usableFromInline struct RunMark {
        let mark: JSONStreamingEncoder.OwnCodeMark
    }

    @usableFromInline func beginRun() -> RunMark { RunMark(mark: encoder.beginOwnCode()) }
    @usableFromInline func endRun(_ mark: RunMark) throws { try encoder.endOwnCode(mark.mark) }
    @usableFromInline func failRun(_ mark: RunMark) { encoder.failOwnCode(mark.mark) }

    /// Appends `element` to the array in the tree that took the text (`array` nil: the tree
    /// took it before the array opened).
    @usableFromInline func encodeElementInTree<T: Encodable>(_ element: T, in array: Int?) throws {
        let path = Array(encoder.codingPath.dropLast())
        var container = UnkeyedContainer(encoder: array.map { encoder.treeEncoder(value: $0, codingPath: path) } ?? encoder.currentTreeEncoder())
        try container.encode(element)
    }

    /// Writes `value`'s raw value, as `RawRepresentable`'s `encode(to:)` writes it.
    ///
    /// A generated writer for an enum with raw values writes itself this way.
    @_documentation(visibility: internal)
    public func encodeRawValue<T: RawRepresentable>(_ value: T) throws where T.RawValue: JSONTapeEncodable {
        try value.rawValue.encode(jsonTape: self)
    }
}

/// An object being written by a ``JSONTapeEncodable`` writer: what it uses where
/// `encode(to:)` uses a keyed container.
///
/// Keys are the coding keys' strings, written as they are (or as the encoder's key strategy
/// converts them). Valid only during the writer's call.
@_documentation(visibility: internal)
public struct JSONTapeObjectWriter {
    // Strong, for the reason ``JSONTapeWriter`` gives.
    let encoder: JSONStreamingEncoder
    /// The encoder's number for the object; 0 when ``tree`` holds it, -1 when it could not
    /// open (its error is thrown at the first write).
    let id: Int
    /// The object in the tree, when the tree had taken the text before it opened. Boxed, so
    /// the writer stays three words: generated code passes it by value at every property.
    let tree: TreeObject?

    /// A tree encoder in a box of one reference.
    final class TreeObject {
        let encoder: ParameterEncoder
        init(_ encoder: ParameterEncoder) { self.encoder = encoder }
    }

    init(encoder: JSONStreamingEncoder, id: Int, tree: ParameterEncoder?) {
        self.encoder = encoder
        self.id = id
        self.tree = tree.map(TreeObject.init)
    }

    /// The keys and indexes that lead to the object.
    @_documentation(visibility: internal)
    public var codingPath: [any CodingKey] { encoder.codingPath }

    /// Writes `value` under `key`, by its own writer.
    @inlinable
    @_documentation(visibility: internal)
    public mutating func encode<T: JSONTapeEncodable>(_ value: T, forKey key: StaticString) throws {
        // Specialized in the caller, so the common scalars skip the path and the writer's call.
        if T.self == String.self { return try encodeString(unsafeBitCast(value, to: String.self), key) }
        if T.self == Int.self { return try encodeInt(unsafeBitCast(value, to: Int.self), key) }
        if T.self == Double.self { return try encodeDouble(unsafeBitCast(value, to: Double.self), key) }
        if T.self == Bool.self { return try encodeBool(unsafeBitCast(value, to: Bool.self), key) }
        if T.self == [String].self { return try encodeStrings(unsafeBitCast(value, to: [String].self), key) }
        if T.self == [Int].self { return try encodeInts(unsafeBitCast(value, to: [Int].self), key) }
        if T.self == [Double].self { return try encodeDoubles(unsafeBitCast(value, to: [Double].self), key) }
        if T.self == [Bool].self { return try encodeBools(unsafeBitCast(value, to: [Bool].self), key) }
        guard let writer = try nestedWriter(key) else { return try encodeInTree(value, key) }
        defer { popKey() }
        let mark = writer.beginRun()
        do {
            try value.encode(jsonTape: writer)
        } catch {
            writer.failRun(mark)
            throw error
        }
        try writer.endRun(mark)
    }

    /// Writes `value` under `key` unless it is nil, as `encodeIfPresent(_:forKey:)` leaves the key out.
    @inlinable
    @_documentation(visibility: internal)
    public mutating func encodeIfPresent<T: JSONTapeEncodable>(_ value: T?, forKey key: StaticString) throws {
        guard let value else { return }
        try encode(value, forKey: key)
    }

    /// Writes `value` under `key` through its `encode(to:)`: for a property whose type has no
    /// writer of its own.
    @_documentation(visibility: internal)
    public mutating func encode<T: Encodable>(_ value: T, forKey key: StaticString) throws {
        guard try encoder.beginGeneratedValue(inObject: id, key: key) else { return try encodeInTree(value, key) }
        try encoder.encodeValue(value, at: CodingKeys(key))
    }

    /// Writes `value` under `key` through its `encode(to:)` unless it is nil.
    @_documentation(visibility: internal)
    public mutating func encodeIfPresent<T: Encodable>(_ value: T?, forKey key: StaticString) throws {
        guard let value else { return }
        try encode(value, forKey: key)
    }

    /// Writes a property whose type is an optional the macro cannot see as one (spelled
    /// through a type alias, or not written) as `encodeIfPresent(_:forKey:)` does: nil leaves
    /// the key out, as synthesized `Codable` writes any optional. Overload resolution picks it
    /// wherever the type is an optional once aliases are resolved.
    @inlinable
    @_documentation(visibility: internal)
    public mutating func encode<Wrapped: JSONTapeEncodable>(_ value: Wrapped?, forKey key: StaticString) throws {
        try encodeIfPresent(value, forKey: key)
    }

    /// An optional the macro cannot see as one, of a type with no writer of its own: nil
    /// leaves the key out.
    @_documentation(visibility: internal)
    public mutating func encode<Wrapped: Encodable>(_ value: Wrapped?, forKey key: StaticString) throws {
        try encodeIfPresent(value, forKey: key)
    }

    // MARK: Behind the inlined calls

    @usableFromInline mutating func encodeString(_ value: String, _ key: StaticString) throws {
        guard try encoder.beginGeneratedValue(inObject: id, key: key) else { return try encodeInTree(value, key) }
        try encoder.write(string: value)
    }

    @usableFromInline mutating func encodeInt(_ value: Int, _ key: StaticString) throws {
        guard try encoder.beginGeneratedValue(inObject: id, key: key) else { return try encodeInTree(value, key) }
        try encoder.write(.int(value))
    }

    @usableFromInline mutating func encodeDouble(_ value: Double, _ key: StaticString) throws {
        guard try encoder.beginGeneratedValue(inObject: id, key: key) else { return try encodeInTree(value, key) }
        guard value.isFinite else {
            // The key on the path for the error, or the strategy's string.
            return try encoder.with(CodingKeys(key)) { try encoder.write(value) }
        }
        try encoder.write(value)
    }

    @usableFromInline mutating func encodeBool(_ value: Bool, _ key: StaticString) throws {
        guard try encoder.beginGeneratedValue(inObject: id, key: key) else { return try encodeInTree(value, key) }
        try encoder.write(.bool(value))
    }

    // Arrays of the common scalars go straight to the encoder's own loops for them, as
    // `Array`'s writer would send them, without a call through its generic writer.
    @usableFromInline mutating func encodeStrings(_ value: [String], _ key: StaticString) throws { try encodeScalars(value, key) }
    @usableFromInline mutating func encodeInts(_ value: [Int], _ key: StaticString) throws { try encodeScalars(value, key) }
    @usableFromInline mutating func encodeDoubles(_ value: [Double], _ key: StaticString) throws { try encodeScalars(value, key) }
    @usableFromInline mutating func encodeBools(_ value: [Bool], _ key: StaticString) throws { try encodeScalars(value, key) }

    private mutating func encodeScalars<Element: Encodable>(_ value: [Element], _ key: StaticString) throws {
        guard try encoder.beginGeneratedValue(inObject: id, key: key) else { return try encodeInTree(value, key) }
        try encoder.encodeValue(value, at: CodingKeys(key))
    }

    /// A property's key on the coding path: the writer's static text, made a `String` only
    /// when read. Named as a synthesized key type is, so errors print the same.
    struct CodingKeys: CodingKey {
        let key: StaticString
        init(_ key: StaticString) { self.key = key }
        var stringValue: String { key.description }
        var intValue: Int? { nil }
        init?(stringValue: String) { nil }
        init?(intValue: Int) { nil }
    }

    /// Begins the value at `key` and puts the key on the path (``popKey()`` takes it off); nil
    /// when the tree takes the value instead.
    @usableFromInline mutating func nestedWriter(_ key: StaticString) throws -> JSONTapeWriter? {
        guard try encoder.beginGeneratedValue(inObject: id, key: key) else { return nil }
        encoder.codingPath.append(CodingKeys(key))
        return JSONTapeWriter(encoder: encoder)
    }

    @usableFromInline func popKey() { encoder.codingPath.removeLast() }

    /// Writes `value` at `key` into the tree that took over the text (a `encode(to:)` below
    /// wrote out of order), as a keyed container would.
    @usableFromInline func encodeInTree<T: Encodable>(_ value: T, _ key: StaticString) throws {
        var container = KeyedContainer<JSONTapeObject.CodingKeys>(encoder: tree?.encoder ?? encoder.treeEncoder(value: id, codingPath: encoder.codingPath))
        try container.encode(value, forKey: JSONTapeObject.CodingKeys(stringValue: key.description))
    }
}
