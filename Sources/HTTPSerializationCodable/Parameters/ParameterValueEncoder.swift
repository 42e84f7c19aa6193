#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import HTTPSerializationCore

extension ParameterValue {
    /// Encodes a `Codable` model into a parameter tree, through a real `Encoder`.
    ///
    /// Use it to send models as query strings, forms, JSON, property lists or multipart
    /// fields with one description. `Date`, `Data`, `URL` and `Decimal` keep their own cases
    /// so each encoder can format them its way; `nil` optionals are left out, as
    /// `JSONEncoder` does, unless the model calls `encodeNil`.
    ///
    /// ```swift
    /// struct Search: Encodable { var q: String; var page: Int }
    /// let parameters = try ParameterValue(encoding: Search(q: "swift", page: 2))
    /// ```
    ///
    /// - Throws: ``/HTTPSerializationCore/RequestSerializationError/nestingTooDeep(path:limit:)`` past
    ///   `maximumDepth` levels,
    ///   ``/HTTPSerializationCore/RequestSerializationError/invalidParameter(path:reason:)`` when nothing was
    ///   encoded, and any error the model's own `encode(to:)` throws, unchanged.
    public init(encoding value: some Encodable, maximumDepth: Int = ParameterValue.defaultMaximumDepth) throws {
        try self.init(encoding: value, maximumDepth: maximumDepth, json: nil)
    }

    /// With `json`, dates, data, keys and non-finite floats follow its strategies; with
    /// `files`, a ``/HTTPSerializationCore/MultipartFile`` becomes its marker there.
    init(encoding value: some Encodable, maximumDepth: Int, json: JSONBodyEncoder?, files: MultipartFileMarkers? = nil) throws {
        let root = EncodingNode()
        try ParameterEncoder(node: root, codingPath: [], maximumDepth: maximumDepth, json: json, files: files).encodeValue(value)
        guard let result = root.finish() else {
            throw RequestSerializationError.invalidParameter(
                path: "", reason: "\(type(of: value)) did not encode any value")
        }
        self = result
    }
}

/// A slot that a container writes into; containers nest by reference so that a child
/// container can keep writing after its parent handed it out, as `Encoder` requires.
///
/// A scalar written straight into a container is kept inline (``Child/value(_:)``), so the
/// usual property costs no node and no coding path of its own.
final class EncodingNode {
    enum Child {
        case value(ParameterValue)
        case node(EncodingNode)
    }

    private var value: ParameterValue?
    private var keyedChildren: [String: Child]?
    private var unkeyedChildren: [Child]?

    func set(_ newValue: ParameterValue) {
        value = newValue
        keyedChildren = nil
        unkeyedChildren = nil
    }

    func makeKeyed() {
        if keyedChildren == nil { keyedChildren = [:] }
    }

    func makeUnkeyed() {
        if unkeyedChildren == nil { unkeyedChildren = [] }
    }

    /// The node under `key`, made (replacing a scalar written there) if there is none.
    func child(forKey key: String) -> EncodingNode {
        if case .node(let existing)? = keyedChildren?[key] { return existing }
        let node = EncodingNode()
        if keyedChildren == nil { keyedChildren = [:] }
        keyedChildren![key] = .node(node)
        return node
    }

    /// Writes a scalar under `key`, replacing what was there; a node already there takes the
    /// value itself, so a container still held for that key keeps writing to the same place.
    func setChild(_ value: ParameterValue, forKey key: String) {
        if case .node(let existing)? = keyedChildren?[key] { return existing.set(value) }
        if keyedChildren == nil { keyedChildren = [:] }
        keyedChildren![key] = .value(value)
    }

    func appendChild() -> EncodingNode {
        let node = EncodingNode()
        if unkeyedChildren == nil { unkeyedChildren = [] }
        unkeyedChildren!.append(.node(node))
        return node
    }

    /// Writes a scalar after the elements so far.
    func appendValue(_ value: ParameterValue) {
        if unkeyedChildren == nil { unkeyedChildren = [] }
        unkeyedChildren!.append(.value(value))
    }

    /// Puts `node` under `key` (a tree rebuilt from text already written).
    func attach(_ node: EncodingNode, forKey key: String) {
        makeKeyed()
        keyedChildren![key] = .node(node)
    }

    /// Puts `node` after the elements so far (a tree rebuilt from text already written).
    func attach(_ node: EncodingNode) {
        makeUnkeyed()
        unkeyedChildren!.append(.node(node))
    }

