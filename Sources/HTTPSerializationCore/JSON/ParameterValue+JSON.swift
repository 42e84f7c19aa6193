#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

extension ParameterValue {
    /// Reads a JSON document into a parameter tree, with the package's own reader.
    ///
    /// For code that wants JSON without `Any`: strict RFC 8259 (UTF-8, or UTF-16/32 told by
    /// a byte-order mark or by its zero bytes), exact numbers (``ParameterValue/int(_:)``
    /// when they fit `Int`, ``ParameterValue/decimal(_:)`` for larger integers, otherwise
    /// ``ParameterValue/double(_:)``; `-0` keeps its sign as a double), the last of duplicate
    /// keys wins, and any nesting past `maximumDepth` is a typed error, never a crash.
    ///
    /// ```swift
    /// let value = try ParameterValue(json: Data(#"{"id": 7, "tags": ["a"]}"#.utf8))
    /// // ["id": 7, "tags": ["a"]]
    /// ```
    ///
    /// - Throws: ``JSONReadingError`` naming the fault and its byte offset.
    public init(json data: Data, maximumDepth: Int = ParameterValue.defaultMaximumDepth) throws(JSONReadingError) {
        self = try JSONTape.withParsed(data, maximumDepth: maximumDepth) { $0.build(with: ParameterValueBuilder()) }
    }

    /// Reads only the value at `keyPath` of a JSON document into a parameter tree.
    ///
    /// The whole document is checked as ``init(json:maximumDepth:)`` checks it, but only the
    /// value at the path is built: every value before it is passed over whole, in one step.
    /// Where an object repeats a key, the last one is followed, as the whole tree keeps it.
    ///
    /// ```swift
    /// let items = try ParameterValue(json: body, atKeyPath: "data.items")
    /// ```
    ///
    /// - Throws: ``JSONReadingError`` for a document that is not JSON, ``JSONKeyPathError``
    ///   for a path that leads nowhere in it.
    public init(json data: Data, atKeyPath keyPath: JSONKeyPath, maximumDepth: Int = ParameterValue.defaultMaximumDepth) throws {
        let built = try JSONTape.withParsed(data, maximumDepth: maximumDepth) { reader in
            Result { () throws(JSONKeyPathError) -> ParameterValue in
                reader.build(with: ParameterValueBuilder(), from: try reader.entry(at: keyPath, repeatedKey: .last))
            }
        }
        self = try built.get()
    }

    /// The JSON text of the value at `keyPath` (see ``JSONTapeReader/jsonText(at:)``),
    /// following the first of a repeated key unless told; the reader's refusal thrown, a path
    /// that leads nowhere returned.
    package static func jsonText(
        of data: Data, atKeyPath keyPath: JSONKeyPath, repeatedKey: JSONTapeReader.RepeatedKey = .first, maximumDepth: Int
    ) throws(JSONReadingError) -> Result<Data, JSONKeyPathError> {
        try JSONTape.withParsed(data, maximumDepth: maximumDepth) { reader in
            Result { () throws(JSONKeyPathError) -> Data in
                Data(reader.jsonText(at: try reader.entry(at: keyPath, repeatedKey: repeatedKey)))
            }
        }
    }

    /// ``init(json:maximumDepth:)`` over UTF-8 bytes the caller holds, such as one line of a
    /// streamed body.
    package init(utf8JSON bytes: UnsafeBufferPointer<UInt8>, maximumDepth: Int) throws(JSONReadingError) {
        self = try JSONTape.withParsed(utf8: bytes, maximumDepth: maximumDepth) { $0.build(with: ParameterValueBuilder()) }
    }
}

struct ParameterValueBuilder: JSONTapeBuilding {
    /// A container's values and the height they give it, kept as they arrive so the
    /// container's cell need not walk them again.
    struct Values<Buffer> {
        var buffer: Buffer
        var height = 1

        @inline(__always)
        mutating func note(_ value: ParameterValue) {
            height = ParameterStorage.height(height, holding: value)
        }
    }

    package var removesNulls: Bool { false }

    package func scalar(_ entry: Int, in tape: JSONTapeReader) -> ParameterValue { tape.parameterValue(entry) }

    package func makeArray(capacity: Int) -> Values<[ParameterValue]> {
        var array: [ParameterValue] = []
        array.reserveCapacity(capacity)
        return Values(buffer: array)
    }

    package func makeObject(capacity: Int) -> Values<[String: ParameterValue]> { Values(buffer: Dictionary(minimumCapacity: capacity)) }

    package func append(_ value: consuming ParameterValue, to array: inout Values<[ParameterValue]>) {
        array.note(value)
        array.buffer.append(value)
    }

    package func insert(_ value: consuming ParameterValue, forKey key: String, into object: inout Values<[String: ParameterValue]>) {
        object.note(value)
        object.buffer[key] = value
    }

    package func removeValue(forKey key: String, from object: inout Values<[String: ParameterValue]>) {
        object.buffer.removeValue(forKey: key)
    }

    package func finish(_ array: Values<[ParameterValue]>) -> ParameterValue {
        .array(ParameterArray(array.buffer, height: array.height))
    }

    package func finish(_ object: Values<[String: ParameterValue]>) -> ParameterValue {
        // A repeated key replaced an earlier value, so the height may be above the values'; an
        // upper bound is all the cell needs.
        .dictionary(ParameterDictionary(object.buffer, height: object.height))
    }

    package func makeShape(keys: [String]) -> (template: [String: ParameterValue], slots: [Dictionary<String, ParameterValue>.Index])? {
        JSONDictionaryShape.make(keys: keys, placeholder: .null)
    }

    package func makeObject(shape: [String: ParameterValue]) -> Values<[String: ParameterValue]> { Values(buffer: shape) }

    package func set(_ value: consuming ParameterValue, at slot: Dictionary<String, ParameterValue>.Index,
                     in object: inout Values<[String: ParameterValue]>) {
        object.note(value)
        object.buffer.values[slot] = value
    }
}

extension JSONTapeReader {
    /// The string, number, boolean or null at `entry` as a parameter value, numbers exact.
    package func parameterValue(_ entry: Int) -> ParameterValue {
        switch kind(entry) {
        case .string: return .string(string(entry))
        case .number:
            switch number(entry) {
            case .int(let int): return .int(int)
            case .uint64(let unsigned): return .decimal(Decimal(unsigned))
            case .decimal(let decimal): return .decimal(decimal)
            case .double(let double): return .double(double)
            }
        case .true: return .bool(true)
        case .false: return .bool(false)
        case .null, .object, .array: return .null
        }
    }
}

/// The package's own JSON reader, for checks that need no value.
public enum JSONReader {
    /// Checks that `data` is exactly one JSON document, without building any value.
    ///
    /// The same strict RFC 8259 pass every JSON output of the package starts with: useful
    /// to vet a body before storing or forwarding it.
    ///
    /// - Throws: ``JSONReadingError`` naming the fault and its byte offset.
    public static func validate(_ data: Data, maximumDepth: Int = ParameterValue.defaultMaximumDepth) throws(JSONReadingError) {
        try JSONTape.withParsed(data, maximumDepth: maximumDepth) { _ in }
    }
}
