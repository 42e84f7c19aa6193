#if Vapor
public import HTTPSerializationCodable
public import Vapor

extension JSONBodyDecoder: ContentDecoder {
    /// Decodes a collected JSON body for `req.content.decode(_:)`.
    ///
    /// - Throws: ``RequestBodyAbort`` with status 400 for malformed JSON or a body that is not the model.
    public func decode<D: Decodable>(_ decodable: D.Type, from body: ByteBuffer, headers: HTTPHeaders) throws -> D {
        try abortingOnFailure {
            try body.withUnsafeReadableBytes { try decode(D.self, utf8: $0.bindMemory(to: UInt8.self)) }
        }
    }

    /// Decodes with `userInfo` added to ``/HTTPSerializationCodable/JSONBodyDecoder/userInfo``: how Vapor's `req.content.get(at:)` and
    /// `req.content[_:at:]` pass the path they want.
    public func decode<D: Decodable>(_ decodable: D.Type, from body: ByteBuffer, headers: HTTPHeaders,
                                     userInfo: [CodingUserInfoKey: any Sendable]) throws -> D {
        try adding(userInfo, to: self, at: \.userInfo).decode(D.self, from: body, headers: headers)
    }
}

extension JSONBodyEncoder: ContentEncoder {
    /// Writes `encodable` as a JSON body with `Content-Type: application/json; charset=utf-8`.
    public func encode<E: Encodable>(_ encodable: E, to body: inout ByteBuffer, headers: inout HTTPHeaders) throws {
        var bytes: [UInt8] = []
        try encode(encodable, appendingTo: &bytes)
        body.writeBytes(bytes)
        headers.contentType = .json
    }
}
#endif
