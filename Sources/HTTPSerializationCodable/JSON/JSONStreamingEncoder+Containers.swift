#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import HTTPSerializationCore

extension JSONStreamingEncoder: Encoder {
    var userInfo: [CodingUserInfoKey: Any] { options.userInfo.mapValues { $0 as Any } }

    func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
        guard let id = containerForCurrentValue(isObject: true) else { return currentTreeEncoder().container(keyedBy: type) }
        return KeyedEncodingContainer(JSONStreamingKeyedContainer<Key>(encoder: self, id: id, codingPath: codingPath))
    }

    func unkeyedContainer() -> any UnkeyedEncodingContainer {
        guard let id = containerForCurrentValue(isObject: false) else { return currentTreeEncoder().unkeyedContainer() }
        return JSONStreamingUnkeyedContainer(encoder: self, id: id, codingPath: codingPath)
    }

    func singleValueContainer() -> any SingleValueEncodingContainer {
        guard streams else { return currentTreeEncoder().singleValueContainer() }
        return JSONStreamingSingleValueContainer(encoder: self, value: currentValue, codingPath: codingPath)
    }
}

/// A streamed object; once the tree takes over, each call goes to the tree's keyed container.
private struct JSONStreamingKeyedContainer<Key: CodingKey>: KeyedEncodingContainerProtocol {
    let encoder: JSONStreamingEncoder
    let id: Int
    let codingPath: [any CodingKey]

    /// Begins the value for `key` in the text; false when the tree takes it.
    private func begin(_ key: Key) throws -> Bool {
        try encoder.beginValue(inObject: id, key: encoder.writtenKey(key))
    }

    private var tree: KeyedContainer<Key> { KeyedContainer(encoder: encoder.treeEncoder(value: id, codingPath: codingPath)) }

    mutating func encodeNil(forKey key: Key) throws {
        guard try begin(key) else { var tree = tree; return try tree.encodeNil(forKey: key) }
        try encoder.write(.null)
    }
    mutating func encode(_ value: Bool, forKey key: Key) throws {
        guard try begin(key) else { var tree = tree; return try tree.encode(value, forKey: key) }
        try encoder.write(.bool(value))
    }
    mutating func encode(_ value: String, forKey key: Key) throws {
        guard try begin(key) else { var tree = tree; return try tree.encode(value, forKey: key) }
        try encoder.write(string: value)
    }
    mutating func encode(_ value: Double, forKey key: Key) throws {
        guard try begin(key) else { var tree = tree; return try tree.encode(value, forKey: key) }
        try encoder.with(key) { try encoder.write(value) }
    }
    mutating func encode(_ value: Float, forKey key: Key) throws {
        guard try begin(key) else { var tree = tree; return try tree.encode(value, forKey: key) }
        try encoder.with(key) { try encoder.write(value) }
    }
    mutating func encode(_ value: Int, forKey key: Key) throws { try encodeInteger(value, forKey: key) }
    mutating func encode(_ value: Int8, forKey key: Key) throws { try encodeInteger(value, forKey: key) }
    mutating func encode(_ value: Int16, forKey key: Key) throws { try encodeInteger(value, forKey: key) }
    mutating func encode(_ value: Int32, forKey key: Key) throws { try encodeInteger(value, forKey: key) }
    mutating func encode(_ value: Int64, forKey key: Key) throws { try encodeInteger(value, forKey: key) }
    mutating func encode(_ value: UInt, forKey key: Key) throws { try encodeInteger(value, forKey: key) }
    mutating func encode(_ value: UInt8, forKey key: Key) throws { try encodeInteger(value, forKey: key) }
    mutating func encode(_ value: UInt16, forKey key: Key) throws { try encodeInteger(value, forKey: key) }
    mutating func encode(_ value: UInt32, forKey key: Key) throws { try encodeInteger(value, forKey: key) }
    mutating func encode(_ value: UInt64, forKey key: Key) throws { try encodeInteger(value, forKey: key) }

    @inline(__always)
    private mutating func encodeInteger<Integer: FixedWidthInteger & Encodable>(_ value: Integer, forKey key: Key) throws {
        guard try begin(key) else { var tree = tree; return try tree.encode(value, forKey: key) }
        try encoder.write(ParameterValue(integer: value))
    }

