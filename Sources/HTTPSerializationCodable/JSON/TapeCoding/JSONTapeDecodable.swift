/// A type that reads itself straight from the package's parse of a JSON document, with no
/// `Decoder`, containers or coding keys in between.
///
/// Decoding through `Decodable` costs a container per object, a `String` per key and a
/// protocol call per value; a reader written (or generated) for the model matches its keys as
/// bytes and builds its values directly. ``JSONBodyDecoder``, ``DecodableResponseSerializer``
/// and the streaming serializers use the reader whenever the type has one, with the same
/// values and the same `DecodingError`s, coding paths included, as its `init(from:)` gives.
///
/// A reader reads an object's properties in the order `init(from:)` would:
///
/// ```swift
/// extension User: JSONTapeDecodable {
///     init(jsonTape value: JSONTapeValue) throws {
///         var object = try value.object()
///         id = try object.decode(Int.self, forKey: "id")
///         name = try object.decode(String.self, forKey: "name")
///         nickname = try object.decodeIfPresent(String.self, forKey: "nickname")
///     }
/// }
/// ```
public protocol JSONTapeDecodable: Decodable {
    /// Reads the value at `value`, throwing the `DecodingError` its `init(from:)` would throw.
    init(jsonTape value: JSONTapeValue) throws

    /// Reads an array of the type at `value`.
    ///
    /// The default, compiled where the type conforms, reads every element through
    /// ``init(jsonTape:)`` in one loop specialized for the type; there is seldom a reason to
    /// write your own.
    static func decodeArray(from value: JSONTapeValue) throws -> [Self]

    /// Reads the value at `reader` straight from the document's text: the fast path of a
    /// decode, tried first where the decoder matches keys as written or converted from snake case.
    ///
    /// `@JSONTapeCodable` writes it beside ``init(jsonTape:)``, from the same properties. The
    /// default stops the reader, and the decoder reads the document through
    /// ``init(jsonTape:)`` instead; a reader written by hand need not have one. One written by
    /// hand reads what ``init(jsonTape:)`` reads, asks for each key once, closes every object it
    /// opens, never catches the reader's errors, and stops (throws) wherever that throws.
    init(jsonText reader: inout JSONTextReader) throws

    /// Reads an array of the type at `reader`, each element through ``init(jsonText:)``.
    static func decodeArray(fromText reader: inout JSONTextReader) throws -> [Self]
}

extension JSONTapeDecodable {
    /// Reads each element with ``init(jsonTape:)``, its index on the coding path.
    @inlinable
    public static func decodeArray(from value: JSONTapeValue) throws -> [Self] {
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
    public init(jsonText reader: inout JSONTextReader) throws {
        throw JSONTextReader.miss
    }

    /// Reads each element with ``JSONTapeDecodable/init(jsonText:)``, in a loop specialized for the type.
    @inlinable
    public static func decodeArray(fromText reader: inout JSONTextReader) throws -> [Self] {
        try reader.array { try Self(jsonText: &$0) }
    }
}
