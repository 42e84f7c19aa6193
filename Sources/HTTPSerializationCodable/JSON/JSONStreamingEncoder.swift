#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import HTTPSerializationCore

/// Writes an `Encodable` value's JSON as its `encode(to:)` runs, for the usual shape of
/// encoding: each container filled before its parent goes on, each key once.
///
/// `ParameterValue` fields and `[String: T]` dictionaries under a key strategy are written in
/// place. Anything else `Encoder` allows (writing to a container after a sibling was opened, a
/// key encoded twice, `superEncoder`) stops it with ``JSONStreamingEncoder/Fallback``, and the
/// caller encodes again through a tree, which handles every order.
final class JSONStreamingEncoder {
    struct Fallback: Error {}

    let options: JSONBodyEncoder
    @exclusivity(unchecked) private var writer: JSONWriter

    /// An open array or object: how many values it has, and where its key hashes start.
    private struct Frame {
        let id: Int
        let isObject: Bool
        let firstKeyHash: Int
        var count = 0
        /// The key hashes of an object past ``JSONStreamingEncoder/scannedKeys`` keys, so a
        /// large dictionary's keys are checked in constant time each, not by a scan.
        var keySet: Set<UInt64>?
    }

    /// Objects up to this many keys are checked for a repeated key by scanning their hashes.
    private static let scannedKeys = 32

    @exclusivity(unchecked) private var frames: [Frame] = []
    /// A hash of each key written in each open object, innermost last.
    @exclusivity(unchecked) private var keyHashes: [UInt64] = []
    @exclusivity(unchecked) private var nextID = 0
    /// A key (or array slot) has been written and its value not yet.
    @exclusivity(unchecked) private var pending = false
    @exclusivity(unchecked) var codingPath: [any CodingKey] = []
    /// Set with every ``Fallback`` thrown, so one swallowed by a model's `try?` still counts.
    @exclusivity(unchecked) private(set) var failed = false

    func fallback() -> Fallback {
        failed = true
        return Fallback()
    }

    init(options: JSONBodyEncoder) {
        self.options = options
        writer = JSONWriter(options: options.outputFormatting)
    }

    /// The JSON text of `value`; throws ``Fallback`` when the model needs the tree encoder.
    func encode(_ value: some Encodable) throws -> [UInt8] {
        pending = true
        try encodeValue(value)
        if pending || failed { throw fallback() }
        while !frames.isEmpty { close() }
        return writer.output
    }

    // MARK: Structure

    /// Closes containers above `id` (their owners are done with them); nil when `id` is closed.
    private func reopen(_ id: Int) throws -> Int {
        if let last = frames.indices.last, frames[last].id == id { return last }
        guard let index = frames.lastIndex(where: { $0.id == id }) else { throw fallback() }
        while frames.count > index + 1 { close() }
        return index
    }

    private func close() {
        let frame = frames.removeLast()
        keyHashes.removeSubrange(frame.firstKeyHash...)
        writer.closeContainer(isObject: frame.isObject, level: frames.count)
    }

    /// Writes the separator and the key for the next value of object `id`.
    func beginValue(inObject id: Int, key: String) throws {
        let index = try reopen(id)
        let hash = JSONStreamingEncoder.hash(key)
        // A key written twice is replaced in JSONEncoder's output: only the tree can do that.
        if frames[index].count < Self.scannedKeys {
            if keyHashes[frames[index].firstKeyHash...].contains(hash) { throw fallback() }
        } else {
            if frames[index].keySet == nil { frames[index].keySet = Set(keyHashes[frames[index].firstKeyHash...]) }
            if frames[index].keySet?.insert(hash).inserted == false { throw fallback() }
        }
        keyHashes.append(hash)
        writer.separator(first: frames[index].count == 0, level: frames.count)
        frames[index].count += 1
        writer.key(key)
        pending = true
    }