    mutating func encode<T: Encodable>(_ value: T, forKey key: Key) throws {
        guard try begin(key) else { var tree = tree; return try tree.encode(value, forKey: key) }
        try encoder.encodeValue(value, at: key)
    }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type, forKey key: Key) -> KeyedEncodingContainer<NestedKey> {
        guard let id = encoder.nestedContainer(isObject: true, begin: { try begin(key) }) else {
            var tree = tree
            return tree.nestedContainer(keyedBy: keyType, forKey: key)
        }
        return KeyedEncodingContainer(JSONStreamingKeyedContainer<NestedKey>(encoder: encoder, id: id, codingPath: codingPath + [key]))
    }

    mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
        guard let id = encoder.nestedContainer(isObject: false, begin: { try begin(key) }) else {
            var tree = tree
            return tree.nestedUnkeyedContainer(forKey: key)
        }
        return JSONStreamingUnkeyedContainer(encoder: encoder, id: id, codingPath: codingPath + [key])
    }

    // A super encoder may be written to at any later time: the tree takes it.
    mutating func superEncoder() -> any Encoder {
        encoder.switchToTree()
        var tree = tree
        return tree.superEncoder()
    }

    mutating func superEncoder(forKey key: Key) -> any Encoder {
        encoder.switchToTree()
        var tree = tree
        return tree.superEncoder(forKey: key)
    }
}

/// A streamed array; once the tree takes over, each call goes to the tree's unkeyed container.
private struct JSONStreamingUnkeyedContainer: UnkeyedEncodingContainer {
    let encoder: JSONStreamingEncoder
    let id: Int
    let codingPath: [any CodingKey]
    var count: Int { encoder.streams ? encoder.elementCount(ofArray: id) : tree.count }

    private func begin() throws -> Bool { try encoder.beginValue(inArray: id) }
    private var tree: UnkeyedContainer { UnkeyedContainer(encoder: encoder.treeEncoder(value: id, codingPath: codingPath)) }
    private var indexKey: JSONIndexCodingKey { JSONIndexCodingKey(count) }

    mutating func encodeNil() throws {
        guard try begin() else { var tree = tree; return try tree.encodeNil() }
        try encoder.write(.null)
    }
    mutating func encode(_ value: Bool) throws {
        guard try begin() else { var tree = tree; return try tree.encode(value) }
        try encoder.write(.bool(value))
    }
    mutating func encode(_ value: String) throws {
        guard try begin() else { var tree = tree; return try tree.encode(value) }
        try encoder.write(string: value)
    }
    mutating func encode(_ value: Double) throws {
        let key = indexKey
        guard try begin() else { var tree = tree; return try tree.encode(value) }
        try encoder.with(key) { try encoder.write(value) }
    }
    mutating func encode(_ value: Float) throws {
        let key = indexKey
        guard try begin() else { var tree = tree; return try tree.encode(value) }
        try encoder.with(key) { try encoder.write(value) }
    }
    mutating func encode(_ value: Int) throws { try encodeInteger(value) }
    mutating func encode(_ value: Int8) throws { try encodeInteger(value) }
    mutating func encode(_ value: Int16) throws { try encodeInteger(value) }
    mutating func encode(_ value: Int32) throws { try encodeInteger(value) }
    mutating func encode(_ value: Int64) throws { try encodeInteger(value) }
    mutating func encode(_ value: UInt) throws { try encodeInteger(value) }
    mutating func encode(_ value: UInt8) throws { try encodeInteger(value) }
    mutating func encode(_ value: UInt16) throws { try encodeInteger(value) }
    mutating func encode(_ value: UInt32) throws { try encodeInteger(value) }
    mutating func encode(_ value: UInt64) throws { try encodeInteger(value) }

    @inline(__always)
    private mutating func encodeInteger<Integer: FixedWidthInteger & Encodable>(_ value: Integer) throws {
        guard try begin() else { var tree = tree; return try tree.encode(value) }
        try encoder.write(ParameterValue(integer: value))
    }

