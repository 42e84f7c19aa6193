@_exported import HTTPSerializationCodable

#if Macros
/// Writes a reader for the model, so JSON decodes it straight from the parse, past what
/// `Decodable` can reach.
///
/// Attach it to a `Codable` struct (or an enum with raw values): the macro adds a
/// ``HTTPSerializationCodable/JSONTapeDecodable`` conformance that reads the stored properties
/// under their coding keys, in the order synthesized `init(from:)` reads them, so values and
/// `DecodingError`s are the same. ``HTTPSerializationCodable/JSONBodyDecoder`` and every
/// serializer built on it use the reader from then on; nothing else changes.
///
/// ```swift
/// @JSONTapeCodable
/// struct User: Codable {
///     var id: Int
///     var name: String
///     var nickname: String?
/// }
/// ```
///
/// A type with its own `init(from:)`, a `lazy` property or a property wrapper is refused with
/// an error that says why. Needs the package's `Macros` trait.
@attached(extension, conformances: JSONTapeDecodable, names: named(init(jsonTape:)))
public macro JSONTapeCodable() = #externalMacro(module: "HTTPSerializationMacroPlugin", type: "JSONTapeCodableMacro")
#endif