    /// Empties the slot, so it is left out unless something is written to it again.
    func clear() {
        value = nil
        keyedChildren = nil
        unkeyedChildren = nil
    }

    var unkeyedCount: Int { unkeyedChildren?.count ?? 0 }
    var isEmpty: Bool { value == nil && keyedChildren == nil && unkeyedChildren == nil }

    /// Builds the value without recursion, so model depth is bounded only by the encoder's limit.
    func finish() -> ParameterValue? {
        // Post-order walk: a container is built once all its child nodes are; inline scalars
        // need no visit.
        var results: [ObjectIdentifier: ParameterValue] = [:]
        var stack: [(node: EncodingNode, childrenDone: Bool)] = [(self, false)]
        func result(_ child: Child) -> ParameterValue? {
            switch child {
            case .value(let value): return value
            case .node(let node): return results.removeValue(forKey: ObjectIdentifier(node))
            }
        }
        func pushNodes(_ children: some Sequence<Child>) {
            for case .node(let node) in children { stack.append((node, false)) }
        }
        while let (node, childrenDone) = stack.popLast() {
            if let keyed = node.keyedChildren {
                if childrenDone {
                    var dictionary: [String: ParameterValue] = [:]
                    dictionary.reserveCapacity(keyed.count)
                    for (key, child) in keyed {
                        if let value = result(child) { dictionary[key] = value }
                    }
                    results[ObjectIdentifier(node)] = .dictionary(dictionary)
                } else {
                    stack.append((node, true))
                    pushNodes(keyed.values)
                }
            } else if let unkeyed = node.unkeyedChildren {
                if childrenDone {
                    results[ObjectIdentifier(node)] = .array(unkeyed.compactMap(result))
                } else {
                    stack.append((node, true))
                    pushNodes(unkeyed)
                }
            } else if let value = node.value {
                results[ObjectIdentifier(node)] = value
            }
        }
        return results[ObjectIdentifier(self)]
    }
}

struct ParameterCodingKey: CodingKey {
    var stringValue: String
    var intValue: Int?

    init(stringValue: String) { self.stringValue = stringValue }
    init(intValue: Int) {
        self.stringValue = String(intValue)
        self.intValue = intValue
    }

    static let superKey = ParameterCodingKey(stringValue: "super")
}

struct ParameterEncoder: Encoder {
    let node: EncodingNode
    let codingPath: [any CodingKey]
    let maximumDepth: Int
    /// JSON body strategies, or nil to keep dates and data as their own cases.
    let json: JSONBodyEncoder?
    /// Where a multipart form's files wait while the tree is built, or nil outside one.
    var files: MultipartFileMarkers? = nil
    var userInfo: [CodingUserInfoKey: Any] { json?.userInfo.mapValues { $0 as Any } ?? [:] }

