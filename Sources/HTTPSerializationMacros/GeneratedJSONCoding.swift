@_exported import HTTPSerializationCodable

#if Macros
/// Writes a reader and a writer for the model, so JSON decodes it straight from the parse and
/// encodes it straight into text, past what `Codable` can reach.
///
/// Attach it to a `Codable` struct (or an enum with raw values): the macro adds conformances
/// to the package's generated-code runtime (`JSONTapeDecodable` and `JSONTapeEncodable`, not
/// for hand use) that read and write the stored properties under their coding keys, in the
/// order synthesized `init(from:)` and `encode(to:)` use, so values, text and errors are the
/// same; the reader comes in two forms, over the parse and straight over the text, which a
/// decode tries first. A type that declares only `Decodable` (or only `Encodable`) gets that half.
/// ``/HTTPSerializationCodable/JSONBodyDecoder``, ``/HTTPSerializationCodable/JSONBodyEncoder``
/// and every serializer built on them use the generated code from then on; nothing else changes.
///
/// ```swift
/// @GeneratedJSONCoding
/// struct User: Codable {
///     var id: Int
///     var name: String
///     var nickname: String?
/// }
/// ```
///
/// A type with its own `init(from:)` or `encode(to:)`, a `lazy` property or a property wrapper
/// is refused with an error that says why. For a struct with no `CodingKeys` in its body, the
/// macro declares the private `CodingKeys` synthesized `Codable` would make, so keys declared
/// in an extension (which it cannot see) are a compile-time redeclaration, not keys the
/// generated code ignores. Needs the package's `Macros` trait.
@attached(extension, conformances: JSONTapeDecodable, JSONTapeEncodable, names: named(CodingKeys), named(init(jsonTape:)), named(init(jsonText:)), named(init(_jsonTapeKeyed:object:)), named(init(_jsonTapeDocumentOrder:object:)), named(encode(jsonTape:)))
public macro GeneratedJSONCoding() = #externalMacro(module: "HTTPSerializationMacroPlugin", type: "GeneratedJSONCodingMacro")
#endif
