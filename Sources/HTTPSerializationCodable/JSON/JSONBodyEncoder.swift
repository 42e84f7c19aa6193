#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import HTTPSerializationCore

/// Encodes `Encodable` values as JSON with the package's own writer.
///
/// For request bodies built from models: `JSONEncoder`'s options under the same names
/// (dates as numbers or ISO 8601, data as Base64, snake-case keys, non-conforming floats),
/// written as `JSONSerialization` lays text out.
///
/// ```swift
/// struct Order: Encodable { var orderID: Int; var placedAt: Date }
/// var encoder = JSONBodyEncoder()
/// encoder.keyEncodingStrategy = .convertToSnakeCase
/// encoder.dateEncodingStrategy = .iso8601
/// encoder.outputFormatting = .sortedKeys
/// let body = try encoder.encode(Order(orderID: 7, placedAt: Date(timeIntervalSince1970: 0)))
/// // {"order_id":7,"placed_at":"1970-01-01T00:00:00Z"}
/// ```
public struct JSONBodyEncoder: Sendable {
    /// How coding keys are spelled in the output.
    public enum KeyEncodingStrategy: Sendable {
        /// As the coding keys spell them.
        case useDefaultKeys
        /// `camelCase` becomes `snake_case` as `JSONEncoder` converts it: `orderID` → `order_id`,
        /// `myURLValue` → `my_url_value`. The keys of a `[String: T]` are left as they are.
        case convertToSnakeCase
        /// Your function maps the path to each key (its last element is the coding key) to the key written.
        case custom(@Sendable (_ codingPath: [any CodingKey]) -> any CodingKey)
    }

    /// How `Date` values are written.
    public enum DateEncodingStrategy: Sendable {
        /// `Date`'s own `Encodable` form: seconds since 2001-01-01 as a number.
        case deferredToDate
        /// Seconds since 1970-01-01 as a number.
        case secondsSince1970
        /// Milliseconds since 1970-01-01 as a number.
        case millisecondsSince1970
        /// An ISO 8601 internet date-time string in UTC (`2024-05-01T12:00:00Z`), as `JSONEncoder` writes it.
        case iso8601
        /// A string in the given ISO 8601 format.
        case formatted(Date.ISO8601FormatStyle)
        /// Your function writes the date to an encoder positioned at the value (nothing written is `{}`).
        case custom(@Sendable (_ date: Date, _ encoder: any Encoder) throws -> Void)
    }

    /// How `Data` values are written.
    public enum DataEncodingStrategy: Sendable {
        /// `Data`'s own `Encodable` form: an array of byte values.
        case deferredToData
        /// A Base64 string.
        case base64
        /// Your function writes the data to an encoder positioned at the value (nothing written is `{}`).
        case custom(@Sendable (_ data: Data, _ encoder: any Encoder) throws -> Void)
    }

    /// How infinity and NaN, which JSON numbers cannot hold, are written.
    public enum NonConformingFloatEncodingStrategy: Sendable {
        /// They are an `EncodingError.invalidValue` at their coding path.
        case `throw`
        /// They are written as these strings.
        case convertToString(positiveInfinity: String, negativeInfinity: String, nan: String)
    }