    func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
        node.makeKeyed()
        return KeyedEncodingContainer(KeyedContainer<Key>(encoder: self))
    }

    func unkeyedContainer() -> any UnkeyedEncodingContainer {
        node.makeUnkeyed()
        return UnkeyedContainer(encoder: self)
    }

    func singleValueContainer() -> any SingleValueEncodingContainer {
        SingleValueContainer(encoder: self)
    }

    func nested(_ node: EncodingNode, key: any CodingKey) -> ParameterEncoder {
        ParameterEncoder(node: node, codingPath: codingPath + [key], maximumDepth: maximumDepth, json: json, files: files)
    }

    /// Encodes one value into this encoder's node, keeping Foundation's special types whole.
    /// Every write checks the depth, so a recursive model stops at the limit, not the stack.
    func encodeValue<T: Encodable>(_ value: T) throws {
        try checkDepth()
        switch value {
        case let value as ParameterValue: try set(value)
        case let value as Date:
            guard let json else { return node.set(.date(value)) }
            try encode(value, json.dateEncodingStrategy)
        case let value as Data:
            if let files { return node.set(.data(files.marker(for: .data(value, keyName: MultipartFileMarkers.fileName(for: codingPath))))) }
            guard let json else { return node.set(.data(value)) }
            try encode(value, json.dataEncodingStrategy)
        case let value as URL: node.set(.string(value.absoluteString))
        case let value as Decimal: node.set(.decimal(value))
        #if !((os(macOS) || targetEnvironment(macCatalyst)) && arch(x86_64))
        case let value as Float16 where json == nil:
            // Its own `encode(to:)` writes the `Float` it widens to (`0.099975586` for 0.1), as
            // `JSONEncoder` keeps in JSON; a form writes the `Float16`'s own shortest digits.
            try set(ParameterValue(value))
        #endif
        case let value as any JSONStringKeyedDictionaryEncodable where json.map({ !$0.keysAsWritten }) ?? false:
            // `JSONEncoder` converts coding keys, not the keys of a `[String: T]`.
            try value.encodeEntries(to: self)
        default: try value.encode(to: self)
        }
    }

    private func encode(_ date: Date, _ strategy: JSONBodyEncoder.DateEncodingStrategy) throws {
        switch strategy {
        case .deferredToDate: try date.encode(to: self)
        case .secondsSince1970: try setFloatingPoint(date.timeIntervalSince1970, date)
        case .millisecondsSince1970: try setFloatingPoint(1000 * date.timeIntervalSince1970, date)
        case .iso8601: node.set(.string(date.formatted(.iso8601)))
        case .formatted(let style): node.set(.string(style.format(date)))
        case .custom(let write): try writeOrEmpty { try write(date, self) }
        }
    }

    private func encode(_ data: Data, _ strategy: JSONBodyEncoder.DataEncodingStrategy) throws {
        switch strategy {
        case .deferredToData: try data.encode(to: self)
        case .base64: node.set(.string(data.base64EncodedString()))
        case .custom(let write): try writeOrEmpty { try write(data, self) }
        }
    }

    /// Runs a custom strategy; one that writes nothing leaves an empty object, as `JSONEncoder` does.
    private func writeOrEmpty(_ write: () throws -> Void) throws {
        try write()
        if node.isEmpty { node.makeKeyed() }
    }

    /// A floating-point number; in a JSON body, infinity and NaN follow the float strategy.
    func setFloatingPoint<Original>(_ value: Double, _ original: Original) throws {
        if let json, !value.isFinite {
            guard case .convertToString(let infinity, let negativeInfinity, let nan) = json.nonConformingFloatEncodingStrategy else {
                throw EncodingError.invalidValue(original, EncodingError.Context(
                    codingPath: codingPath,
                    debugDescription: "Unable to encode \(value) directly in JSON. Use a convertToString strategy to encode it."))
            }
            return try set(.string(value.isNaN ? nan : value > 0 ? infinity : negativeInfinity))
        }
        try set(.double(value))
    }

    /// A `Float`, written in every body as its own shortest text (`0.1`, not `0.10000000149011612`).
    func setFloat(_ value: Float) throws {
        guard value.isFinite else { return try setFloatingPoint(Double(value), value) }
        try set(ParameterValue(value))
    }

    /// The key written for a coding key, after the JSON key strategy.
    func writtenKey(_ key: some CodingKey) -> String {
        switch json?.keyEncodingStrategy {
        case nil, .useDefaultKeys: return key.stringValue
        case .convertToSnakeCase: return JSONKeyConversion.snakeCase(fromCamelCase: key.stringValue)
        case .custom(let convert): return convert(codingPath + [key]).stringValue
        }
    }

    func set(_ value: ParameterValue) throws {
        try checkDepth()
        if value.isContainer, codingPath.count + value.depth > maximumDepth {
            throw RequestSerializationError.nestingTooDeep(path: Self.describe(codingPath), limit: maximumDepth)
        }
        node.set(value)
    }

    private func checkDepth() throws {
        guard codingPath.count <= maximumDepth else {
            throw RequestSerializationError.nestingTooDeep(path: Self.describe(codingPath), limit: maximumDepth)
        }
    }

    static func describe(_ codingPath: [any CodingKey]) -> String {
        path(codingPath).description
    }

    static func path(_ codingPath: [any CodingKey]) -> ParameterPath {
        var path = ParameterPath()
        for key in codingPath {
            path = path.appending(key.intValue.map { .index($0) } ?? .key(key.stringValue))
        }
        return path
    }
}

extension ParameterValue {
    /// Integers of any width: `Int` when it fits, an exact `Decimal` above `Int.max`.
    init(integer: some BinaryInteger) {
        if let small = Int(exactly: integer) {
            self = .int(small)
        } else {
            self = .decimal(Decimal(string: String(integer)) ?? .nan)
        }
    }
}

