import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import HTTPSerializationCore

extension HTTPRequestSerializerComposing {
    /// Builds a `multipart/form-data` request: AFNetworking's
    /// `multipartFormRequestWithMethod:URLString:parameters:constructingBodyWithBlock:`.
    ///
    /// Parameters become form fields first (query-pair names such as `user[tags][]`, `Data`
    /// raw, null empty), then `constructingBody` appends parts. The request gets
    /// `Content-Type` with the boundary, the exact `Content-Length`, and the body as
    /// `httpBodyStream`; an empty form leaves it without a body.
    ///
    /// ```swift
    /// let request = try HTTPRequestSerializer().multipartFormRequest(
    ///     method: "POST", urlString: "https://example.com/upload", parameters: ["key": "value"]
    /// ) { form in
    ///     try form.appendPart(fileData: Data("Data".utf8), name: "DataName", fileName: "DataFileName", mimeType: "data")
    /// }
    /// ```
    ///
    /// - Parameters:
    ///   - method: the HTTP method; GET and HEAD cannot carry a form.
    ///   - urlString: the absolute URL to send the form to.
    ///   - parameters: values sent as form fields before the parts.
    ///   - boundary: a fixed boundary for reproducible bodies; random when nil.
    ///   - constructingBody: appends the form's parts.
    /// - Throws: ``/HTTPSerializationCore/RequestSerializationError/multipartMethodNotAllowed(_:)`` for GET
    ///   and HEAD, and whatever building the form throws.
    public func multipartFormRequest(
        method: String, urlString: String, parameters: ParameterValue? = nil, boundary: String? = nil,
        constructingBody: (inout MultipartFormData) throws -> Void = { _ in }
    ) throws -> URLRequest {
        try request(method: method, urlString: urlString,
                    multipartForm: makeMultipartForm(parameters: parameters, boundary: boundary, constructingBody: constructingBody))
    }

    /// A request that sends `form`: the serializer's headers and properties, the form's
    /// `Content-Type` and exact `Content-Length`, and a fresh body stream.
    ///
    /// Keep `form` to send the same body another way
    /// (``/HTTPSerializationCore/MultipartFormData/chunks(size:)`` for async transports,
    /// ``/HTTPSerializationCore/MultipartFormData/writeEncodedBody(to:progress:)`` for a file upload).
    public func request(method: String, urlString: String, multipartForm form: MultipartFormData) throws -> URLRequest {
        try HTTPRequestSerializer.checkMultipartMethod(method)
        let request = try base.makeRequest(method: method, urlString: urlString)
        let parts = try request.serializationParts()
        return try request.applying(base.multipartRequest(parts.request, form: form), fragment: parts.target.fragment)
    }

    /// Writes a request's body stream to a file and returns the request without it: for
    /// `URLSession.upload(for:fromFile:)`, which sends a real `Content-Length` where a stream
    /// would go chunked. AFNetworking's `requestWithMultipartFormRequest:writingStreamContentsToFile:`.
    ///
    /// A form or stream this package made is written with a fresh reader; any other stream is
    /// copied as it reads. A failed write removes the partial file.
    ///
    /// - Throws:
    ///   ``/HTTPSerializationCore/RequestSerializationError/multipartSourceUnavailable(part:reason:)`` when
    ///   the request has no body stream, and any error reading or writing the body.
    public func request(withMultipartFormRequest request: URLRequest, writingStreamContentsTo fileURL: URL) async throws -> URLRequest {
        guard request.httpBodyStream != nil else {
            throw RequestSerializationError.multipartSourceUnavailable(part: "the request body", reason: "the request has no body stream")
        }
        try await SerializedRequest(request).body.write(to: fileURL)
        var result = request
        result.httpBodyStream = nil
        return result
    }
}
