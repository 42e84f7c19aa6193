/// The runtime of `@GeneratedJSONCoding`'s writers: a type that writes its own JSON text, with
/// no `Encoder` or containers in between.
///
/// Not for hand use, as ``JSONTapeDecodable`` says: the macro writes the conformance.
/// ``JSONBodyEncoder``, the JSON request serializers and the stream writers use the writer
/// whenever the type has one, with the same text and the same errors as its `encode(to:)`
/// gives. A writer is valid only during the call it is handed to.
@_documentation(visibility: internal)
public protocol JSONTapeEncodable: Encodable {
    /// Writes the value where `writer` stands, throwing the errors its `encode(to:)` would throw.
    func encode(jsonTape writer: JSONTapeWriter) throws

    /// Writes an array of the type where `writer` stands.
    ///
    /// The default, compiled where the type conforms, writes every element through
    /// ``encode(jsonTape:)`` in one loop specialized for the type; there is seldom a reason to
    /// write your own.
    static func encodeArray(_ elements: [Self], jsonTape writer: JSONTapeWriter) throws
}

extension JSONTapeEncodable {
    /// Writes each element with ``encode(jsonTape:)``, its index on the coding path.
    @inlinable
    @_documentation(visibility: internal)
    public static func encodeArray(_ elements: [Self], jsonTape writer: JSONTapeWriter) throws {
        let array = writer.beginArray()
        writer.pushIndex()
        defer { writer.popIndex() }
        for index in elements.indices {
            if let array, try writer.beginElement(in: array, index: index) {
                let mark = writer.beginRun()
                do {
                    try elements[index].encode(jsonTape: writer)
                } catch {
                    writer.failRun(mark)
                    throw error
                }
                try writer.endRun(mark)
            } else {
                try writer.encodeElementInTree(elements[index], in: array)
            }
        }
    }
}

