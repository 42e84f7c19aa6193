#if Hummingbird
public import Hummingbird
public import HTTPSerializationCodable

extension MultipartFormDecoder: RequestDecoder {
    /// Decodes a `multipart/form-data` body as it streams in, files past the spill threshold
    /// going to temporary files; the body is held to the context's `maxUploadSize` and to
    /// ``/HTTPSerializationCodable/MultipartFormDecoder/limits``, the lower limit winning.
    ///
    /// - Throws: ``/HTTPSerializationCodable/RequestBodyFailure``: 400 for a malformed body or
    ///   one that is not the model, 413 past a limit, 415 for a body of another type, 500 for a
    ///   file that could not be stored.
    public func decode<T: Decodable>(_ type: T.Type, from request: Request, context: some RequestContext) async throws -> T {
        try await decodeBody(T.self, from: request, limit: context.maxUploadSize)
    }

    /// Decodes `request`'s body as it streams in, held to `limit` bytes and to ``/HTTPSerializationCodable/MultipartFormDecoder/limits``.
    func decodeBody<T: Decodable>(_ type: T.Type, from request: Request, limit: Int) async throws -> T {
        let contentType = request.headers[.contentType]
        guard RequestBodyKind(contentType: contentType) == .multipart else {
            throw RequestBodyFailure.unsupportedContentType(contentType)
        }
        var decoder = self
        decoder.limits.maximumBodyBytes = min(limits.maximumBodyBytes ?? limit, limit)
        return try await refusingBody {
            try await decoder.decode(T.self, from: request.body.map(\.readableBytesView), contentType: contentType ?? "")
        }
    }
}
#endif
