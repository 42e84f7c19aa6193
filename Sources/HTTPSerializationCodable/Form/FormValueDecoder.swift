#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import HTTPSerializationCore

/// The form being read and the decoder's settings, shared by reference: every container
/// holds one, and copying a reference costs one retain where copying the tree's tables and
/// the settings costs one each.
final class FormDecodingContext: Sendable {
    let tree: FormTree
    let options: FormDecoder
    init(_ tree: FormTree, _ options: FormDecoder) {
        self.tree = tree
        self.options = options
    }

    /// The node of a field the form does not have.
    static let absent = -1

    /// The node at `index`, `.empty` for ``absent``.
    func node(_ index: Int) -> FormTree.Node {
        index < 0 ? .empty : tree.nodes[index]
    }

    /// A node's children by key, for a keyed container; a list by index is keyed by each
    /// index's text, so `a[9]=x` decodes as `[Int: String]`.
    func entries(of node: Int) -> [String: Int]? {
        switch self.node(node) {
        case .dictionary(let table): return tree.dictionaries[table]
        case .indexed(let table): return tree.textKeys(ofIndexed: table)
        case .empty, .leaf(.value(.null)): return [:]
        default: return nil
        }
    }

    /// What a node is, for errors.
    func kind(of node: Int) -> String {
        switch self.node(node) {
        case .empty, .leaf(.value(.null)): return "nothing"
        case .leaf(.file): return "a file"
        case .leaf: return "text"
        case .array, .indexed: return "a list"
        case .dictionary: return "keyed values"
        }
    }
}

/// The `Decoder` over a form's values: text becomes what the model asks for.
struct FormValueDecoder: Decoder {
    let node: Int
    let path: FormCodingPath
    let context: FormDecodingContext
    var codingPath: [any CodingKey] { path.keys }
    var userInfo: [CodingUserInfoKey: Any] { context.options.userInfo }

    func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
        // An empty node is a model whose every field is optional, sent with none of them.
        guard var entries = context.entries(of: node) else {
            throw DecodingError.typeMismatch([String: Any].self, .init(codingPath: codingPath, debugDescription: "Expected keyed values, found \(context.kind(of: node))."))
        }
        if case .convertFromSnakeCase = context.options.keyDecoding {
            entries = Dictionary(entries.map { (JSONKeyConversion.camelCase(fromSnakeCase: $0.key), $0.value) }, uniquingKeysWith: { first, _ in first })
        }
        return KeyedDecodingContainer(FormKeyedContainer<Key>(entries: entries, path: path, context: context))
    }

    func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
        let tree = context.tree
        switch context.node(node) {
        case .array(let table):
            return FormUnkeyedContainer(elements: tree.arrays[table], path: path, context: context)
        case .indexed(let table):
            return FormUnkeyedContainer(elements: tree.indexedArrays[table].sorted { $0.key < $1.key }.map(\.value), path: path, context: context)
        case .empty, .leaf(.value(.null)):
            return FormUnkeyedContainer(elements: [], path: path, context: context)
        case .dictionary(let table) where !tree.dictionaries[table].isEmpty && tree.dictionaries[table].keys.allSatisfy({ Int($0) != nil }):
            // `a[0]=x&a[1]=y` written with bracketed keys: a list by index.
            let ordered = tree.dictionaries[table].compactMap { entry in Int(entry.key).map { ($0, entry.value) } }.sorted { $0.0 < $1.0 }
            return FormUnkeyedContainer(elements: ordered.map(\.1), path: path, context: context)
        default:
            // One value where a list is wanted: a repeated key sent once.
            return FormUnkeyedContainer(elements: [node], path: path, context: context)
        }
    }

    func singleValueContainer() throws -> any SingleValueDecodingContainer {
        FormSingleValueContainer(node: node, parent: path, step: .none, context: context)
    }
}

/// Keyed values. The scalar overloads read a field's text in place, without a nested decoder.
struct FormKeyedContainer<Key: CodingKey>: KeyedDecodingContainerProtocol {
    let entries: [String: Int]
    let path: FormCodingPath
    let context: FormDecodingContext

    var codingPath: [any CodingKey] { path.keys }
    var allKeys: [Key] { entries.keys.compactMap(Key.init(stringValue:)) }

    func contains(_ key: Key) -> Bool { entries[key.stringValue] != nil }

    private func field(_ key: Key) throws -> FormSingleValueContainer {
        guard let node = entries[key.stringValue] else {
            if context.options.absentFieldsAreEmpty {
                return FormSingleValueContainer(node: FormDecodingContext.absent, parent: path, step: .key(key), context: context)
            }
            throw DecodingError.keyNotFound(key, .init(codingPath: codingPath, debugDescription: "The form has no field \"\(key.stringValue)\"."))
        }
        return FormSingleValueContainer(node: node, parent: path, step: .key(key), context: context)
    }

    func decodeNil(forKey key: Key) throws -> Bool {
        guard let node = entries[key.stringValue] else { return true }
        return FormSingleValueContainer(node: node, parent: path, step: .key(key), context: context).decodeNil()
    }

