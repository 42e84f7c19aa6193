#if Vapor
public import HTTPSerializationCodable
public import HTTPSerializationCore
public import Vapor

extension MultipartFormDecoder: ContentDecoder {
    /// Decodes a collected `multipart/form-data` body for `req.content.decode(_:)`.
    ///
    /// Vapor collects a body before the route runs unless the route asks for a stream; for
    /// uploads larger than that, register the route with `body: .stream` and call
    /// `req.decodeMultipart(_:)`, which reads the parts as they arrive.
    ///
    /// - Throws: ``RequestBodyAbort`` with status 400 for a malformed body or one that is not the model,
    ///   413 past ``/HTTPSerializationCodable/MultipartFormDecoder/limits``, 500 for a file that could not be stored.
    public func decode<D: Decodable>(_ decodable: D.Type, from body: ByteBuffer, headers: HTTPHeaders) throws -> D {
        try abortingOnFailure {
            try decode(D.self, from: body.readableBytesView, contentType: headers.first(name: .contentType) ?? "")
        }
    }

    /// Decodes a collected body with `userInfo` added to its form decoder's: how Vapor's
    /// `req.content.get(at:)` passes the path it wants.
    public func decode<D: Decodable>(_ decodable: D.Type, from body: ByteBuffer, headers: HTTPHeaders,
                                     userInfo: [CodingUserInfoKey: any Sendable]) throws -> D {
        try adding(userInfo, to: self, at: \.form.userInfo).decode(D.self, from: body, headers: headers)
    }
}

extension Request {
    /// Decodes a `multipart/form-data` body into `type` as it streams in, files past the
    /// decoder's spill threshold going to temporary files.
    ///
    /// Register the route with `body: .stream` so that Vapor does not collect the body
    /// first; on other routes this reads the collected body. Vapor sets no limit on a streamed
    /// body, so the decoder's limits are the route's: when `decoder` is nil, the app's
    /// (`app.httpSerializationCoders?.multipart`, set by `app.useHTTPSerialization(_:)`), else
    /// the one registered for `multipart/form-data` if it is this package's, else the defaults
    /// with a warning logged.
    ///
    /// ```swift
    /// app.on(.POST, "upload", body: .stream) { req in
    ///     let upload = try await req.decodeMultipart(Upload.self)
    ///     return upload.title
    /// }
    /// ```
    ///
    /// - Throws: ``RequestBodyAbort`` with status 400 for a malformed body or one that is not the model,
    ///   413 past the limits, 415 for a body of another type, 500 for a file that could not be stored.
    public func decodeMultipart<D: Decodable>(_ type: D.Type, using decoder: MultipartFormDecoder? = nil) async throws -> D {
        let decoder = try multipartDecoder(decoder)
        return try await abortingOnFailure {
            try decoder.form.decode(D.self, from: await readMultipart(with: decoder))
        }
    }

    /// Reads a `multipart/form-data` body's fields and files as it streams in.
    ///
    /// - Throws: as ``decodeMultipart(_:using:)``.
    public func multipartForm(using decoder: MultipartFormDecoder? = nil) async throws -> MultipartForm {
        let decoder = try multipartDecoder(decoder)
        return try await abortingOnFailure { try await readMultipart(with: decoder) }
    }

    private func multipartDecoder(_ given: MultipartFormDecoder?) throws -> MultipartFormDecoder {
        // Compared by name: Vapor's `==` also lets `*/*` and `multipart/*` through.
        guard let media = headers.contentType, media.type.lowercased() == "multipart", media.subType.lowercased() == "form-data" else {
            throw RequestBodyAbort(.unsupportedContentType(headers.first(name: .contentType)))
        }
        if let given { return given }
        if let coders = application.httpSerializationCoders { return coders.multipart }
        if let registered = (try? ContentConfiguration.global.requireDecoder(for: .formData)) as? MultipartFormDecoder { return registered }
        logger.warning("""
            This upload is read with HTTPSerialization's default limits (1 GiB a body, 100 files on disk): \
            set them with app.useHTTPSerialization(_:).
            """)
        return MultipartFormDecoder()
    }

    private func readMultipart(with decoder: MultipartFormDecoder) async throws -> MultipartForm {
        try await decoder.read(body.map(\.readableBytesView), contentType: headers.first(name: .contentType) ?? "")
    }
}
#endif
