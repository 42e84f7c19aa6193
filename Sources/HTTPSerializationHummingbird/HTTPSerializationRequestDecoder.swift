// The integration exists only with the package trait `Hummingbird`, so apps that do not use it
// never resolve Hummingbird.
#if Hummingbird
public import Hummingbird
public import HTTPSerializationCodable

/// Hummingbird's request decoder, reading bodies with this package: JSON, forms and
/// multipart forms, chosen by the request's `Content-Type`, each with the coder's own
/// `RequestDecoder` conformance (which a context can also use alone).
///
/// `application/json` and `+json` types (and bodies without a type) go through
/// ``/HTTPSerializationCodable/JSONBodyDecoder``, `application/x-www-form-urlencoded` through
/// ``/HTTPSerializationCodable/FormDecoder``, and `multipart/form-data` through
/// ``/HTTPSerializationCodable/MultipartFormDecoder``, read as it streams in (files past its
/// spill threshold go to temporary files) and decoded by its own form decoder, files as
/// ``/HTTPSerializationCore/MultipartFile``.
/// Failures are thrown as ``/HTTPSerializationCodable/RequestBodyFailure``, Hummingbird's
/// `HTTPResponseError` here: 400 for a malformed body or one that is not the model, 413 past a
/// limit, 415 for another type, each with a message for the client and the error behind it.
///
/// ```swift
/// struct AppContext: HTTPSerializationRequestContext {
///     var coreContext: CoreRequestContextStorage
///     init(source: ApplicationRequestContextSource) { coreContext = .init(source: source) }
/// }
/// ```
public struct HTTPSerializationRequestDecoder: RequestDecoder, Sendable {
    /// Decodes JSON bodies; its strategies and depth limit apply.
    public var json = JSONBodyDecoder()
    /// Decodes `application/x-www-form-urlencoded` bodies; its style, strategies and
    /// ``/HTTPSerializationCore/FormDecodingLimits`` apply.
    public var form = FormDecoder()
    /// Reads and decodes `multipart/form-data` bodies: the parser's limits, the spill threshold,
    /// where files go, and the form decoder for the fields (set apart from ``form``).
    public var multipart = MultipartFormDecoder()
    /// The most bytes of a body of any kind: JSON and forms, read into memory whole, and a
    /// multipart form, read as it streams in with its large files on disk. When nil, the
    /// request context's `maxUploadSize`, Hummingbird's one upload limit (2 MiB unless the
    /// context sets it), which its own coders read the same way. A multipart form is also held
    /// to ``multipart``'s limits (1 GiB for the body by default): the lower limit wins. A body
    /// past it is a 413 whose message names the limit.
    ///
    /// ```swift
    /// struct UploadContext: HTTPSerializationRequestContext {
    ///     var coreContext: CoreRequestContextStorage
    ///     init(source: ApplicationRequestContextSource) { coreContext = .init(source: source) }
    ///     var maxUploadSize: Int { 100 << 20 }   // JSON, forms and uploads up to 100 MiB
    /// }
    /// ```
    public var maximumBodySize: Int?

    /// A decoder with the package's defaults.
    public init() {}

    /// Decodes `type` from `request`'s body with the coder its content type names.
    ///
    /// - Throws: ``/HTTPSerializationCodable/RequestBodyFailure`` with status 400, 413 or 415, a
    ///   message for the client and the underlying error.
    public func decode<T: Decodable>(_ type: T.Type, from request: Request, context: some RequestContext) async throws -> T {
        let limit = maximumBodySize ?? context.maxUploadSize
        switch RequestBodyKind(contentType: request.headers[.contentType]) {
        case .json: return try await json.decodeBody(T.self, from: request, limit: limit)
        case .form: return try await form.decodeBody(T.self, from: request, limit: limit)
        case .multipart: return try await multipart.decodeBody(T.self, from: request, limit: limit)
        case .other: throw RequestBodyFailure.unsupportedContentType(request.headers[.contentType])
        }
    }
}
#endif