    /// Writes the separator before the next element of array `id`.
    func beginValue(inArray id: Int) throws {
        let index = try reopen(id)
        writer.separator(first: frames[index].count == 0, level: frames.count)
        frames[index].count += 1
        pending = true
    }

    func elementCount(ofArray id: Int) -> Int {
        frames.last(where: { $0.id == id })?.count ?? 0
    }

    /// Opens an object or array where a value is pending.
    func openContainer(isObject: Bool) throws -> Int {
        guard pending else { throw fallback() }
        guard frames.count < options.maximumDepth else {
            throw RequestSerializationError.nestingTooDeep(path: ParameterEncoder.describe(codingPath), limit: options.maximumDepth)
        }
        pending = false
        nextID += 1
        frames.append(Frame(id: nextID, isObject: isObject, firstKeyHash: keyHashes.count))
        writer.openContainer(isObject: isObject)
        return nextID
    }

    private static func hash(_ key: String) -> UInt64 {
        var key = key
        return key.withUTF8 { JSONTapeReader.keyHash($0) }
    }

    // MARK: Values

    /// Writes a scalar where a value is pending.
    func write(_ value: ParameterValue) throws {
        guard pending else { throw fallback() }
        pending = false
        try writer.writeScalar(value) { ParameterEncoder.path(self.codingPath) }
    }

    /// Writes a whole parameter tree where a value is pending, with the same writer.
    func write(tree: ParameterValue) throws {
        guard pending else { throw fallback() }
        guard frames.count + tree.depth <= options.maximumDepth else {
            throw RequestSerializationError.nestingTooDeep(path: ParameterEncoder.describe(codingPath), limit: options.maximumDepth)
        }
        pending = false
        try writer.write(tree, level: frames.count, at: ParameterEncoder.path(codingPath))
    }

    func write(_ value: Double) throws {
        guard value.isFinite else { return try writeNonConforming(value, value) }
        try write(.double(value))
    }

    func write(_ value: Float) throws {
        guard value.isFinite else { return try writeNonConforming(Double(value), value) }
        guard pending else { throw fallback() }
        pending = false
        writer.writeNumberText(value.description)
    }

    private func writeNonConforming<Original>(_ value: Double, _ original: Original) throws {
        guard case .convertToString(let infinity, let negativeInfinity, let nan) = options.nonConformingFloatEncodingStrategy else {
            throw EncodingError.invalidValue(original, EncodingError.Context(
                codingPath: codingPath,
                debugDescription: "Unable to encode \(value) directly in JSON. Use a convertToString strategy to encode it."))
        }
        try write(.string(value.isNaN ? nan : value > 0 ? infinity : negativeInfinity))
    }

    /// Encodes any value where one is pending, with the body's strategies for the special types.
    func encodeValue<T: Encodable>(_ value: T) throws {
        // Metatype checks: cheaper than casting the value for every type tried.
        if T.self == String.self { return try write(.string(Self.same(value, as: String.self))) }
        if T.self == Int.self { return try write(.int(Self.same(value, as: Int.self))) }
        if T.self == Double.self { return try write(Self.same(value, as: Double.self)) }
        if T.self == Bool.self { return try write(.bool(Self.same(value, as: Bool.self))) }
        if T.self == Date.self { return try encode(Self.same(value, as: Date.self)) }
        if T.self == Data.self { return try encode(Self.same(value, as: Data.self)) }
        if T.self == URL.self { return try write(.string(Self.same(value, as: URL.self).absoluteString)) }
        if T.self == Decimal.self { return try write(.decimal(Self.same(value, as: Decimal.self))) }
        if T.self == ParameterValue.self { return try write(tree: Self.same(value, as: ParameterValue.self)) }
        // `JSONEncoder` converts coding keys, not the keys of a `[String: T]`.
        if !options.keysAsWritten, let dictionary = value as? any JSONStringKeyedDictionaryEncodable {
            return try dictionary.streamEntries(to: self)
        }
        try value.encode(to: self)
        // A value that encoded nothing is an empty object, as in `JSONEncoder`.
        if pending { try encodeCustom {} }
    }