struct KeyedContainer<Key: CodingKey>: KeyedEncodingContainerProtocol {
    let encoder: ParameterEncoder
    var codingPath: [any CodingKey] { encoder.codingPath }

    private func child(_ key: some CodingKey) -> ParameterEncoder {
        encoder.nested(encoder.node.child(forKey: encoder.writtenKey(key)), key: key)
    }

    /// A scalar written inline; past the depth limit, through a child encoder, which throws.
    private func scalar(_ value: ParameterValue, forKey key: Key) throws {
        guard encoder.codingPath.count < encoder.maximumDepth else { return try child(key).set(value) }
        encoder.node.setChild(value, forKey: encoder.writtenKey(key))
    }

    mutating func encodeNil(forKey key: Key) throws { try scalar(.null, forKey: key) }
    mutating func encode(_ value: Bool, forKey key: Key) throws { try scalar(.bool(value), forKey: key) }
    mutating func encode(_ value: String, forKey key: Key) throws { try scalar(.string(value), forKey: key) }
    mutating func encode(_ value: Double, forKey key: Key) throws {
        // JSON bodies check non-finite values against their strategy.
        guard encoder.json == nil else { return try child(key).setFloatingPoint(value, value) }
        try scalar(.double(value), forKey: key)
    }
    mutating func encode(_ value: Float, forKey key: Key) throws { try child(key).setFloat(value) }
    mutating func encode(_ value: Int, forKey key: Key) throws { try scalar(.int(value), forKey: key) }
    mutating func encode(_ value: Int8, forKey key: Key) throws { try scalar(.int(Int(value)), forKey: key) }
    mutating func encode(_ value: Int16, forKey key: Key) throws { try scalar(.int(Int(value)), forKey: key) }
    mutating func encode(_ value: Int32, forKey key: Key) throws { try scalar(.int(Int(value)), forKey: key) }
    mutating func encode(_ value: Int64, forKey key: Key) throws { try scalar(.int(Int(value)), forKey: key) }
    mutating func encode(_ value: UInt, forKey key: Key) throws { try scalar(ParameterValue(integer: value), forKey: key) }
    mutating func encode(_ value: UInt8, forKey key: Key) throws { try scalar(.int(Int(value)), forKey: key) }
    mutating func encode(_ value: UInt16, forKey key: Key) throws { try scalar(.int(Int(value)), forKey: key) }
    mutating func encode(_ value: UInt32, forKey key: Key) throws { try scalar(.int(Int(value)), forKey: key) }
    mutating func encode(_ value: UInt64, forKey key: Key) throws { try scalar(ParameterValue(integer: value), forKey: key) }
    mutating func encode<T: Encodable>(_ value: T, forKey key: Key) throws { try child(key).encodeValue(value) }

    mutating func nestedContainer<NestedKey: CodingKey>(
        keyedBy keyType: NestedKey.Type, forKey key: Key
    ) -> KeyedEncodingContainer<NestedKey> {
        child(key).container(keyedBy: keyType)
    }

    mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
        child(key).unkeyedContainer()
    }

    mutating func superEncoder() -> any Encoder { child(ParameterCodingKey.superKey) }
    mutating func superEncoder(forKey key: Key) -> any Encoder { child(key) }
}

struct UnkeyedContainer: UnkeyedEncodingContainer {
    let encoder: ParameterEncoder
    var codingPath: [any CodingKey] { encoder.codingPath }
    var count: Int { encoder.node.unkeyedCount }

    private func next() -> ParameterEncoder {
        let index = encoder.node.unkeyedCount
        // Under a JSON encoder, positions are named as `JSONEncoder` names them.
        let key: any CodingKey = encoder.json == nil ? IndexCodingKey(index) : JSONIndexCodingKey(index)
        return encoder.nested(encoder.node.appendChild(), key: key)
    }

    /// A scalar appended inline; past the depth limit, through a child encoder, which throws.
    private func scalar(_ value: ParameterValue) throws {
        guard encoder.codingPath.count < encoder.maximumDepth else { return try next().set(value) }
        encoder.node.appendValue(value)
    }

