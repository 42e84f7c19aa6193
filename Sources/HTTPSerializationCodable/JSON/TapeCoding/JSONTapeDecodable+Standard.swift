#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import HTTPSerializationCore

// The standard library's and Foundation's value types read themselves as `JSONBodyDecoder`
// reads them through `Decodable`: the same numbers, the same strategies for dates, data and
// non-conforming floats, the same errors. So arrays, optionals and dictionaries of them, and
// generated readers' properties of these types, never leave the tape.

extension String: JSONTapeDecodable {
    /// Reads a JSON string.
    @_documentation(visibility: internal)
    public init(jsonTape value: borrowing JSONTapeValue) throws { self = try value.decoder.string(at: value.entry, path: { value.codingPath }) }
    /// Reads a JSON string from the text.
    @_documentation(visibility: internal)
    public init(jsonText reader: inout JSONTextReader) throws { self = try reader.readString() }
}

extension Bool: JSONTapeDecodable {
    /// Reads `true` or `false`.
    @_documentation(visibility: internal)
    public init(jsonTape value: borrowing JSONTapeValue) throws { self = try value.decoder.bool(at: value.entry, path: { value.codingPath }) }
    /// Reads `true` or `false` from the text.
    @_documentation(visibility: internal)
    public init(jsonText reader: inout JSONTextReader) throws { self = try reader.readBool() }
}

extension Double: JSONTapeDecodable {
    /// Reads a number, or a non-conforming float's string under the decoder's strategy.
    @_documentation(visibility: internal)
    public init(jsonTape value: borrowing JSONTapeValue) throws { self = try value.decoder.floatingPoint(at: value.entry, path: { value.codingPath }) }
    /// Reads a number from the text, or a non-conforming float's string under the decoder's strategy.
    @_documentation(visibility: internal)
    public init(jsonText reader: inout JSONTextReader) throws { self = try reader.readFloatingPoint() }
}

extension Float: JSONTapeDecodable {
    /// Reads a number that fits, or a non-conforming float's string under the decoder's strategy.
    @_documentation(visibility: internal)
    public init(jsonTape value: borrowing JSONTapeValue) throws { self = try value.decoder.floatingPoint(at: value.entry, path: { value.codingPath }) }
    /// Reads a number that fits from the text, or a non-conforming float's string under the decoder's strategy.
    @_documentation(visibility: internal)
    public init(jsonText reader: inout JSONTextReader) throws { self = try reader.readFloatingPoint() }
}

extension JSONTapeDecodable where Self: FixedWidthInteger {
    /// Reads a number that is an integer in range.
    @_documentation(visibility: internal)
    public init(jsonTape value: borrowing JSONTapeValue) throws { self = try value.decoder.integer(at: value.entry, path: { value.codingPath }) }
    /// Reads a number that is an integer in range from the text.
    @_documentation(visibility: internal)
    public init(jsonText reader: inout JSONTextReader) throws { self = try reader.readInteger() }
}

extension Int: JSONTapeDecodable {}
extension Int8: JSONTapeDecodable {}
extension Int16: JSONTapeDecodable {}
extension Int32: JSONTapeDecodable {}
extension Int64: JSONTapeDecodable {}
extension UInt: JSONTapeDecodable {}
extension UInt8: JSONTapeDecodable {}
extension UInt16: JSONTapeDecodable {}
extension UInt32: JSONTapeDecodable {}
extension UInt64: JSONTapeDecodable {}

extension Date: JSONTapeDecodable {
    /// Reads a date under the decoder's date strategy.
    @_documentation(visibility: internal)
    public init(jsonTape value: borrowing JSONTapeValue) throws { self = try value.decodeThroughDecodable(Date.self) }
    /// Reads a date from the text, as from the tape.
    @_documentation(visibility: internal)
    public init(jsonText reader: inout JSONTextReader) throws { self = try reader.readDate() }
}

extension Data: JSONTapeDecodable {
    /// Reads data under the decoder's data strategy.
    @_documentation(visibility: internal)
    public init(jsonTape value: borrowing JSONTapeValue) throws { self = try value.decodeThroughDecodable(Data.self) }
    /// Reads data from the text, as from the tape.
    @_documentation(visibility: internal)
    public init(jsonText reader: inout JSONTextReader) throws { self = try reader.readData() }
}

extension URL: JSONTapeDecodable {
    /// Reads a URL string.
    @_documentation(visibility: internal)
    public init(jsonTape value: borrowing JSONTapeValue) throws { self = try value.decodeThroughDecodable(URL.self) }
    /// Reads a URL from the text, as from the tape.
    @_documentation(visibility: internal)
    public init(jsonText reader: inout JSONTextReader) throws { self = try reader.readURL() }
}

extension Decimal: JSONTapeDecodable {
    /// Reads a number as a decimal, digit for digit.
    @_documentation(visibility: internal)
    public init(jsonTape value: borrowing JSONTapeValue) throws { self = try value.decodeThroughDecodable(Decimal.self) }
    /// Reads a decimal from the text, as from the tape.
    @_documentation(visibility: internal)
    public init(jsonText reader: inout JSONTextReader) throws { self = try reader.readDecimal() }
}

extension UUID: JSONTapeDecodable {
    /// Reads a UUID string, as `UUID(uuidString:)` reads it.
    @_documentation(visibility: internal)
    public init(jsonTape value: borrowing JSONTapeValue) throws { self = try value.decodeThroughDecodable(UUID.self) }
    /// Reads a UUID string from the text.
    @_documentation(visibility: internal)
    public init(jsonText reader: inout JSONTextReader) throws { self = try reader.readUUID() }
}

