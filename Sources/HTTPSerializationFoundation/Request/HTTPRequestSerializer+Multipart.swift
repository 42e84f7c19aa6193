import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import HTTPSerializationCore

extension HTTPRequestSerializerComposing {
    /// AFNetworking's `multipartFormRequestWithMethod:URLString:parameters:constructingBodyWithBlock:`:
    /// the request ``/HTTPSerializationCore/HTTPRequestSerializerComposing/multipartFormHTTPRequest(method:urlString:parameters:boundary:constructingBody:)``
    /// builds, as a `URLRequest` whose body is an `httpBodyStream` of the exact `Content-Length`
    /// (none for an empty form), with the request properties the serializer sets.
    ///
    /// ```swift
    /// var serializer = HTTPRequestSerializer()
    /// serializer.timeoutInterval = 120
    /// let request = try serializer.multipartFormRequest(method: "POST", urlString: uploadURL) { form in
    ///     try form.appendPart(fileURL: photoURL, name: "photo")
    /// }
    /// ```
    public func multipartFormRequest(
        method: String, urlString: String, parameters: ParameterValue? = nil, boundary: String? = nil,
        constructingBody: (inout MultipartFormData) throws -> Void = { _ in }
    ) throws -> URLRequest {
        try urlRequest(multipartFormHTTPRequest(method: method, urlString: urlString, parameters: parameters,
                                                boundary: boundary, constructingBody: constructingBody), urlString: urlString)
    }

    /// A request that sends `form`: the serializer's headers and properties, the form's
    /// `Content-Type` and exact `Content-Length`, and a fresh body stream.
    ///
    /// Keep `form` to send the same body another way
    /// (``/HTTPSerializationCore/MultipartFormData/chunks(size:)`` for async transports,
    /// ``/HTTPSerializationCore/MultipartFormData/writeEncodedBody(to:progress:)`` for a file upload).
    public func request(method: String, urlString: String, multipartForm form: MultipartFormData) throws -> URLRequest {
        try urlRequest(httpRequest(method: method, urlString: urlString, multipartForm: form), urlString: urlString)
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
