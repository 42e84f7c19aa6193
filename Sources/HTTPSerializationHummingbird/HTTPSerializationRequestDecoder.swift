// The integration exists only with the package trait `Hummingbird`, so apps that do not use it
// never resolve Hummingbird.
#if Hummingbird
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
public import Hummingbird
public import HTTPSerializationCodable
import HTTPSerializationCore
import NIOCore

/// Hummingbird's request decoder, reading bodies with this package: JSON, forms and
/// multipart forms, chosen by the request's `Content-Type`.
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

    /// Decodes `type` from `request`'s body, by its content type.
    ///
    /// - Throws: ``/HTTPSerializationCodable/RequestBodyFailure`` with status 400, 413 or 415, a
    ///   message for the client and the underlying error.
    public func decode<T: Decodable>(_ type: T.Type, from request: Request, context: some RequestContext) async throws -> T {
        let contentType = request.headers[.contentType]
        let limit = maximumBodySize ?? context.maxUploadSize
        do {
            switch RequestBodyKind(contentType: contentType) {
            case .json:
                let body = try await collect(request, limit: limit)
                return try body.withUnsafeReadableBytes { try json.decode(T.self, utf8: $0.bindMemory(to: UInt8.self)) }
            case .form:
                let body = try await collect(request, limit: limit)
                return try form.decode(T.self, from: String(decoding: body.readableBytesView, as: UTF8.self))
            case .multipart:
                var multipart = multipart
                multipart.limits.maximumBodyBytes = min(multipart.limits.maximumBodyBytes ?? limit, limit)
                return try await multipart.decode(T.self, from: request.body.map(\.readableBytesView), contentType: contentType ?? "")
            case .other:
                throw RequestBodyFailure.unsupportedContentType(contentType)
            }
        } catch {
            guard let failure = RequestBodyFailure(error) else { throw error }
            throw failure
        }
    }

    /// The whole body, or a 413 naming `limit` (Hummingbird's own collect answers an empty 413).
    private func collect(_ request: Request, limit: Int) async throws -> ByteBuffer {
        do {
            return try await request.body.collect(upTo: limit)
        } catch is NIOTooManyBytesError {
            throw RequestBodyFailure.bodyTooLarge(limit: limit)
        }
    }
}

#endif
