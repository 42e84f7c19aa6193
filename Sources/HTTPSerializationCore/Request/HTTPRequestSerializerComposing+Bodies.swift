#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import HTTPTypes

extension HTTPRequestSerializerComposing {
    /// ``httpRequest(method:urlString:parameters:)`` for a typed method and a parsed URL.
    ///
    /// ```swift
    /// let serialized = try HTTPRequestSerializer().httpRequest(method: .get, url: searchURL, parameters: ["q": "swift"])
    /// ```
    public func httpRequest(method: HTTPRequest.Method, url: URL, parameters: ParameterValue? = nil) throws -> SerializedRequest {
        try serialize(base.makeHTTPRequest(method: method, url: url), parameters: parameters)
    }

    /// A request whose body the caller made: bytes, a file or stream
    /// (``RequestBodyStream``), or a multipart form, sent as it is.
    ///
    /// The serializer adds its default headers and `contentType` unless its headers name one
    /// (a form sends its own type with its boundary unless `contentType` is given); a stream
    /// of known length gets its `Content-Length`. The
    /// serializer's own encoding is not used: this is the way to send a payload that is
    /// already encoded, such as a signed JSON document or a file.
    ///
    /// ```swift
    /// let upload = try HTTPRequestSerializer().httpRequest(
    ///     method: "PUT", urlString: "https://example.com/logo.png",
    ///     body: .stream(RequestBodyStream(fileURL: logoURL)), contentType: "image/png")
    /// ```
    ///
    /// - Throws: ``RequestSerializationError/invalidURL(_:)``,
    ///   ``RequestSerializationError/invalidHTTPMethod(_:)``,
    ///   ``RequestSerializationError/invalidHeaderField(name:reason:)`` for a content type with
    ///   CR, LF or other controls, and ``RequestSerializationError/multipartMethodNotAllowed(_:)``
    ///   for a form on GET or HEAD.
    public func httpRequest(method: String, urlString: String, body: RequestBody, contentType: String? = nil) throws -> SerializedRequest {
        try base.attaching(body, contentType: contentType, to: base.makeHTTPRequest(method: method, urlString: urlString))
    }

    /// `httpRequest(method:urlString:body:contentType:)` for a typed method and a parsed URL.
    public func httpRequest(method: HTTPRequest.Method, url: URL, body: RequestBody, contentType: String? = nil) throws -> SerializedRequest {
        try base.attaching(body, contentType: contentType, to: base.makeHTTPRequest(method: method, url: url))
    }

    /// Bytes in hand sent as they are: `httpRequest(method:urlString:body:contentType:)` with
    /// `.bytes(body)`.
    ///
    /// Spelled out so that `body: data` always means these bytes, never a model to encode
    /// (`Data` is `Encodable` too), as Alamofire's `upload(_: Data, …)` sends them.
    ///
    /// ```swift
    /// let upload = try HTTPRequestSerializer().httpRequest(
    ///     method: "PUT", urlString: "https://example.com/note.txt", body: Data("hello".utf8), contentType: "text/plain")
    /// ```
    public func httpRequest(method: String, urlString: String, body: Data, contentType: String? = nil) throws -> SerializedRequest {
        try httpRequest(method: method, urlString: urlString, body: .bytes(body), contentType: contentType)
    }

    /// The `Data` form above, for a typed method and a parsed URL.
    public func httpRequest(method: HTTPRequest.Method, url: URL, body: Data, contentType: String? = nil) throws -> SerializedRequest {
        try httpRequest(method: method, url: url, body: .bytes(body), contentType: contentType)
    }

    /// A form whose fields keep the caller's order and repeated names, as an HTML form sends
    /// them: `application/x-www-form-urlencoded` in the body, or the query for the methods in
    /// ``HTTPRequestSerializer/methodsEncodingParametersInURI``.
    ///
    /// Where a ``ParameterValue`` dictionary sorts its keys and holds each once, these go out
    /// exactly as listed; names and values are percent-escaped in the serializer's
    /// ``HTTPRequestSerializer/queryStringStyle``.
    ///
    /// ```swift
    /// let form = try HTTPRequestSerializer().httpRequest(
    ///     method: "POST", urlString: "https://example.com/search",
    ///     formFields: [QueryStringPair(field: "tag", value: "b"), QueryStringPair(field: "tag", value: "a")])
    /// // body: tag=b&tag=a
    /// ```
    ///
    /// - Throws: ``RequestSerializationError/invalidURL(_:)``,
    ///   ``RequestSerializationError/invalidHTTPMethod(_:)``, and
    ///   ``RequestSerializationError/stringEncodingFailed(encoding:)`` when the serializer's
    ///   ``HTTPRequestSerializer/stringEncoding`` cannot hold the text.
    public func httpRequest(method: String, urlString: String, formFields: [QueryStringPair]) throws -> SerializedRequest {
        try base.placing(formFields: formFields, in: base.makeHTTPRequest(method: method, urlString: urlString))
    }

    /// ``httpRequest(method:urlString:formFields:)`` for a typed method and a parsed URL.
    public func httpRequest(method: HTTPRequest.Method, url: URL, formFields: [QueryStringPair]) throws -> SerializedRequest {
        try base.placing(formFields: formFields, in: base.makeHTTPRequest(method: method, url: url))
    }

    /// ``httpRequest(method:urlString:multipartForm:)`` for a typed method and a parsed URL.
    public func httpRequest(method: HTTPRequest.Method, url: URL, multipartForm form: MultipartFormData) throws -> SerializedRequest {
        try base.multipartRequest(base.makeHTTPRequest(method: method, url: url), form: form)
    }
}

extension HTTPRequestSerializer {
    /// The one place a caller's body becomes a request, for both request forms.
    package func attaching(_ body: RequestBody, contentType: String?, to request: HTTPRequest) throws -> SerializedRequest {
        if case .multipart(let form) = body {
            var serialized = try multipartRequest(request, form: form)
            if let contentType { try Self.setContentType(contentType, on: &serialized.request, replacing: true) }
            return serialized
        }
        var request = try applyingHeaders(to: request)
        if let contentType { try Self.setContentType(contentType, on: &request, replacing: false) }
        if case .stream = body, let length = body.length {
            request.headerFields[.contentLength] = String(length)
        }
        return SerializedRequest(request: request, body: body)
    }

    /// Ordered fields escaped one by one and joined, placed as the method wants them.
    package func placing(formFields: [QueryStringPair], in request: HTTPRequest) throws -> SerializedRequest {
        let text = formFields.map { $0.urlEncodedString(style: queryStringStyle) }.joined(separator: "&")
        return try placing(query: text, in: applyingHeaders(to: request), body: .none)
    }

    private static func setContentType(_ value: String, on request: inout HTTPRequest, replacing: Bool) throws {
        try HTTPHeaderFields.validate(name: "Content-Type", value: value)
        if replacing || request.headerFields[.contentType] == nil {
            request.headerFields[.contentType] = value
        }
    }
}
