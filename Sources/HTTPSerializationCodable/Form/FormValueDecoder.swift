#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import HTTPSerializationCore

/// The `Decoder` over a form's values: text becomes what the model asks for.
struct FormValueDecoder: Decoder {
    let node: FormDecodingNode
    let codingPath: [any CodingKey]
    let options: FormDecoder
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
        switch node {
        case .keyed(let entries):
            var converted = entries
            if case .convertFromSnakeCase = options.keyDecoding {
                converted = Dictionary(entries.map { (JSONKeyConversion.camelCase(fromSnakeCase: $0.key), $0.value) }, uniquingKeysWith: { first, _ in first })
            }
            return KeyedDecodingContainer(FormKeyedContainer<Key>(entries: converted, codingPath: codingPath, options: options))
        case .null:
            // A model whose every field is optional, sent with none of them.
            return KeyedDecodingContainer(FormKeyedContainer<Key>(entries: [:], codingPath: codingPath, options: options))
        default:
            throw DecodingError.typeMismatch([String: Any].self, .init(codingPath: codingPath, debugDescription: "Expected keyed values, found \(node.kind)."))
        }
    }

    func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
        switch node {
        case .list(let elements): return FormUnkeyedContainer(elements: elements, codingPath: codingPath, options: options)
        case .null: return FormUnkeyedContainer(elements: [], codingPath: codingPath, options: options)
        case .keyed(let entries) where !entries.isEmpty && entries.keys.allSatisfy({ Int($0) != nil }):
            // `a[0]=x&a[1]=y` written with bracketed keys: a list by index.
            return FormUnkeyedContainer(elements: entries.sorted { Int($0.key)! < Int($1.key)! }.map(\.value), codingPath: codingPath, options: options)
        default:
            // One value where a list is wanted: a repeated key sent once.
            return FormUnkeyedContainer(elements: [node], codingPath: codingPath, options: options)
        }
    }

    func singleValueContainer() throws -> any SingleValueDecodingContainer {
        FormSingleValueContainer(node: node, codingPath: codingPath, options: options)
    }
}

extension FormDecodingNode {
    var kind: String {
        switch self {
        case .text: return "text"
        case .null: return "nothing"
        case .list: return "a list"
        case .keyed: return "keyed values"
        case .file: return "a file"
        }
    }
}

struct FormKeyedContainer<Key: CodingKey>: KeyedDecodingContainerProtocol {
    let entries: [String: FormDecodingNode]
    let codingPath: [any CodingKey]
    let options: FormDecoder

    var allKeys: [Key] { entries.keys.compactMap(Key.init(stringValue:)) }

    func contains(_ key: Key) -> Bool { entries[key.stringValue] != nil }

    private func node(_ key: Key) throws -> FormDecodingNode {
        guard let node = entries[key.stringValue] else {
            throw DecodingError.keyNotFound(key, .init(codingPath: codingPath, debugDescription: "The form has no field \"\(key.stringValue)\"."))
        }
        return node
    }

    func decodeNil(forKey key: Key) throws -> Bool {
        guard let node = entries[key.stringValue] else { return true }
        if case .null = node { return true }
        return false
    }

    func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T {
        try FormSingleValueContainer(node: node(key), codingPath: codingPath + [key], options: options).decode(type)
    }

    func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type, forKey key: Key) throws -> KeyedDecodingContainer<NestedKey> {
        try FormValueDecoder(node: node(key), codingPath: codingPath + [key], options: options).container(keyedBy: type)
    }

    func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer {
        try FormValueDecoder(node: node(key), codingPath: codingPath + [key], options: options).unkeyedContainer()
    }

    func superDecoder() throws -> any Decoder {
        FormValueDecoder(node: entries["super"] ?? .null, codingPath: codingPath, options: options)
    }

    func superDecoder(forKey key: Key) throws -> any Decoder {
        FormValueDecoder(node: entries[key.stringValue] ?? .null, codingPath: codingPath + [key], options: options)
    }
}

struct FormUnkeyedContainer: UnkeyedDecodingContainer {
    let elements: [FormDecodingNode]
    let codingPath: [any CodingKey]
    let options: FormDecoder
    private(set) var currentIndex = 0

    init(elements: [FormDecodingNode], codingPath: [any CodingKey], options: FormDecoder) {
        self.elements = elements
        self.codingPath = codingPath
        self.options = options
    }

    var count: Int? { elements.count }
    var isAtEnd: Bool { currentIndex >= elements.count }

    private struct IndexKey: CodingKey {
        var stringValue: String { String(intValue!) }
        var intValue: Int?
        init(_ index: Int) { intValue = index }
        init?(stringValue: String) { nil }
        init?(intValue: Int) { self.intValue = intValue }
    }

    private mutating func next() throws -> (FormDecodingNode, [any CodingKey]) {
        guard !isAtEnd else {
            throw DecodingError.valueNotFound(Any.self, .init(codingPath: codingPath, debugDescription: "The list has no more elements."))
        }
        defer { currentIndex += 1 }
        return (elements[currentIndex], codingPath + [IndexKey(currentIndex)])
    }

    mutating func decodeNil() throws -> Bool {
        guard !isAtEnd, case .null = elements[currentIndex] else { return false }
        currentIndex += 1
        return true
    }

