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
public import HTTPSerializationCore
import NIOCore

/// Hummingbird's request decoder, reading bodies with this package: JSON, forms and
/// multipart forms, chosen by the request's `Content-Type`.
///
/// `application/json` and `+json` types (and bodies without a type) go through
/// ``/HTTPSerializationCodable/JSONBodyDecoder``, `application/x-www-form-urlencoded` through
/// ``/HTTPSerializationCodable/FormDecoder``, and `multipart/form-data` is read as it streams in
/// with ``/HTTPSerializationCore/MultipartForm`` (files past ``spillThreshold`` go to temporary
/// files) and decoded by the same form decoder, files as ``/HTTPSerializationCore/MultipartFile``.
/// Failures become `HTTPError`s with the status ``/HTTPSerializationCodable/RequestBodyFailure``
/// gives: 400 for a malformed body or one that is not the model, 413 past a limit, 415 for
/// another type.
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
    /// Decodes form and multipart bodies; its style, strategies and ``/HTTPSerializationCore/FormDecodingLimits`` apply.
    public var form = FormDecoder()
    /// What a multipart body and each of its parts are held to.
    public var multipart = MultipartParsingLimits()
    /// File parts longer than this many bytes go to a temporary file rather than memory.
    public var spillThreshold = MultipartForm.spillThreshold
    /// Where temporary files go; `TMPDIR`, else `/tmp`, when nil.
    public var temporaryDirectory: URL?
    /// The most bytes of a JSON or form body read; the request context's `maxUploadSize` when nil.
    public var maximumBodySize: Int?

    /// A decoder with the package's defaults.
    public init() {}

    /// Decodes `type` from `request`'s body, by its content type.
    ///
    /// - Throws: `HTTPError` with status 400, 413 or 415 and a message for the client.
    public func decode<T: Decodable>(_ type: T.Type, from request: Request, context: some RequestContext) async throws -> T {
        let contentType = request.headers[.contentType]
        do {
            switch RequestBodyKind(contentType: contentType) {
            case .json:
                let body = try await request.body.collect(upTo: maximumBodySize ?? context.maxUploadSize)
                return try body.withUnsafeReadableBytes { try json.decode(T.self, utf8: $0.bindMemory(to: UInt8.self)) }
            case .form:
                let body = try await request.body.collect(upTo: maximumBodySize ?? context.maxUploadSize)
                return try form.decode(T.self, from: String(decoding: body.readableBytesView, as: UTF8.self))
            case .multipart:
                let received = try await MultipartForm.read(
                    request.body.map(\.readableBytesView), contentType: contentType ?? "", limits: multipart,
                    spillThreshold: spillThreshold, temporaryDirectory: temporaryDirectory)
                return try form.decode(T.self, from: received)
            case .other:
                throw RequestBodyFailure.unsupportedContentType(contentType)
            }
        } catch {
            guard let failure = RequestBodyFailure(error) else { throw error }
            throw HTTPError(HTTPResponse.Status(code: failure.status), message: failure.message)
        }
    }
}

#endif