extension Optional: JSONTapeDecodable where Wrapped: JSONTapeDecodable {
    /// Reads `null` as nil, anything else as the wrapped type.
    @_documentation(visibility: internal)
    public init(jsonTape value: borrowing JSONTapeValue) throws { self = value.isNull ? nil : try Wrapped(jsonTape: value) }
    /// Reads `null` as nil from the text, anything else as the wrapped type.
    @_documentation(visibility: internal)
    public init(jsonText reader: inout JSONTextReader) throws { self = try reader.readNull() ? nil : try reader.read(Wrapped.self) }
}

extension Array: JSONTapeDecodable where Element: JSONTapeDecodable {
    /// Reads a JSON array, each element by its type's reader (through
    /// ``JSONTapeDecodable/decodeArray(from:)``, specialized where the element type conforms).
    @_documentation(visibility: internal)
    public init(jsonTape value: borrowing JSONTapeValue) throws {
        let decoder = value.decoder
        let path = { decoder.codingPath }
        // The common elements in one loop with no reader call per element, as the `Decodable` path reads them.
        if Element.self == String.self { self = unsafeBitCast(try decoder.array(at: value.entry, path: path) { entry, _, path in try decoder.string(at: entry, path: path) }, to: [Element].self) }
        else if Element.self == Int.self { self = unsafeBitCast(try decoder.array(at: value.entry, path: path) { entry, _, path in try decoder.integer(at: entry, path: path) as Int }, to: [Element].self) }
        else if Element.self == Double.self { self = unsafeBitCast(try decoder.array(at: value.entry, path: path) { entry, _, path in try decoder.floatingPoint(at: entry, path: path) as Double }, to: [Element].self) }
        else { self = try Element.decodeArray(from: value) }
    }

    /// Reads a JSON array from the text, each element by its type's reader.
    @_documentation(visibility: internal)
    public init(jsonText reader: inout JSONTextReader) throws {
        if Element.self == String.self { self = unsafeBitCast(try reader.readStrings(), to: [Element].self) }
        else if Element.self == Int.self { self = unsafeBitCast(try reader.readInts(), to: [Element].self) }
        else if Element.self == Double.self { self = unsafeBitCast(try reader.readDoubles(), to: [Element].self) }
        else if Element.self == Bool.self { self = unsafeBitCast(try reader.readBools(), to: [Element].self) }
        else { self = try Element.decodeArray(fromText: &reader) }
    }
}

extension Set: JSONTapeDecodable where Element: JSONTapeDecodable {
    /// Reads a JSON array, as `Set.init(from:)` reads it: each element by its type's reader,
    /// its index on the coding path, a repeated element kept once.
    @_documentation(visibility: internal)
    public init(jsonTape value: borrowing JSONTapeValue) throws { self = Set(try [Element](jsonTape: value)) }
    /// Reads a JSON array from the text, each element by its type's reader.
    @_documentation(visibility: internal)
    public init(jsonText reader: inout JSONTextReader) throws { self = Set(try [Element](jsonText: &reader)) }
}

extension Dictionary: JSONTapeDecodable where Key == String, Value: JSONTapeDecodable {
    /// Reads a JSON object, keys as written (the first of a repeated key), each value by its
    /// type's reader, with `JSONDecoder`'s paths: a key that reads as a number is also an `Int`
    /// key, as `Dictionary.init(from:)` names it, except under a key strategy, where (as there)
    /// a repeated key's value is read too.
    @_documentation(visibility: internal)
    public init(jsonTape value: borrowing JSONTapeValue) throws {
        let decoder = value.decoder
        let tape = decoder.tape
        let object = value.entry
        guard tape.kind(object) == .object else { throw decoder.containerMismatch(at: object, path: decoder.codingPath) }
        self.init(minimumCapacity: tape.length(object))
        let asWritten = decoder.keysAsWritten
        var key = object + 1
        let end = tape.offset(object)
        while key < end {
            let name = tape.string(key)
            if !asWritten || self[name] == nil {
                decoder.path.append(.key(asWritten ? JSONCodingKey(dictionaryKey: name) : JSONCodingKey(stringValue: name)))
                defer { decoder.path.removeLast() }
                let member = try Value(jsonTape: JSONTapeValue(decoder: decoder, entry: key + 1))
                if self[name] == nil { self[name] = member }
            }
            key = tape.next(key + 1)
        }
    }

    /// Reads a JSON object from the text, keys as written (the first of a repeated key), each
    /// value by its type's reader. A repeated key's value is read too (where the tape, keys as
    /// written, passes over it): one that does not read stops the reader, and the tape gives
    /// the value.
    @_documentation(visibility: internal)
    public init(jsonText reader: inout JSONTextReader) throws {
        self.init()
        let atDocumentLevel = reader.cursor.openContainers == 0
        var object = try reader.object()
        let start = reader.cursor.index
        guard let first = try reader.nextKey(in: &object) else { return }
        self[first] = try reader.read(Value.self)
        // The document's own object (records keyed by id, say) grows to megabytes: sized once
        // from its first member, as the document's own array is, so it is not rehashed and
        // moved as it grows. A dictionary takes up to about three times its count in buckets
        // (a power of two, three quarters full), so the estimate is capped at a third.
        let bucketBytes = MemoryLayout<Key>.stride + MemoryLayout<Value>.stride
        if atDocumentLevel, let count = reader.cursor.estimatedCount(firstElementFrom: start, stride: bucketBytes * 3) {
            reserveCapacity(count)
        }
        while let name = try reader.nextKey(in: &object) {
            // One lookup for a new key; a repeated one puts its first value back.
            if let kept = updateValue(try reader.read(Value.self), forKey: name) { self[name] = kept }
        }
    }
}
