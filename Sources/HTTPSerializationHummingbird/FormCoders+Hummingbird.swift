#if Hummingbird
public import Hummingbird
public import HummingbirdCore
public import HTTPSerializationCodable

extension FormDecoder: RequestDecoder {
    /// Decodes an `application/x-www-form-urlencoded` body, collected up to the context's
    /// `maxUploadSize`: what Hummingbird's `URLEncodedFormDecoder` conformance does, with
    /// this decoder's style, strategies and ``/HTTPSerializationCore/FormDecodingLimits``.
    ///
    /// - Throws: ``/HTTPSerializationCodable/RequestBodyFailure``: 400 for a malformed form or
    ///   one that is not the model, 413 past a limit.
    public func decode<T: Decodable>(_ type: T.Type, from request: Request, context: some RequestContext) async throws -> T {
        try await decodeBody(T.self, from: request, limit: context.maxUploadSize)
    }

    /// Decodes `request`'s body, collected up to `limit` bytes.
    func decodeBody<T: Decodable>(_ type: T.Type, from request: Request, limit: Int) async throws -> T {
        try await refusingBody {
            let body = try await collectBody(of: request, limit: limit)
            return try decode(T.self, from: String(decoding: body.readableBytesView, as: UTF8.self))
        }
    }
}

extension FormEncoder: ResponseEncoder {
    /// `value` as a 200 form response (`application/x-www-form-urlencoded`, `Content-Length`):
    /// what Hummingbird's `URLEncodedFormEncoder` conformance writes, in this encoder's style.
    public func encode(_ value: some Encodable, from request: Request, context: some RequestContext) throws -> Response {
        encodedResponse(try encode(value).utf8, contentType: "application/x-www-form-urlencoded")
    }
}

extension URI {
    /// Decodes the query string with `decoder`: Hummingbird's `decodeQuery(as:context:)`
    /// with this package's form decoding (nested keys, its limits, its strategies).
    ///
    /// ```swift
    /// router.get("/search") { request, context in
    ///     try request.uri.decodeQuery(as: Search.self, using: context.requestDecoder.form, context: context)
    /// }
    /// ```
    ///
    /// - Throws: ``/HTTPSerializationCodable/RequestBodyFailure``: 400 for a malformed query
    ///   or one that is not the model, naming the field; 414 past the decoder's limits. It is
    ///   logged at debug level on the context's logger, cause included, as Hummingbird logs its own.
    public func decodeQuery<T: Decodable>(as type: T.Type = T.self, using decoder: FormDecoder,
                                          context: some RequestContext) throws -> T {
        do {
            return try decoder.decode(T.self, from: query ?? "")
        } catch {
            guard let failure = RequestBodyFailure(queryError: error) else { throw error }
            // As Hummingbird's own decodeQuery logs a refusal.
            context.logger.debug("Decode Error: \(failure)")
            throw failure
        }
    }
}
#endif
