import Foundation
import HTTPSerializationCore

/// A property list as the package's own readers produce it, before any Foundation object.
///
/// Use ``PropertyListResponseSerializer`` for Foundation's shape (`[String: Any]`, `Date`,
/// `Data`, numbers); read this tree with ``read(_:maximumDepth:)`` when you want no `Any`.
/// Dictionaries keep their entries in document order, so two keys that Swift compares as
/// equal (canonically equivalent) both survive.
public enum PropertyListValue: Sendable, Equatable {
    /// Text: `<string>`.
    case string(String)
    /// An integer that fits 64 bits, signed.
    case integer(Int64)
    /// A 128-bit integer beyond `Int64` (binary property lists), exact.
    case largeInteger(Decimal)
    /// A floating-point number: `<real>`.
    case real(Double)
    /// `<true/>` or `<false/>`.
    case boolean(Bool)
    /// A point in time: `<date>`, written in UTC.
    case date(Date)
    /// Bytes: `<data>`, Base64 in the XML form.
    case data(Data)
    /// An `NSKeyedArchiver` object reference (binary `CF$UID`).
    case uid(UInt64)
    /// An ordered list: `<array>`.
    case array([PropertyListValue])
    /// Keyed values in document order: `<dict>`.
    case dictionary([Entry])

    /// One key and its value, in document order.
    public struct Entry: Sendable, Equatable {
        /// The key as the document writes it.
        public var key: String
        /// The value stored under the key.
        public var value: PropertyListValue

        /// An entry with this key and value.
        public init(key: String, value: PropertyListValue) {
            self.key = key
            self.value = value
        }
    }

    /// The value of the first entry whose key is `key` (by Unicode scalars), in a dictionary.
    public subscript(key: String) -> PropertyListValue? {
        guard case .dictionary(let entries) = self else { return nil }
        return entries.first { $0.key.unicodeScalars.elementsEqual(key.unicodeScalars) }?.value
    }

    /// Reads an XML or binary property list with the package's own readers.
    ///
    /// Binary lists are read in time and memory linear in their size, however their objects
    /// are shared; cycles, bad offsets and malformed XML are typed errors.
    ///
    /// ```swift
    /// let value = try PropertyListValue.read(data)
    /// if case .string(let name)? = value["name"] { print(name) }
    /// ```
    ///
    /// - Throws: ``PropertyListReadingError``.
    public static func read(_ data: Data, maximumDepth: Int = ParameterValue.defaultMaximumDepth) throws(PropertyListReadingError) -> PropertyListValue {
        let bytes = [UInt8](data)
        if bytes.starts(with: Array("bplist".utf8)) {
            var reader = BinaryPropertyListReader(bytes, maximumDepth: maximumDepth)
            return try reader.read()
        }
        return try XMLPropertyListReader.read(bytes, maximumDepth: maximumDepth)
    }
}