    /// `value` as `Target`, which the caller has checked is its own type.
    @inline(__always)
    private static func same<Value, Target>(_ value: Value, as type: Target.Type) -> Target {
        unsafeBitCast(value, to: Target.self)
    }

    private func encode(_ date: Date) throws {
        switch options.dateEncodingStrategy {
        case .deferredToDate: try date.encode(to: self)
        case .secondsSince1970: try write(date.timeIntervalSince1970)
        case .millisecondsSince1970: try write(1000 * date.timeIntervalSince1970)
        case .iso8601: try write(.string(date.formatted(.iso8601)))
        case .formatted(let style): try write(.string(style.format(date)))
        case .custom(let encode): try encodeCustom { try encode(date, self) }
        }
    }

    private func encode(_ data: Data) throws {
        switch options.dataEncodingStrategy {
        case .deferredToData: try data.encode(to: self)
        case .base64: try write(.string(data.base64EncodedString()))
        case .custom(let encode): try encodeCustom { try encode(data, self) }
        }
    }

    private func encodeCustom(_ body: () throws -> Void) throws {
        try body()
        if pending {
            _ = try openContainer(isObject: true)
        }
    }

    /// The key written for a coding key, after the key strategy.
    func writtenKey(_ key: some CodingKey) -> String {
        switch options.keyEncodingStrategy {
        case .useDefaultKeys: return key.stringValue
        case .convertToSnakeCase: return JSONKeyConversion.snakeCase(fromCamelCase: key.stringValue)
        case .custom(let convert): return convert(codingPath + [key]).stringValue
        }
    }

    /// Runs `body` with `key` on the coding path.
    @inline(__always)
    func with<Result>(_ key: some CodingKey, _ body: () throws -> Result) rethrows -> Result {
        codingPath.append(key)
        defer { codingPath.removeLast() }
        return try body()
    }
}

extension JSONStreamingEncoder: Encoder {
    var userInfo: [CodingUserInfoKey: Any] { options.userInfo.mapValues { $0 as Any } }

    func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
        KeyedEncodingContainer(JSONStreamingKeyedContainer<Key>(encoder: self, id: pendingContainer(isObject: true), codingPath: codingPath))
    }

    func unkeyedContainer() -> any UnkeyedEncodingContainer {
        JSONStreamingUnkeyedContainer(encoder: self, id: pendingContainer(isObject: false), codingPath: codingPath)
    }

    func singleValueContainer() -> any SingleValueEncodingContainer {
        JSONStreamingSingleValueContainer(encoder: self, codingPath: codingPath)
    }

    /// `Encoder`'s container methods cannot throw: a container that cannot open here gets id
    /// -1, and its first write throws ``Fallback``.
    private func pendingContainer(isObject: Bool) -> Int {
        (try? openContainer(isObject: isObject)) ?? -1
    }
}

private struct JSONStreamingKeyedContainer<Key: CodingKey>: KeyedEncodingContainerProtocol {
    let encoder: JSONStreamingEncoder
    let id: Int
    let codingPath: [any CodingKey]

    private func begin(_ key: Key) throws {
        try encoder.beginValue(inObject: id, key: encoder.writtenKey(key))
    }