    mutating func decode<T: Decodable>(_ type: T.Type) throws -> T {
        let (node, path) = try next()
        return try FormSingleValueContainer(node: node, codingPath: path, options: options).decode(type)
    }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type) throws -> KeyedDecodingContainer<NestedKey> {
        let (node, path) = try next()
        return try FormValueDecoder(node: node, codingPath: path, options: options).container(keyedBy: type)
    }

    mutating func nestedUnkeyedContainer() throws -> any UnkeyedDecodingContainer {
        let (node, path) = try next()
        return try FormValueDecoder(node: node, codingPath: path, options: options).unkeyedContainer()
    }

    mutating func superDecoder() throws -> any Decoder {
        let (node, path) = try next()
        return FormValueDecoder(node: node, codingPath: path, options: options)
    }
}

struct FormSingleValueContainer: SingleValueDecodingContainer {
    let node: FormDecodingNode
    let codingPath: [any CodingKey]
    let options: FormDecoder

    func decodeNil() -> Bool {
        if case .null = node { return true }
        return false
    }

    private func text(_ type: Any.Type) throws -> String {
        switch node {
        case .text(let text): return text
        // A one-element list (a key sent as `a[]=x` or twice) where one value is wanted.
        case .list(let elements) where elements.count == 1:
            return try FormSingleValueContainer(node: elements[0], codingPath: codingPath, options: options).text(type)
        case .null:
            throw DecodingError.valueNotFound(type, .init(codingPath: codingPath, debugDescription: "The field has no value."))
        default:
            throw DecodingError.typeMismatch(type, .init(codingPath: codingPath, debugDescription: "Expected text, found \(node.kind)."))
        }
    }

    private func mismatch<T>(_ type: T.Type, _ text: String) -> DecodingError {
        .dataCorrupted(.init(codingPath: codingPath, debugDescription: "\"\(text.prefix(80))\" is not a valid \(type)."))
    }

    func decode(_ type: Bool.Type) throws -> Bool {
        let value = try text(type)
        switch value.lowercased() {
        case "true", "1", "on", "yes": return true
        case "false", "0", "off", "no": return false
        default: throw mismatch(type, value)
        }
    }

    func decode(_ type: String.Type) throws -> String { try text(type) }

    func decode(_ type: Double.Type) throws -> Double { try number(type) }
    func decode(_ type: Float.Type) throws -> Float { try number(type) }
    func decode(_ type: Int.Type) throws -> Int { try number(type) }
    func decode(_ type: Int8.Type) throws -> Int8 { try number(type) }
    func decode(_ type: Int16.Type) throws -> Int16 { try number(type) }
    func decode(_ type: Int32.Type) throws -> Int32 { try number(type) }
    func decode(_ type: Int64.Type) throws -> Int64 { try number(type) }
    func decode(_ type: UInt.Type) throws -> UInt { try number(type) }
    func decode(_ type: UInt8.Type) throws -> UInt8 { try number(type) }
    func decode(_ type: UInt16.Type) throws -> UInt16 { try number(type) }
    func decode(_ type: UInt32.Type) throws -> UInt32 { try number(type) }
    func decode(_ type: UInt64.Type) throws -> UInt64 { try number(type) }

    private func number<T: LosslessStringConvertible>(_ type: T.Type) throws -> T {
        let value = try text(type)
        guard let number = T(value) else { throw mismatch(type, value) }
        return number
    }

    func decode<T: Decodable>(_ type: T.Type) throws -> T {
        // The types whose form text is not their Codable form: read here, as JSONDecoder does.
        let special: Any?
        switch type {
        case is MultipartFile.Type:
            guard case .file(let file) = node else {
                throw DecodingError.typeMismatch(type, .init(codingPath: codingPath, debugDescription: "Expected a file part, found \(node.kind)."))
            }
            special = file
        case is Date.Type:
            special = try date()
        case is Data.Type:
            let value = try text(type)
            guard let data = Data(base64Encoded: value) else { throw mismatch(type, value) }
            special = data
        case is URL.Type:
            let value = try text(type)
            guard let url = URL(string: value) else { throw mismatch(type, value) }
            special = url
        case is Decimal.Type:
            let value = try text(type)
            guard let decimal = Decimal(string: value) else { throw mismatch(type, value) }
            special = decimal
        default:
            special = nil
        }
        if let value = special as? T { return value }
        return try T(from: FormValueDecoder(node: node, codingPath: codingPath, options: options))
    }

    private func date() throws -> Date {
        let value = try text(Date.self)
        let date: Date?
        switch options.dateDecoding {
        case .foundationDescription:
            date = Self.dateFromDescription(value)
        case .secondsSince1970:
            date = Double(value).map(Date.init(timeIntervalSince1970:))
        case .millisecondsSince1970:
            date = Double(value).map { Date(timeIntervalSince1970: $0 / 1000) }
        case .iso8601:
            date = ISO8601Timestamp.parseInternetDateTime(value)
                ?? (try? Date.ISO8601FormatStyle(includingFractionalSeconds: true).parse(value))
                ?? (try? Date.ISO8601FormatStyle().parse(value))
        case .custom(let read):
            date = try read(value)
        }
        guard let date else { throw mismatch(Date.self, value) }
        return date
    }

    /// `YYYY-MM-DD HH:MM:SS +0000`, the only offset `Date.description` writes.
    private static func dateFromDescription(_ text: String) -> Date? {
        guard text.utf8.count == 25, text.hasSuffix(" +0000") else { return nil }
        let utf8 = Array(text.utf8)
        guard utf8[10] == UInt8(ascii: " ") else { return nil }
        var iso = utf8[0..<19]
        iso[10] = UInt8(ascii: "T")
        return ISO8601Timestamp.parseInternetDateTime(String(decoding: iso, as: UTF8.self) + "Z")
    }
}
