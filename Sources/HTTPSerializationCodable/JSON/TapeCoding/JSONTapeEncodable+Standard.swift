#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import HTTPSerializationCore

// The standard library's and Foundation's value types write themselves as `JSONBodyEncoder`
// writes them through `Encodable`: the same text, the same strategies for dates, data and
// non-conforming floats, the same errors. So arrays, optionals and dictionaries of them, and
// generated writers' properties of these types, stay on the writer.

extension String: JSONTapeEncodable {
    /// Writes a JSON string.
    @_documentation(visibility: internal)
    public func encode(jsonTape writer: JSONTapeWriter) throws { try writer.encoder.write(string: self) }
}

extension Bool: JSONTapeEncodable {
    /// Writes `true` or `false`.
    @_documentation(visibility: internal)
    public func encode(jsonTape writer: JSONTapeWriter) throws { try writer.encoder.write(.bool(self)) }
}

extension Double: JSONTapeEncodable {
    /// Writes a number, or a non-finite value under the encoder's strategy.
    @_documentation(visibility: internal)
    public func encode(jsonTape writer: JSONTapeWriter) throws { try writer.encoder.write(self) }
}

extension Float: JSONTapeEncodable {
    /// Writes a number, or a non-finite value under the encoder's strategy.
    @_documentation(visibility: internal)
    public func encode(jsonTape writer: JSONTapeWriter) throws { try writer.encoder.write(self) }
}

extension Int: JSONTapeEncodable {
    /// Writes an integer.
    @_documentation(visibility: internal)
    public func encode(jsonTape writer: JSONTapeWriter) throws { try writer.encoder.write(.int(self)) }
}

extension JSONTapeEncodable where Self: FixedWidthInteger {
    /// Writes an integer.
    @_documentation(visibility: internal)
    public func encode(jsonTape writer: JSONTapeWriter) throws { try writer.encoder.write(ParameterValue(integer: self)) }
}

extension Int8: JSONTapeEncodable {}
extension Int16: JSONTapeEncodable {}
extension Int32: JSONTapeEncodable {}
extension Int64: JSONTapeEncodable {}
extension UInt: JSONTapeEncodable {}
extension UInt8: JSONTapeEncodable {}
extension UInt16: JSONTapeEncodable {}
extension UInt32: JSONTapeEncodable {}
extension UInt64: JSONTapeEncodable {}

extension Date: JSONTapeEncodable {
    /// Writes a date under the encoder's date strategy.
    @_documentation(visibility: internal)
    public func encode(jsonTape writer: JSONTapeWriter) throws { try writer.encoder.encodeValue(self) }
}

extension Data: JSONTapeEncodable {
    /// Writes data under the encoder's data strategy.
    @_documentation(visibility: internal)
    public func encode(jsonTape writer: JSONTapeWriter) throws { try writer.encoder.encodeValue(self) }
}

extension URL: JSONTapeEncodable {
    /// Writes the URL's absolute string.
    @_documentation(visibility: internal)
    public func encode(jsonTape writer: JSONTapeWriter) throws { try writer.encoder.encodeValue(self) }
}

extension Decimal: JSONTapeEncodable {
    /// Writes the decimal digit for digit.
    @_documentation(visibility: internal)
    public func encode(jsonTape writer: JSONTapeWriter) throws { try writer.encoder.encodeValue(self) }
}

extension UUID: JSONTapeEncodable {
    /// Writes the UUID's string, as `UUID.encode(to:)` does.
    @_documentation(visibility: internal)
    public func encode(jsonTape writer: JSONTapeWriter) throws { try writer.encoder.write(string: uuidString) }
}

extension Optional: JSONTapeEncodable where Wrapped: JSONTapeEncodable {
    /// Writes nil as `null`, anything else as the wrapped value.
    @_documentation(visibility: internal)
    public func encode(jsonTape writer: JSONTapeWriter) throws {
        guard let wrapped = self else { return try writer.encoder.write(.null) }
        try wrapped.encode(jsonTape: writer)
    }
}

extension Array: JSONTapeEncodable where Element: JSONTapeEncodable {
    /// Writes a JSON array, each element by its type's writer (through
    /// ``JSONTapeEncodable/encodeArray(_:jsonTape:)``, specialized where the element type conforms).
    @_documentation(visibility: internal)
    public func encode(jsonTape writer: JSONTapeWriter) throws {
        // The common elements in the `Encodable` path's own loops, as fast as it gets.
        if Element.self == String.self || Element.self == Int.self || Element.self == Double.self || Element.self == Bool.self {
            return try writer.encoder.encodeValue(self)
        }
        try Element.encodeArray(self, jsonTape: writer)
    }
}

extension Set: JSONTapeEncodable where Element: JSONTapeEncodable {
    /// Writes a JSON array of the elements in the set's order, as `Set.encode(to:)` does.
    @_documentation(visibility: internal)
    public func encode(jsonTape writer: JSONTapeWriter) throws { try Array(self).encode(jsonTape: writer) }
}

extension Dictionary: JSONTapeEncodable where Key == String, Value: JSONTapeEncodable {
    /// Writes a JSON object, keys as they are, each value by its type's writer where the
    /// `Encodable` path reaches it.
    @_documentation(visibility: internal)
    public func encode(jsonTape writer: JSONTapeWriter) throws { try writer.encoder.encodeThroughEncodable(self) }
}
