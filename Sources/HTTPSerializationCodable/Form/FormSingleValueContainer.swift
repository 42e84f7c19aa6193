#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import HTTPSerializationCore

/// One form value: its text read as the scalar a model asks for, or handed to the model's
/// own `init(from:)` through a nested decoder.
struct FormSingleValueContainer: SingleValueDecodingContainer {
    let node: Int
    /// Where the value sits: its parent's path and its own key or index, joined only when
    /// needed (see ``FormCodingPath``).
    let parent: FormCodingPath
    let step: FormCodingStep
    let context: FormDecodingContext

    var codingPath: [any CodingKey] { step.path(from: parent).keys }

    /// A decoder for the model's own `init(from:)`.
    var decoder: FormValueDecoder {
        FormValueDecoder(node: node, path: step.path(from: parent), context: context)
    }

    func decodeNil() -> Bool {
        switch context.node(node) {
        case .empty, .leaf(.value(.null)): return true
        default: return false
        }
    }

    private func text(_ type: Any.Type) throws -> String {
        switch context.node(node) {
        case .leaf(.value(let value)):
            if let text = Self.text(of: value) { return text }
            throw DecodingError.valueNotFound(type, .init(codingPath: codingPath, debugDescription: "The field has no value."))
        // A one-element list (a key sent as `a[]=x` or twice) where one value is wanted.
        case .array(let table) where context.tree.arrays[table].count == 1:
            return try FormSingleValueContainer(node: context.tree.arrays[table][0], parent: parent, step: step, context: context).text(type)
        case .indexed(let table) where context.tree.indexedArrays[table].count == 1:
            let only = context.tree.indexedArrays[table].first?.value ?? FormDecodingContext.absent
            return try FormSingleValueContainer(node: only, parent: parent, step: step, context: context).text(type)
        case .empty:
            throw DecodingError.valueNotFound(type, .init(codingPath: codingPath, debugDescription: "The field has no value."))
        default:
            throw DecodingError.typeMismatch(type, .init(codingPath: codingPath, debugDescription: "Expected text, found \(context.kind(of: node))."))
        }
    }

    /// A value's form text: what was sent, or for a tree built by hand, its scalar written as
    /// the query writer writes it.
    private static func text(of value: ParameterValue) -> String? {
        switch value {
        case .string(let text): return text
        case .null, .array, .set, .dictionary: return nil
        case .int(let value): return String(value)
        case .double(let value): return String(value)
        case .decimal(let value): return value.description
        case .bool(let value): return value ? "true" : "false"
        case .date(let date): return String(date.timeIntervalSince1970)
        case .data(let data): return data.base64EncodedString()
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
        try parsed(type) { T($0) }
    }

    /// The field's text read by `read`; text it refuses is a `dataCorrupted` error.
    private func parsed<T>(_ type: T.Type, _ read: (String) -> T?) throws -> T {
        let value = try text(type)
        guard let parsed = read(value) else { throw mismatch(type, value) }
        return parsed
    }

    func decode<T: Decodable>(_ type: T.Type) throws -> T {
        // Scalars met through a generic call (an Array's or a Dictionary's elements) are read
        // here, not through a nested decoder; then the types whose form text is not their
        // Codable form, as JSONDecoder reads them.
        let special: Any?
        switch type {
        case is String.Type: special = try text(type)
        case is Int.Type: special = try number(Int.self)
        case is Double.Type: special = try number(Double.self)
        case is Bool.Type: special = try decode(Bool.self)
        case is MultipartFile.Type:
            guard case .leaf(.file(let file)) = context.node(node) else {
                throw DecodingError.typeMismatch(type, .init(codingPath: codingPath, debugDescription: "Expected a file part, found \(context.kind(of: node))."))
            }
            special = file
        case is Date.Type:
            special = try date()
        case is Data.Type:
            // A file part's bytes (what MultipartFormEncoder makes of data), else base64 text.
            if case .leaf(.file(let file)) = context.node(node) {
                do { special = try file.data() } catch {
                    throw DecodingError.dataCorrupted(.init(codingPath: codingPath, debugDescription: "The file part could not be read.", underlyingError: error))
                }
            } else {
                special = try parsed(Data.self) { Data(base64Encoded: $0) }
            }
        case is URL.Type: special = try parsed(URL.self) { URL(string: $0) }
        case is Decimal.Type: special = try parsed(Decimal.self) { Decimal(string: $0) }
        default:
            special = nil
        }
        if let value = special as? T { return value }
        return try T(from: decoder)
    }

    private func date() throws -> Date {
        let value = try text(Date.self)
        let date: Date?
        switch context.options.dateDecoding {
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