    mutating func encodeNil(forKey key: Key) throws { try begin(key); try encoder.write(.null) }
    mutating func encode(_ value: Bool, forKey key: Key) throws { try begin(key); try encoder.write(.bool(value)) }
    mutating func encode(_ value: String, forKey key: Key) throws { try begin(key); try encoder.write(.string(value)) }
    mutating func encode(_ value: Double, forKey key: Key) throws { try begin(key); try encoder.with(key) { try encoder.write(value) } }
    mutating func encode(_ value: Float, forKey key: Key) throws { try begin(key); try encoder.with(key) { try encoder.write(value) } }
    mutating func encode(_ value: Int, forKey key: Key) throws { try begin(key); try encoder.write(.int(value)) }
    mutating func encode(_ value: Int8, forKey key: Key) throws { try begin(key); try encoder.write(.int(Int(value))) }
    mutating func encode(_ value: Int16, forKey key: Key) throws { try begin(key); try encoder.write(.int(Int(value))) }
    mutating func encode(_ value: Int32, forKey key: Key) throws { try begin(key); try encoder.write(.int(Int(value))) }
    mutating func encode(_ value: Int64, forKey key: Key) throws { try begin(key); try encoder.write(.int(Int(value))) }
    mutating func encode(_ value: UInt, forKey key: Key) throws { try begin(key); try encoder.write(ParameterValue(integer: value)) }
    mutating func encode(_ value: UInt8, forKey key: Key) throws { try begin(key); try encoder.write(.int(Int(value))) }
    mutating func encode(_ value: UInt16, forKey key: Key) throws { try begin(key); try encoder.write(.int(Int(value))) }
    mutating func encode(_ value: UInt32, forKey key: Key) throws { try begin(key); try encoder.write(.int(Int(value))) }
    mutating func encode(_ value: UInt64, forKey key: Key) throws { try begin(key); try encoder.write(ParameterValue(integer: value)) }
    mutating func encode<T: Encodable>(_ value: T, forKey key: Key) throws {
        try begin(key)
        try encoder.with(key) { try encoder.encodeValue(value) }
    }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type, forKey key: Key) -> KeyedEncodingContainer<NestedKey> {
        let id = (try? begin(key)).flatMap { try? encoder.openContainer(isObject: true) } ?? -1
        return KeyedEncodingContainer(JSONStreamingKeyedContainer<NestedKey>(encoder: encoder, id: id, codingPath: codingPath + [key]))
    }

    mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
        let id = (try? begin(key)).flatMap { try? encoder.openContainer(isObject: false) } ?? -1
        return JSONStreamingUnkeyedContainer(encoder: encoder, id: id, codingPath: codingPath + [key])
    }

    mutating func superEncoder() -> any Encoder { JSONFallbackEncoder(encoder, codingPath: codingPath) }
    mutating func superEncoder(forKey key: Key) -> any Encoder { JSONFallbackEncoder(encoder, codingPath: codingPath + [key]) }
}

private struct JSONStreamingUnkeyedContainer: UnkeyedEncodingContainer {
    let encoder: JSONStreamingEncoder
    let id: Int
    let codingPath: [any CodingKey]
    var count: Int { encoder.elementCount(ofArray: id) }

    private func begin() throws { try encoder.beginValue(inArray: id) }
    private var indexKey: ParameterCodingKey { ParameterCodingKey(intValue: count) }

    mutating func encodeNil() throws { try begin(); try encoder.write(.null) }
    mutating func encode(_ value: Bool) throws { try begin(); try encoder.write(.bool(value)) }
    mutating func encode(_ value: String) throws { try begin(); try encoder.write(.string(value)) }
    mutating func encode(_ value: Double) throws { let key = indexKey; try begin(); try encoder.with(key) { try encoder.write(value) } }
    mutating func encode(_ value: Float) throws { let key = indexKey; try begin(); try encoder.with(key) { try encoder.write(value) } }
    mutating func encode(_ value: Int) throws { try begin(); try encoder.write(.int(value)) }
    mutating func encode(_ value: Int8) throws { try begin(); try encoder.write(.int(Int(value))) }
    mutating func encode(_ value: Int16) throws { try begin(); try encoder.write(.int(Int(value))) }
    mutating func encode(_ value: Int32) throws { try begin(); try encoder.write(.int(Int(value))) }
    mutating func encode(_ value: Int64) throws { try begin(); try encoder.write(.int(Int(value))) }
    mutating func encode(_ value: UInt) throws { try begin(); try encoder.write(ParameterValue(integer: value)) }
    mutating func encode(_ value: UInt8) throws { try begin(); try encoder.write(.int(Int(value))) }
    mutating func encode(_ value: UInt16) throws { try begin(); try encoder.write(.int(Int(value))) }
    mutating func encode(_ value: UInt32) throws { try begin(); try encoder.write(.int(Int(value))) }
    mutating func encode(_ value: UInt64) throws { try begin(); try encoder.write(ParameterValue(integer: value)) }
    mutating func encode<T: Encodable>(_ value: T) throws {
        let key = indexKey
        try begin()
        try encoder.with(key) { try encoder.encodeValue(value) }
    }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type) -> KeyedEncodingContainer<NestedKey> {
        let key = indexKey
        let id = (try? begin()).flatMap { try? encoder.openContainer(isObject: true) } ?? -1
        return KeyedEncodingContainer(JSONStreamingKeyedContainer<NestedKey>(encoder: encoder, id: id, codingPath: codingPath + [key]))
    }

    mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer {
        let key = indexKey
        let id = (try? begin()).flatMap { try? encoder.openContainer(isObject: false) } ?? -1
        return JSONStreamingUnkeyedContainer(encoder: encoder, id: id, codingPath: codingPath + [key])
    }

    mutating func superEncoder() -> any Encoder { JSONFallbackEncoder(encoder, codingPath: codingPath) }
}

