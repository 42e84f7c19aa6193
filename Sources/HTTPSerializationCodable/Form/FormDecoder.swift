#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import HTTPSerializationCore

/// Decodes `Decodable` models from `application/x-www-form-urlencoded` bodies, query strings
/// and multipart forms: the way back from ``/HTTPSerializationCore/QueryStringStyle`` and
/// `ParameterValue(encoding:)`, as Vapor's `URLEncodedFormDecoder` reads forms.
///
/// For server routes: values arrive as text and become the model's numbers, booleans
/// (`true`/`false`, `1`/`0`, `on`/`off`, `yes`/`no`), dates and data; lists come from `[]`,
/// indices or repeated keys; a multipart form's files decode into ``/HTTPSerializationCore/MultipartFile``
/// properties.
///
/// ```swift
/// struct Signup: Decodable { var name: String; var age: Int; var tags: [String]; var newsletter: Bool? }
/// let signup = try FormDecoder().decode(Signup.self, from: "name=Ann&age=41&tags[]=a&tags[]=b&newsletter=on")
/// ```
public struct FormDecoder: Sendable {
    /// How dates are read; the inverse of ``/HTTPSerializationCore/QueryStringStyle/DateEncoding``.
    public enum DateDecoding: Sendable {
        /// `2001-01-01 00:00:00 +0000`, what `Date.description` and AFNetworking write.
        case foundationDescription
        /// Seconds since 1970.
        case secondsSince1970
        /// Milliseconds since 1970.
        case millisecondsSince1970
        /// ISO 8601, with or without fractional seconds.
        case iso8601
        /// Your own reading of the text.
        case custom(@Sendable (String) throws -> Date)
    }

    /// How the form's keys relate to the model's.
    public enum KeyDecoding: Sendable {
        /// Keys as they are.
        case useDefaultKeys
        /// `first_name` in the form is `firstName` in the model.
        case convertFromSnakeCase
    }

    /// The key and array encodings the form was written with; AFNetworking's by default.
    public var style: QueryStringStyle
    /// How dates are read: `Date.description`'s form by default, which is what the writer's
    /// default style sends.
    public var dateDecoding: DateDecoding
    /// How keys are matched.
    public var keyDecoding: KeyDecoding
    /// The most pairs, the deepest key and the longest key and value read.
    public var limits: FormDecodingLimits
    /// HTML checkboxes: a `Bool` field the form lacks reads as `false`, and one sent bare
    /// (`?flag`, `flag=`) as `true`. Off by default, where both are errors; Vapor's form decoder
    /// reads forms this way.
    public var boolFlags = false
    /// A field the form lacks reads as an empty value: a list as `[]`, a model whose fields are
    /// all optional as one with none of them, where by default it is `keyNotFound`. An empty
    /// multi-select sends nothing; Vapor's form decoder reads forms this way.
    public var absentFieldsAreEmpty = false
    /// Values the model's `init(from:)` reads from its decoder's `userInfo`.
    public var userInfo: [CodingUserInfoKey: any Sendable] = [:]

    /// A decoder; every default reads what the package's writer sends with its defaults.
    public init(style: QueryStringStyle = .afNetworking, dateDecoding: DateDecoding = .foundationDescription,
                keyDecoding: KeyDecoding = .useDefaultKeys, limits: FormDecodingLimits = FormDecodingLimits()) {
        self.style = style
        self.dateDecoding = dateDecoding
        self.keyDecoding = keyDecoding
        self.limits = limits
    }

    /// A model from a form body or query string.
    ///
    /// - Throws: ``/HTTPSerializationCore/FormDecodingError`` for a body that cannot be read,
    ///   `DecodingError` for one that is not the model.
    public func decode<T: Decodable>(_ type: T.Type, from text: String) throws -> T {
        try decode(type, from: FormPairs.parse(text, limits: limits))
    }

    /// A model from form pairs, in the order they were sent.
    ///
    /// - Throws: ``/HTTPSerializationCore/FormDecodingError`` for pairs that conflict,
    ///   `DecodingError` for ones that are not the model.
    public func decode<T: Decodable>(_ type: T.Type, from pairs: [QueryStringPair]) throws -> T {
        let tree = try FormTree(pairs: pairs, style: style, limits: limits)
        return try T(from: FormValueDecoder(node: 0, path: .root, context: FormDecodingContext(tree, self)))
    }

    /// A model from a multipart form: its fields as a form's pairs, its files as
    /// ``/HTTPSerializationCore/MultipartFile`` values under their field names (`photos[]`
    /// for several).
    ///
    /// - Throws: ``/HTTPSerializationCore/FormDecodingError`` for fields that conflict,
    ///   `DecodingError` for a form that is not the model.
    public func decode<T: Decodable>(_ type: T.Type, from form: MultipartForm) throws -> T {
        var tree = try FormTree(pairs: form.pairs, style: style, limits: limits)
        for file in form.files {
            try tree.insert(.file(file), field: file.fieldName, style: style, limits: limits)
        }
        return try T(from: FormValueDecoder(node: 0, path: .root, context: FormDecodingContext(tree, self)))
    }
}
