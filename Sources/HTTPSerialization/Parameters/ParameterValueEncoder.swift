import Foundation

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
    /// - Throws: ``HTTPSerializationError/nestingTooDeep(path:limit:)`` past `maximumDepth`
    ///   levels, ``HTTPSerializationError/invalidParameter(path:reason:)`` when nothing was
    ///   encoded, and any error the model's own `encode(to:)` throws, unchanged.
    public init(encoding value: some Encodable, maximumDepth: Int = ParameterValue.defaultMaximumDepth) throws {
        let root = EncodingNode()
        try ParameterEncoder(node: root, codingPath: [], maximumDepth: maximumDepth).encodeValue(value)
        guard let result = root.finish() else {
            throw HTTPSerializationError.invalidParameter(
                path: "", reason: "\(type(of: value)) did not encode any value")
        }
        self = result
    }
}

/// A slot that a container writes into; containers nest by reference so that a child
/// container can keep writing after its parent handed it out, as `Encoder` requires.
final class EncodingNode {
    private var value: ParameterValue?
    private var keyedChildren: [String: EncodingNode]?
    private var unkeyedChildren: [EncodingNode]?

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

    func child(forKey key: String) -> EncodingNode {
        if let existing = keyedChildren?[key] { return existing }
        let node = EncodingNode()
        if keyedChildren == nil { keyedChildren = [:] }
        keyedChildren![key] = node
        return node
    }

    func appendChild() -> EncodingNode {
        let node = EncodingNode()
        if unkeyedChildren == nil { unkeyedChildren = [] }
        unkeyedChildren!.append(node)
        return node
    }

    var unkeyedCount: Int { unkeyedChildren?.count ?? 0 }

