#if Hummingbird
public import Hummingbird
public import HTTPSerializationCodable

extension JSONBodyDecoder: RequestDecoder {
    /// Decodes a JSON request body, collected up to the context's `maxUploadSize`: what
    /// Hummingbird's `JSONDecoder` conformance does, with this decoder's strategies and depth
    /// limit and its error messages.
    ///
    /// ```swift
    /// struct AppContext: RequestContext {
    ///     var coreContext: CoreRequestContextStorage
    ///     init(source: ApplicationRequestContextSource) { coreContext = .init(source: source) }
    ///     var requestDecoder: JSONBodyDecoder { JSONBodyDecoder() }
    /// }
    /// ```
    ///
    /// - Throws: ``/HTTPSerializationCodable/RequestBodyFailure``: 400 for malformed JSON or a
    ///   body that is not the model, 413 past the limit.
    public func decode<T: Decodable>(_ type: T.Type, from request: Request, context: some RequestContext) async throws -> T {
        try await decodeBody(T.self, from: request, limit: context.maxUploadSize)
    }

    /// Decodes `request`'s body, collected up to `limit` bytes.
    func decodeBody<T: Decodable>(_ type: T.Type, from request: Request, limit: Int) async throws -> T {
        try await refusingBody {
            let body = try await collectBody(of: request, limit: limit)
            return try body.withUnsafeReadableBytes { try decode(T.self, utf8: $0.bindMemory(to: UInt8.self)) }
        }
    }
}

extension JSONBodyEncoder: ResponseEncoder {
    /// `value` as a 200 JSON response: what Hummingbird's `JSONEncoder` conformance writes
    /// (`application/json; charset=utf-8`, `Content-Length`), with this encoder's strategies.
    public func encode(_ value: some Encodable, from request: Request, context: some RequestContext) throws -> Response {
        var bytes: [UInt8] = []
        try encode(value, appendingTo: &bytes)
        return encodedResponse(bytes, contentType: "application/json; charset=utf-8")
    }
}
#endif