private struct JSONStreamingSingleValueContainer: SingleValueEncodingContainer {
    let encoder: JSONStreamingEncoder
    let codingPath: [any CodingKey]

    mutating func encodeNil() throws { try encoder.write(.null) }
    mutating func encode(_ value: Bool) throws { try encoder.write(.bool(value)) }
    mutating func encode(_ value: String) throws { try encoder.write(.string(value)) }
    mutating func encode(_ value: Double) throws { try encoder.write(value) }
    mutating func encode(_ value: Float) throws { try encoder.write(value) }
    mutating func encode(_ value: Int) throws { try encoder.write(.int(value)) }
    mutating func encode(_ value: Int8) throws { try encoder.write(.int(Int(value))) }
    mutating func encode(_ value: Int16) throws { try encoder.write(.int(Int(value))) }
    mutating func encode(_ value: Int32) throws { try encoder.write(.int(Int(value))) }
    mutating func encode(_ value: Int64) throws { try encoder.write(.int(Int(value))) }
    mutating func encode(_ value: UInt) throws { try encoder.write(ParameterValue(integer: value)) }
    mutating func encode(_ value: UInt8) throws { try encoder.write(.int(Int(value))) }
    mutating func encode(_ value: UInt16) throws { try encoder.write(.int(Int(value))) }
    mutating func encode(_ value: UInt32) throws { try encoder.write(.int(Int(value))) }
    mutating func encode(_ value: UInt64) throws { try encoder.write(ParameterValue(integer: value)) }
    mutating func encode<T: Encodable>(_ value: T) throws { try encoder.encodeValue(value) }
}

/// What `superEncoder()` hands out while streaming: it marks the encoding for the tree
/// encoder, and its containers write nowhere (the tree encoder runs the model again).
private struct JSONFallbackEncoder: Encoder {
    let codingPath: [any CodingKey]
    private let sink: JSONStreamingEncoder

    init(_ encoder: JSONStreamingEncoder, codingPath: [any CodingKey]) {
        _ = encoder.fallback()
        sink = JSONStreamingEncoder(options: encoder.options)
        self.codingPath = codingPath
    }

    var userInfo: [CodingUserInfoKey: Any] { sink.userInfo }
    func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
        KeyedEncodingContainer(JSONStreamingKeyedContainer<Key>(encoder: sink, id: -1, codingPath: codingPath))
    }
    func unkeyedContainer() -> any UnkeyedEncodingContainer {
        JSONStreamingUnkeyedContainer(encoder: sink, id: -1, codingPath: codingPath)
    }
    func singleValueContainer() -> any SingleValueEncodingContainer {
        JSONStreamingSingleValueContainer(encoder: sink, codingPath: codingPath)
    }
}