    mutating func encodeNil() throws { try scalar(.null) }
    mutating func encode(_ value: Bool) throws { try scalar(.bool(value)) }
    mutating func encode(_ value: String) throws { try scalar(.string(value)) }
    mutating func encode(_ value: Double) throws {
        guard encoder.json == nil else { return try next().setFloatingPoint(value, value) }
        try scalar(.double(value))
    }
    mutating func encode(_ value: Float) throws { try next().setFloat(value) }
    mutating func encode(_ value: Int) throws { try scalar(.int(value)) }
    mutating func encode(_ value: Int8) throws { try scalar(.int(Int(value))) }
    mutating func encode(_ value: Int16) throws { try scalar(.int(Int(value))) }
    mutating func encode(_ value: Int32) throws { try scalar(.int(Int(value))) }
    mutating func encode(_ value: Int64) throws { try scalar(.int(Int(value))) }
    mutating func encode(_ value: UInt) throws { try scalar(ParameterValue(integer: value)) }
    mutating func encode(_ value: UInt8) throws { try scalar(.int(Int(value))) }
    mutating func encode(_ value: UInt16) throws { try scalar(.int(Int(value))) }
    mutating func encode(_ value: UInt32) throws { try scalar(.int(Int(value))) }
    mutating func encode(_ value: UInt64) throws { try scalar(ParameterValue(integer: value)) }
    mutating func encode<T: Encodable>(_ value: T) throws { try next().encodeValue(value) }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type) -> KeyedEncodingContainer<NestedKey> {
        next().container(keyedBy: keyType)
    }

    mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer {
        next().unkeyedContainer()
    }

    mutating func superEncoder() -> any Encoder { next() }
}

struct SingleValueContainer: SingleValueEncodingContainer {
    let encoder: ParameterEncoder
    var codingPath: [any CodingKey] { encoder.codingPath }

    mutating func encodeNil() throws { try encoder.set(.null) }
    mutating func encode(_ value: Bool) throws { try encoder.set(.bool(value)) }
    mutating func encode(_ value: String) throws { try encoder.set(.string(value)) }
    mutating func encode(_ value: Double) throws { try encoder.setFloatingPoint(value, value) }
    mutating func encode(_ value: Float) throws { try encoder.setFloat(value) }
    mutating func encode(_ value: Int) throws { try encoder.set(.int(value)) }
    mutating func encode(_ value: Int8) throws { try encoder.set(.int(Int(value))) }
    mutating func encode(_ value: Int16) throws { try encoder.set(.int(Int(value))) }
    mutating func encode(_ value: Int32) throws { try encoder.set(.int(Int(value))) }
    mutating func encode(_ value: Int64) throws { try encoder.set(.int(Int(value))) }
    mutating func encode(_ value: UInt) throws { try encoder.set(ParameterValue(integer: value)) }
    mutating func encode(_ value: UInt8) throws { try encoder.set(.int(Int(value))) }
    mutating func encode(_ value: UInt16) throws { try encoder.set(.int(Int(value))) }
    mutating func encode(_ value: UInt32) throws { try encoder.set(.int(Int(value))) }
    mutating func encode(_ value: UInt64) throws { try encoder.set(ParameterValue(integer: value)) }
    mutating func encode<T: Encodable>(_ value: T) throws { try encoder.encodeValue(value) }
}

/// `[String: Value]` in a JSON body with a key strategy: entries keep their keys.
protocol JSONStringKeyedDictionaryEncodable {
    func encodeEntries(to encoder: ParameterEncoder) throws
    /// The entries written straight into a streamed body, keys as they are.
    func streamEntries(to encoder: JSONStreamingEncoder) throws
}

extension Dictionary: JSONStringKeyedDictionaryEncodable where Key == String, Value: Encodable {
    func encodeEntries(to encoder: ParameterEncoder) throws {
        encoder.node.makeKeyed()
        for (key, value) in self {
            try encoder.nested(encoder.node.child(forKey: key), key: ParameterCodingKey(stringValue: key)).encodeValue(value)
        }
    }

    func streamEntries(to encoder: JSONStreamingEncoder) throws {
        let id = try encoder.openContainer(isObject: true)
        for (key, value) in self {
            let codingKey = ParameterCodingKey(stringValue: key)
            guard try encoder.beginValue(inObject: id, key: key) else {
                // An entry's model took a turn the text cannot follow: the tree takes the rest.
                let tree = encoder.treeEncoder(value: id, codingPath: encoder.codingPath)
                try tree.nested(tree.node.child(forKey: key), key: codingKey).encodeValue(value)
                continue
            }
            try encoder.encodeValue(value, at: codingKey)
        }
    }
}