    /// Builds the value without recursion, so model depth is bounded only by the encoder's limit.
    func finish() -> ParameterValue? {
        // Post-order walk: a container is built once all its children are.
        var results: [ObjectIdentifier: ParameterValue] = [:]
        var stack: [(node: EncodingNode, childrenDone: Bool)] = [(self, false)]
        while let (node, childrenDone) = stack.popLast() {
            if let keyed = node.keyedChildren {
                if childrenDone {
                    var dictionary: [String: ParameterValue] = [:]
                    dictionary.reserveCapacity(keyed.count)
                    for (key, child) in keyed {
                        if let value = results.removeValue(forKey: ObjectIdentifier(child)) { dictionary[key] = value }
                    }
                    results[ObjectIdentifier(node)] = .dictionary(dictionary)
                } else {
                    stack.append((node, true))
                    for child in keyed.values { stack.append((child, false)) }
                }
            } else if let unkeyed = node.unkeyedChildren {
                if childrenDone {
                    results[ObjectIdentifier(node)] = .array(unkeyed.compactMap { results.removeValue(forKey: ObjectIdentifier($0)) })
                } else {
                    stack.append((node, true))
                    for child in unkeyed { stack.append((child, false)) }
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
    var userInfo: [CodingUserInfoKey: Any] { [:] }

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
        ParameterEncoder(node: node, codingPath: codingPath + [key], maximumDepth: maximumDepth)
    }

    /// Encodes one value into this encoder's node, keeping Foundation's special types whole.
    /// Every write checks the depth, so a recursive model stops at the limit, not the stack.
    func encodeValue<T: Encodable>(_ value: T) throws {
        try checkDepth()
        switch value {
        case let value as ParameterValue: try set(value)
        case let value as Date: node.set(.date(value))
        case let value as Data: node.set(.data(value))
        case let value as URL: node.set(.string(value.absoluteString))
        case let value as Decimal: node.set(.decimal(value))
        default: try value.encode(to: self)
        }
    }

    func set(_ value: ParameterValue) throws {
        try checkDepth()
        if value.isContainer, codingPath.count + value.depth > maximumDepth {
            throw HTTPSerializationError.nestingTooDeep(path: Self.describe(codingPath), limit: maximumDepth)
        }
        node.set(value)
    }

    private func checkDepth() throws {
        guard codingPath.count <= maximumDepth else {
            throw HTTPSerializationError.nestingTooDeep(path: Self.describe(codingPath), limit: maximumDepth)
        }
    }

    static func describe(_ codingPath: [any CodingKey]) -> String {
        var path = ParameterPath()
        for key in codingPath {
            path = path.appending(key.intValue.map { .index($0) } ?? .key(key.stringValue))
        }
        return path.description
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

private struct KeyedContainer<Key: CodingKey>: KeyedEncodingContainerProtocol {
    let encoder: ParameterEncoder
    var codingPath: [any CodingKey] { encoder.codingPath }

    private func child(_ key: some CodingKey) -> ParameterEncoder {
        encoder.nested(encoder.node.child(forKey: key.stringValue), key: key)
    }

    mutating func encodeNil(forKey key: Key) throws { try child(key).set(.null) }
    mutating func encode(_ value: Bool, forKey key: Key) throws { try child(key).set(.bool(value)) }
    mutating func encode(_ value: String, forKey key: Key) throws { try child(key).set(.string(value)) }
    mutating func encode(_ value: Double, forKey key: Key) throws { try child(key).set(.double(value)) }
    mutating func encode(_ value: Float, forKey key: Key) throws { try child(key).set(.double(Double(value))) }
    mutating func encode(_ value: Int, forKey key: Key) throws { try child(key).set(.int(value)) }
    mutating func encode(_ value: Int8, forKey key: Key) throws { try child(key).set(.int(Int(value))) }
    mutating func encode(_ value: Int16, forKey key: Key) throws { try child(key).set(.int(Int(value))) }
    mutating func encode(_ value: Int32, forKey key: Key) throws { try child(key).set(.int(Int(value))) }
    mutating func encode(_ value: Int64, forKey key: Key) throws { try child(key).set(.int(Int(value))) }
    mutating func encode(_ value: UInt, forKey key: Key) throws { try child(key).set(ParameterValue(integer: value)) }
    mutating func encode(_ value: UInt8, forKey key: Key) throws { try child(key).set(.int(Int(value))) }
    mutating func encode(_ value: UInt16, forKey key: Key) throws { try child(key).set(.int(Int(value))) }
    mutating func encode(_ value: UInt32, forKey key: Key) throws { try child(key).set(.int(Int(value))) }
    mutating func encode(_ value: UInt64, forKey key: Key) throws { try child(key).set(ParameterValue(integer: value)) }
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

private struct UnkeyedContainer: UnkeyedEncodingContainer {
    let encoder: ParameterEncoder
    var codingPath: [any CodingKey] { encoder.codingPath }
    var count: Int { encoder.node.unkeyedCount }

    private func next() -> ParameterEncoder {
        let index = encoder.node.unkeyedCount
        return encoder.nested(encoder.node.appendChild(), key: ParameterCodingKey(intValue: index))
    }

    mutating func encodeNil() throws { try next().set(.null) }
    mutating func encode(_ value: Bool) throws { try next().set(.bool(value)) }
    mutating func encode(_ value: String) throws { try next().set(.string(value)) }
    mutating func encode(_ value: Double) throws { try next().set(.double(value)) }
    mutating func encode(_ value: Float) throws { try next().set(.double(Double(value))) }
    mutating func encode(_ value: Int) throws { try next().set(.int(value)) }
    mutating func encode(_ value: Int8) throws { try next().set(.int(Int(value))) }
    mutating func encode(_ value: Int16) throws { try next().set(.int(Int(value))) }
    mutating func encode(_ value: Int32) throws { try next().set(.int(Int(value))) }
    mutating func encode(_ value: Int64) throws { try next().set(.int(Int(value))) }
    mutating func encode(_ value: UInt) throws { try next().set(ParameterValue(integer: value)) }
    mutating func encode(_ value: UInt8) throws { try next().set(.int(Int(value))) }
    mutating func encode(_ value: UInt16) throws { try next().set(.int(Int(value))) }
    mutating func encode(_ value: UInt32) throws { try next().set(.int(Int(value))) }
    mutating func encode(_ value: UInt64) throws { try next().set(ParameterValue(integer: value)) }
    mutating func encode<T: Encodable>(_ value: T) throws { try next().encodeValue(value) }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type) -> KeyedEncodingContainer<NestedKey> {
        next().container(keyedBy: keyType)
    }

    mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer {
        next().unkeyedContainer()
    }

    mutating func superEncoder() -> any Encoder { next() }
}

private struct SingleValueContainer: SingleValueEncodingContainer {
    let encoder: ParameterEncoder
    var codingPath: [any CodingKey] { encoder.codingPath }

    mutating func encodeNil() throws { try encoder.set(.null) }
    mutating func encode(_ value: Bool) throws { try encoder.set(.bool(value)) }
    mutating func encode(_ value: String) throws { try encoder.set(.string(value)) }
    mutating func encode(_ value: Double) throws { try encoder.set(.double(value)) }
    mutating func encode(_ value: Float) throws { try encoder.set(.double(Double(value))) }
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
