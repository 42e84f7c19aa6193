#if Vapor
public import HTTPSerializationCodable
public import Vapor

extension FormDecoder: ContentDecoder, URLQueryDecoder {
    /// Decodes a collected `application/x-www-form-urlencoded` body for `req.content.decode(_:)`.
    ///
    /// - Throws: ``RequestBodyAbort`` with status 400 for a malformed form or one that is not the model,
    ///   413 past ``/HTTPSerializationCodable/FormDecoder/limits``.
    public func decode<D: Decodable>(_ decodable: D.Type, from body: ByteBuffer, headers: HTTPHeaders) throws -> D {
        try abortingOnFailure { try decode(D.self, from: String(decoding: body.readableBytesView, as: UTF8.self)) }
    }

    /// Decodes a request's query string for `req.query.decode(_:)`.
    ///
    /// - Throws: as the body's decode.
    public func decode<D: Decodable>(_ decodable: D.Type, from url: URI) throws -> D {
        try abortingOnFailure(readingQuery: true) { try decode(D.self, from: url.query ?? "") }
    }

    /// Decodes a collected form body with `userInfo` added to ``/HTTPSerializationCodable/FormDecoder/userInfo``: how Vapor's
    /// `req.content.get(at:)` passes the path it wants.
    public func decode<D: Decodable>(_ decodable: D.Type, from body: ByteBuffer, headers: HTTPHeaders,
                                     userInfo: [CodingUserInfoKey: any Sendable]) throws -> D {
        try adding(userInfo, to: self, at: \.userInfo).decode(D.self, from: body, headers: headers)
    }

    /// Decodes a query string with `userInfo` added to ``/HTTPSerializationCodable/FormDecoder/userInfo``: how Vapor's
    /// `req.query[_:at:]` and `req.query.get(at:)` pass the path they want.
    public func decode<D: Decodable>(_ decodable: D.Type, from url: URI, userInfo: [CodingUserInfoKey: any Sendable]) throws -> D {
        try adding(userInfo, to: self, at: \.userInfo).decode(D.self, from: url)
    }
}

extension FormEncoder: ContentEncoder, URLQueryEncoder {
    /// Writes `encodable` as a form body with `Content-Type: application/x-www-form-urlencoded; charset=utf-8`.
    public func encode<E: Encodable>(_ encodable: E, to body: inout ByteBuffer, headers: inout HTTPHeaders) throws {
        body.writeString(try encode(encodable))
        headers.contentType = .urlEncodedForm
    }

    /// Sets `url`'s query to the form text of `encodable`.
    public func encode<E: Encodable>(_ encodable: E, to url: inout URI) throws {
        url.query = try encode(encodable)
    }
}
#endif