    mutating func encode<T: Encodable>(_ value: T) throws {
        // Arrays of strings, integers and booleans (`Array.encode(to:)` comes here for each
        // element) take the direct paths, which put nothing on the coding path.
        if T.self == String.self { return try encode(unsafeBitCast(value, to: String.self)) }
        if T.self == Int.self { return try encode(unsafeBitCast(value, to: Int.self)) }
        if T.self == Bool.self { return try encode(unsafeBitCast(value, to: Bool.self)) }
        let key = indexKey
        guard try begin() else { var tree = tree; return try tree.encode(value) }
        try encoder.encodeValue(value, at: key)
    }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type) -> KeyedEncodingContainer<NestedKey> {
        let key = indexKey
        guard let id = encoder.nestedContainer(isObject: true, begin: begin) else {
            var tree = tree
            return tree.nestedContainer(keyedBy: keyType)
        }
        return KeyedEncodingContainer(JSONStreamingKeyedContainer<NestedKey>(encoder: encoder, id: id, codingPath: codingPath + [key]))
    }

    mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer {
        let key = indexKey
        guard let id = encoder.nestedContainer(isObject: false, begin: begin) else {
            var tree = tree
            return tree.nestedUnkeyedContainer()
        }
        return JSONStreamingUnkeyedContainer(encoder: encoder, id: id, codingPath: codingPath + [key])
    }

    mutating func superEncoder() -> any Encoder {
        encoder.switchToTree()
        var tree = tree
        return tree.superEncoder()
    }
}

/// A streamed single value; once the tree takes over, it writes to value `value`'s node.
private struct JSONStreamingSingleValueContainer: SingleValueEncodingContainer {
    let encoder: JSONStreamingEncoder
    /// The number of the value this container belongs to.
    let value: Int
    let codingPath: [any CodingKey]

    private var tree: SingleValueContainer { SingleValueContainer(encoder: encoder.treeEncoder(value: value, codingPath: codingPath)) }

    mutating func encodeNil() throws {
        guard encoder.beginSingleValue() else { var tree = tree; return try tree.encodeNil() }
        try encoder.write(.null)
    }
    mutating func encode(_ value: Bool) throws {
        guard encoder.beginSingleValue() else { var tree = tree; return try tree.encode(value) }
        try encoder.write(.bool(value))
    }
    mutating func encode(_ value: String) throws {
        guard encoder.beginSingleValue() else { var tree = tree; return try tree.encode(value) }
        try encoder.write(string: value)
    }
    mutating func encode(_ value: Double) throws {
        guard encoder.beginSingleValue() else { var tree = tree; return try tree.encode(value) }
        try encoder.write(value)
    }
    mutating func encode(_ value: Float) throws {
        guard encoder.beginSingleValue() else { var tree = tree; return try tree.encode(value) }
        try encoder.write(value)
    }
    mutating func encode(_ value: Int) throws { try encodeInteger(value) }
    mutating func encode(_ value: Int8) throws { try encodeInteger(value) }
    mutating func encode(_ value: Int16) throws { try encodeInteger(value) }
    mutating func encode(_ value: Int32) throws { try encodeInteger(value) }
    mutating func encode(_ value: Int64) throws { try encodeInteger(value) }
    mutating func encode(_ value: UInt) throws { try encodeInteger(value) }
    mutating func encode(_ value: UInt8) throws { try encodeInteger(value) }
    mutating func encode(_ value: UInt16) throws { try encodeInteger(value) }
    mutating func encode(_ value: UInt32) throws { try encodeInteger(value) }
    mutating func encode(_ value: UInt64) throws { try encodeInteger(value) }

    @inline(__always)
    private mutating func encodeInteger<Integer: FixedWidthInteger & Encodable>(_ value: Integer) throws {
        guard encoder.beginSingleValue() else { var tree = tree; return try tree.encode(value) }
        try encoder.write(ParameterValue(integer: value))
    }

    mutating func encode<T: Encodable>(_ value: T) throws {
        guard encoder.beginSingleValue() else { var tree = tree; return try tree.encode(value) }
        try encoder.encodeValue(value)
    }
}