    /// Layout: `.prettyPrinted`, `.sortedKeys`, `.withoutEscapingSlashes` (`.fragmentsAllowed` is implied:
    /// a model that encodes a single value is written as that value).
    ///
    /// `.sortedKeys` orders keys as `JSONEncoder` does: byte by byte in UTF-8 (`"10" < "9"`,
    /// `"B" < "_x" < "a"`), on every platform. For `JSONSerialization`'s order (digit runs by
    /// value, letters ignoring case), as AFNetworking's JSON bodies use it, write a model of
    /// strings, numbers, booleans and nested models as a tree:
    /// `try ParameterValue(encoding: model).jsonData(options: .sortedKeys)` (the tree takes no
    /// date, data or key strategy, and refuses dates and data).
    public var outputFormatting: JSONWritingOptions = []
    /// How coding keys are spelled; ``KeyEncodingStrategy/useDefaultKeys`` by default.
    public var keyEncodingStrategy: KeyEncodingStrategy = .useDefaultKeys
    /// How dates are written; ``DateEncodingStrategy/deferredToDate`` by default.
    public var dateEncodingStrategy: DateEncodingStrategy = .deferredToDate
    /// How data is written; ``DataEncodingStrategy/base64`` by default.
    public var dataEncodingStrategy: DataEncodingStrategy = .base64
    /// How infinity and NaN are written; `.throw` (an error) by default.
    public var nonConformingFloatEncodingStrategy: NonConformingFloatEncodingStrategy = .throw
    /// Values handed to every `encode(to:)` as `encoder.userInfo`.
    public var userInfo: [CodingUserInfoKey: any Sendable] = [:]
    /// The deepest nesting a model may encode; deeper is
    /// ``/HTTPSerializationCore/RequestSerializationError/nestingTooDeep(path:limit:)``.
    public var maximumDepth: Int = ParameterValue.defaultMaximumDepth

    /// An encoder with `JSONEncoder`'s default strategies and compact output.
    public init() {}

    var keysAsWritten: Bool {
        if case .useDefaultKeys = keyEncodingStrategy { return true }
        return false
    }

    /// The JSON text of `value`, in UTF-8.
    ///
    /// - Throws: `EncodingError.invalidValue` for a non-conforming float under `.throw` or a model that
    ///   encodes nothing; ``/HTTPSerializationCore/HTTPSerializationError`` past the depth limit; and any
    ///   error the model's own `encode(to:)` throws.
    public func encode<T: Encodable>(_ value: T) throws -> Data {
        // Text is written as `encode(to:)` runs; a model that writes out of order turns it into
        // a tree midway. Sorted keys need every key first, so they take the tree from the start.
        if !outputFormatting.contains(.sortedKeys) {
            return try JSONStreamingEncoder(options: self).encode(value)
        }
        let tree = try ParameterValue(encoding: value, maximumDepth: maximumDepth, json: self)
        return try tree.jsonData(options: outputFormatting.union(.fragmentsAllowed), maximumDepth: maximumDepth, keyOrder: .utf8)
    }

    /// Appends the JSON text of `value` to `bytes`: what ``encode(_:)`` returns, without the `Data`.
    package func encode<T: Encodable>(_ value: T, appendingTo bytes: inout [UInt8]) throws {
        if !outputFormatting.contains(.sortedKeys) {
            return try JSONStreamingEncoder(options: self).encode(value, appendingTo: &bytes)
        }
        bytes.append(contentsOf: try encode(value))
    }
}

extension JSONKeyConversion {
    /// `orderID` → `order_id`: words split where lower case turns upper, and where a run of
    /// capitals ends before a lower-case letter (`myURLValue` → `my_url_value`), then lower-cased
    /// and joined with underscores, as `JSONEncoder` converts keys.
    static func snakeCase(fromCamelCase key: String) -> String {
        let characters = Array(key)
        guard !characters.isEmpty else { return key }
        func isUpper(_ index: Int) -> Bool {
            let category = characters[index].unicodeScalars.first!.properties.generalCategory
            return category == .uppercaseLetter || category == .titlecaseLetter
        }
        func isLower(_ index: Int) -> Bool { characters[index].unicodeScalars.first!.properties.generalCategory == .lowercaseLetter }
        var words: [Range<Int>] = []
        var wordStart = 0
        var search = 1
        while let upper = (search..<characters.count).first(where: isUpper) {
            words.append(wordStart..<upper)
            guard let lower = (upper..<characters.count).first(where: isLower) else {
                wordStart = upper
                break
            }
            if lower == upper + 1 {
                wordStart = upper
            } else {
                // A run of capitals is a word of its own, up to the capital before the lower-case letter.
                words.append(upper..<(lower - 1))
                wordStart = lower - 1
            }
            search = lower + 1
        }
        words.append(wordStart..<characters.count)
        return words.map { String(characters[$0]).lowercased() }.joined(separator: "_")
    }
}
