/// The runtime of `@GeneratedJSONCoding`'s readers: a type that reads itself straight from the
/// package's parse of a JSON document, with no `Decoder`, containers or coding keys in between.
///
/// Not for hand use: the macro writes the conformance, and the shape of this protocol and the
/// readers it is handed follow what the macro needs. It is public only because the code the
/// macro writes in your module calls it, and it is left out of the documentation.
/// ``JSONBodyDecoder``, ``DecodableResponseSerializer`` and the streaming serializers use the
/// reader whenever the type has one, with the same values and the same `DecodingError`s, coding
/// paths included, as its `init(from:)` gives. What a reader is handed is valid only during its
/// call: ``JSONTapeValue`` and ``JSONTextReader`` cannot be copied, and a ``JSONTapeObject``
/// used after its decode returned, or a decode that ends with another decode's text reader,
/// traps.
@_documentation(visibility: internal)
public protocol JSONTapeDecodable: Decodable {
    /// Reads the value at `value`, throwing the `DecodingError` its `init(from:)` would throw.
    init(jsonTape value: borrowing JSONTapeValue) throws

    /// Reads an array of the type at `value`.
    ///
    /// The default, compiled where the type conforms, reads every element through
    /// ``init(jsonTape:)`` in one loop specialized for the type; there is seldom a reason to
    /// write your own.
    static func decodeArray(from value: borrowing JSONTapeValue) throws -> [Self]

    /// Reads the value at `reader` straight from the document's text: the fast path of a
    /// decode, tried first where the decoder matches keys as written or converted from snake case.
    ///
    /// `@GeneratedJSONCoding` writes it beside ``init(jsonTape:)``, from the same properties. The
    /// default stops the reader, and the decoder reads the document through
    /// ``init(jsonTape:)`` instead. The generated one reads what ``init(jsonTape:)`` reads, asks
    /// for each key once, closes every object it opens, never catches the reader's errors, and
    /// stops (throws) wherever that throws.
    init(jsonText reader: inout JSONTextReader) throws

    /// Reads an array of the type at `reader`, each element through ``init(jsonText:)``.
    static func decodeArray(fromText reader: inout JSONTextReader) throws -> [Self]
}

extension JSONTapeDecodable {
    /// Reads each element with ``init(jsonTape:)``, its index on the coding path.
    @inlinable
    @_documentation(visibility: internal)
    public static func decodeArray(from value: borrowing JSONTapeValue) throws -> [Self] {
        let count = try value.arrayCount()
        var elements: [Self] = []
        elements.reserveCapacity(count)
        guard count > 0 else { return elements }
        value.pushIndex()
        defer { value.popIndex() }
        var element = value.entry + 1
        for index in 0..<count {
            value.setIndex(index)
            elements.append(try Self(jsonTape: value.value(at: element)))
            element = value.entry(after: element)
        }
        return elements
    }

    /// Stops the reader: the decoder then reads the value through ``init(jsonTape:)``.
    @_documentation(visibility: internal)
    public init(jsonText reader: inout JSONTextReader) throws {
        throw JSONTextReader.Unread.noReader(Self.self)
    }

    /// Reads each element with ``JSONTapeDecodable/init(jsonText:)``, in a loop specialized for the type.
    @inlinable
    @_documentation(visibility: internal)
    public static func decodeArray(fromText reader: inout JSONTextReader) throws -> [Self] {
        try reader.array { try Self(jsonText: &$0) }
    }
}
