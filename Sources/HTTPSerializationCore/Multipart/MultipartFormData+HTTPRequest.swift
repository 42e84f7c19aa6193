#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import HTTPTypes

extension HTTPRequestSerializerComposing {
    /// Builds a `multipart/form-data` request whose body is the form itself, streamed by the
    /// transport with its exact length.
    ///
    /// Parameters become form fields first (query-pair names such as `user[tags][]`, `Data`
    /// raw, null empty), then `constructingBody` appends parts. The request gets
    /// `Content-Type` with the boundary and the exact `Content-Length`; an empty form leaves it
    /// without a body.
    ///
    /// ```swift
    /// let upload = try HTTPRequestSerializer().multipartFormHTTPRequest(
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
    /// - Throws: ``RequestSerializationError/multipartMethodNotAllowed(_:)`` for GET and HEAD,
    ///   and whatever building the form throws.
    public func multipartFormHTTPRequest(
        method: String, urlString: String, parameters: ParameterValue? = nil, boundary: String? = nil,
        constructingBody: (inout MultipartFormData) throws -> Void = { _ in }
    ) throws -> SerializedRequest {
        try httpRequest(method: method, urlString: urlString,
                        multipartForm: makeMultipartForm(parameters: parameters, boundary: boundary, constructingBody: constructingBody))
    }

    /// An `HTTPRequest` that sends `form`: the serializer's headers, the form's `Content-Type`
    /// and exact `Content-Length`, and the form as the body (none when the form is empty).
    ///
    /// - Throws: ``RequestSerializationError/multipartMethodNotAllowed(_:)`` for GET and HEAD.
    public func httpRequest(method: String, urlString: String, multipartForm form: MultipartFormData) throws -> SerializedRequest {
        try HTTPRequestSerializer.checkMultipartMethod(method)
        return try base.multipartRequest(base.makeHTTPRequest(method: method, urlString: urlString), form: form)
    }

    /// The form `multipartFormRequest` sends: parameters as fields first, then the parts
    /// `constructingBody` appends.
    package func makeMultipartForm(
        parameters: ParameterValue?, boundary: String?, constructingBody: (inout MultipartFormData) throws -> Void
    ) throws -> MultipartFormData {
        var form = try boundary.map(MultipartFormData.init(boundary:)) ?? MultipartFormData()
        if let parameters {
            try form.appendParts(from: parameters, style: base.queryStringStyle, stringEncoding: base.stringEncoding)
        }
        try constructingBody(&form)
        return form
    }
}

extension HTTPRequestSerializer {
    /// The one place a form becomes a request, for both request forms.
    package func multipartRequest(_ request: HTTPRequest, form: MultipartFormData) throws -> SerializedRequest {
        try Self.checkMultipartMethod(request.method.rawValue)
        var request = try applyingHeaders(to: request)
        guard !form.isEmpty else { return SerializedRequest(request: request) }
        request.headerFields[.contentType] = form.contentType
        request.headerFields[.contentLength] = String(form.contentLength)
        return SerializedRequest(request: request, body: .multipart(form))
    }

    /// GET and HEAD have no body to carry a form.
    package static func checkMultipartMethod(_ method: String) throws {
        guard !["GET", "HEAD"].contains(method.uppercased()) else {
            throw RequestSerializationError.multipartMethodNotAllowed(method)
        }
    }
}