    func decode(_ type: Bool.Type, forKey key: Key) throws -> Bool {
        if context.options.boolFlags {
            guard let node = entries[key.stringValue] else { return false }
            switch context.node(node) {
            case .leaf(.value(.null)), .leaf(.value(.string(""))): return true
            default: break
            }
        }
        return try field(key).decode(type)
    }
    func decode(_ type: String.Type, forKey key: Key) throws -> String { try field(key).decode(type) }
    func decode(_ type: Double.Type, forKey key: Key) throws -> Double { try field(key).decode(type) }
    func decode(_ type: Float.Type, forKey key: Key) throws -> Float { try field(key).decode(type) }
    func decode(_ type: Int.Type, forKey key: Key) throws -> Int { try field(key).decode(type) }
    func decode(_ type: Int8.Type, forKey key: Key) throws -> Int8 { try field(key).decode(type) }
    func decode(_ type: Int16.Type, forKey key: Key) throws -> Int16 { try field(key).decode(type) }
    func decode(_ type: Int32.Type, forKey key: Key) throws -> Int32 { try field(key).decode(type) }
    func decode(_ type: Int64.Type, forKey key: Key) throws -> Int64 { try field(key).decode(type) }
    func decode(_ type: UInt.Type, forKey key: Key) throws -> UInt { try field(key).decode(type) }
    func decode(_ type: UInt8.Type, forKey key: Key) throws -> UInt8 { try field(key).decode(type) }
    func decode(_ type: UInt16.Type, forKey key: Key) throws -> UInt16 { try field(key).decode(type) }
    func decode(_ type: UInt32.Type, forKey key: Key) throws -> UInt32 { try field(key).decode(type) }
    func decode(_ type: UInt64.Type, forKey key: Key) throws -> UInt64 { try field(key).decode(type) }

    func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T {
        try field(key).decode(type)
    }

    private func nested(_ key: Key) throws -> FormValueDecoder {
        try field(key).decoder
    }

    func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type, forKey key: Key) throws -> KeyedDecodingContainer<NestedKey> {
        try nested(key).container(keyedBy: type)
    }

    func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer {
        try nested(key).unkeyedContainer()
    }

    func superDecoder() throws -> any Decoder {
        FormValueDecoder(node: entries["super"] ?? FormDecodingContext.absent, path: path, context: context)
    }

    func superDecoder(forKey key: Key) throws -> any Decoder {
        FormValueDecoder(node: entries[key.stringValue] ?? FormDecodingContext.absent, path: .key(key, parent: path), context: context)
    }
}

/// A list's values, read in order.
struct FormUnkeyedContainer: UnkeyedDecodingContainer {
    let elements: [Int]
    let path: FormCodingPath
    let context: FormDecodingContext
    private(set) var currentIndex = 0

    init(elements: [Int], path: FormCodingPath, context: FormDecodingContext) {
        self.elements = elements
        self.path = path
        self.context = context
    }

    var codingPath: [any CodingKey] { path.keys }
    var count: Int? { elements.count }
    var isAtEnd: Bool { currentIndex >= elements.count }

    private mutating func next() throws -> FormSingleValueContainer {
        guard !isAtEnd else {
            throw DecodingError.valueNotFound(Any.self, .init(codingPath: codingPath, debugDescription: "The list has no more elements."))
        }
        defer { currentIndex += 1 }
        return FormSingleValueContainer(node: elements[currentIndex], parent: path, step: .index(currentIndex), context: context)
    }

    mutating func decodeNil() throws -> Bool {
        guard !isAtEnd, FormSingleValueContainer(node: elements[currentIndex], parent: path, step: .none, context: context).decodeNil() else { return false }
        currentIndex += 1
        return true
    }

    mutating func decode(_ type: Bool.Type) throws -> Bool { try next().decode(type) }
    mutating func decode(_ type: String.Type) throws -> String { try next().decode(type) }
    mutating func decode(_ type: Double.Type) throws -> Double { try next().decode(type) }
    mutating func decode(_ type: Float.Type) throws -> Float { try next().decode(type) }
    mutating func decode(_ type: Int.Type) throws -> Int { try next().decode(type) }
    mutating func decode(_ type: Int8.Type) throws -> Int8 { try next().decode(type) }
    mutating func decode(_ type: Int16.Type) throws -> Int16 { try next().decode(type) }
    mutating func decode(_ type: Int32.Type) throws -> Int32 { try next().decode(type) }
    mutating func decode(_ type: Int64.Type) throws -> Int64 { try next().decode(type) }
    mutating func decode(_ type: UInt.Type) throws -> UInt { try next().decode(type) }
    mutating func decode(_ type: UInt8.Type) throws -> UInt8 { try next().decode(type) }
    mutating func decode(_ type: UInt16.Type) throws -> UInt16 { try next().decode(type) }
    mutating func decode(_ type: UInt32.Type) throws -> UInt32 { try next().decode(type) }
    mutating func decode(_ type: UInt64.Type) throws -> UInt64 { try next().decode(type) }

    mutating func decode<T: Decodable>(_ type: T.Type) throws -> T {
        try next().decode(type)
    }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type) throws -> KeyedDecodingContainer<NestedKey> {
        try next().decoder.container(keyedBy: type)
    }

    mutating func nestedUnkeyedContainer() throws -> any UnkeyedDecodingContainer {
        try next().decoder.unkeyedContainer()
    }

    mutating func superDecoder() throws -> any Decoder {
        try next().decoder
    }
}
