// The integration exists only with the package trait `Vapor`, so apps that do not use it
// never resolve Vapor.
#if Vapor
public import HTTPSerializationCodable
import HTTPSerializationCore
public import Vapor

/// This package's coders for a Vapor app, set up in one value: JSON both ways, forms both
/// ways, query strings, and multipart forms read as they stream in.
///
/// The defaults read and write what Vapor's own coders do, so clients keep working when an
/// app switches: JSON dates as ISO 8601; in forms, dates as seconds since 1970, booleans as
/// `true`/`false`, arrays as `tags[]`, an absent checkbox as `false` and an absent list as
/// `[]` (``/HTTPSerializationCodable/FormDecoder/boolFlags`` and
/// ``/HTTPSerializationCodable/FormDecoder/absentFieldsAreEmpty``). One default of Vapor's is
/// not followed: its form decoder also splits every list value at `,` and `|`, which breaks
/// values that hold them; send lists as repeated keys. Change a property to change one coder.
///
/// ```swift
/// var coders = HTTPSerializationCoders()
/// coders.multipart.limits.maximumFileBytes = 100 << 20
/// app.useHTTPSerialization(coders)
/// ```
public struct HTTPSerializationCoders: Sendable {
    /// Reads `application/json` and JSON:API bodies.
    public var jsonDecoder: JSONBodyDecoder
    /// Writes `application/json` and JSON:API bodies.
    public var jsonEncoder: JSONBodyEncoder
    /// Reads `application/x-www-form-urlencoded` bodies and query strings.
    public var formDecoder: FormDecoder
    /// Writes `application/x-www-form-urlencoded` bodies and query strings.
    public var formEncoder: FormEncoder
    /// Reads `multipart/form-data` bodies: its limits, spill threshold and form decoder (a copy
    /// of ``formDecoder`` as it was when these coders were made).
    public var multipart: MultipartFormDecoder

    /// Coders whose defaults match Vapor's own.
    public init() {
        jsonDecoder = JSONBodyDecoder()
        jsonDecoder.dateDecodingStrategy = .iso8601
        jsonEncoder = JSONBodyEncoder()
        jsonEncoder.dateEncodingStrategy = .iso8601
        formDecoder = FormDecoder(dateDecoding: .secondsSince1970)
        formDecoder.boolFlags = true
        formDecoder.absentFieldsAreEmpty = true
        formEncoder = FormEncoder(style: QueryStringStyle(boolEncoding: .literal, dateEncoding: .secondsSince1970))
        multipart = MultipartFormDecoder(form: formDecoder)
    }
}

extension ContentConfiguration {
    /// Makes this package the coders behind `req.content`, `req.query` and `Content`
    /// responses: JSON and JSON:API, forms, query strings and multipart forms.
    ///
    /// Call it once while configuring the app. Multipart responses keep Vapor's encoder.
    /// Failures reach clients as ``RequestBodyAbort`` errors with the status
    /// `RequestBodyFailure` gives: 400 for a malformed body or one that is not the model,
    /// 413 past a limit, 500 for an upload that could not be stored.
    ///
    /// The configuration is Vapor's process-wide one, so an app's streamed uploads
    /// (`req.decodeMultipart`) read their limits from the app instead: call
    /// `app.useHTTPSerialization(_:)`, which sets both.
    ///
    /// ```swift
    /// ContentConfiguration.global.useHTTPSerialization()
    /// ```
    public mutating func useHTTPSerialization(_ coders: HTTPSerializationCoders = HTTPSerializationCoders()) {
        for media in [HTTPMediaType.json, .jsonAPI] {
            use(encoder: coders.jsonEncoder, for: media)
            use(decoder: coders.jsonDecoder, for: media)
        }
        use(encoder: coders.formEncoder, for: .urlEncodedForm)
        use(decoder: coders.formDecoder, for: .urlEncodedForm)
        use(urlEncoder: coders.formEncoder)
        use(urlDecoder: coders.formDecoder)
        use(decoder: coders.multipart, for: .formData)
    }
}
#endif
