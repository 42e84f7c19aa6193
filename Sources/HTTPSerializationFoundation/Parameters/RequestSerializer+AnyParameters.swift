import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import HTTPSerializationCore
import HTTPTypes

// Every entry point that takes `parameters:` also takes a `[String: Any]` (and so Alamofire's
// `[String: any Sendable]`), converted by `ParameterValue(any:)` with its typed errors. The
// overloads are disfavored so that a dictionary literal still builds a `ParameterValue`.

extension ParameterValue {
    /// `parameters` as a tree, within the serializer's depth limit.
    static func converting(_ parameters: [String: Any]?, maximumDepth: Int) throws -> ParameterValue? {
        try parameters.map { try ParameterValue(any: $0, maximumDepth: maximumDepth) }
    }
}

extension RequestSerializer {
    /// The depth limit a serializer sets, for the conversion to keep to the same one.
    private var parameterDepthLimit: Int {
        (self as? any HTTPRequestSerializerComposing)?.base.maximumParameterDepth ?? ParameterValue.defaultMaximumDepth
    }

    /// `serialize(_:parameters:)` for a `[String: Any]`, as AFNetworking and Alamofire take them.
    ///
    /// - Throws: ``/HTTPSerializationCore/RequestSerializationError/invalidParameter(path:reason:)``
    ///   for a value with no parameter form,
    ///   ``/HTTPSerializationCore/RequestSerializationError/nestingTooDeep(path:limit:)`` past the
    ///   serializer's depth limit, and what the `ParameterValue` form throws.
    @_disfavoredOverload
    public func serialize(_ request: URLRequest, parameters: [String: Any]?) throws -> URLRequest {
        try serialize(request, parameters: ParameterValue.converting(parameters, maximumDepth: parameterDepthLimit))
    }

    /// `serialize(_:parameters:)` over swift-http-types for a `[String: Any]`.
    ///
    /// - Throws: ``/HTTPSerializationCore/RequestSerializationError/invalidParameter(path:reason:)``
    ///   for a value with no parameter form,
    ///   ``/HTTPSerializationCore/RequestSerializationError/nestingTooDeep(path:limit:)`` past the
    ///   serializer's depth limit, and what the `ParameterValue` form throws.
    @_disfavoredOverload
    public func serialize(_ request: HTTPRequest, parameters: [String: Any]?) throws -> SerializedRequest {
        try serialize(request, parameters: ParameterValue.converting(parameters, maximumDepth: parameterDepthLimit))
    }
}

extension HTTPRequestSerializerComposing {
    /// `request(method:urlString:parameters:)` for a `[String: Any]`.
    ///
    /// ```swift
    /// let legacy: [String: Any] = ["page": 2, "tags": ["a", "b"]]
    /// let request = try HTTPRequestSerializer().request(method: "GET", urlString: "https://example.com/search", parameters: legacy)
    /// ```
    ///
    /// - Throws: ``/HTTPSerializationCore/RequestSerializationError/invalidParameter(path:reason:)``
    ///   for a value with no parameter form,
    ///   ``/HTTPSerializationCore/RequestSerializationError/nestingTooDeep(path:limit:)`` past the
    ///   serializer's depth limit, and what the `ParameterValue` form throws.
    @_disfavoredOverload
    public func request(method: String, urlString: String, parameters: [String: Any]?) throws -> URLRequest {
        try urlRequest(httpRequest(method: method, urlString: urlString, parameters: parameters), urlString: urlString)
    }

    /// `httpRequest(method:urlString:parameters:)` for a `[String: Any]`.
    ///
    /// - Throws: ``/HTTPSerializationCore/RequestSerializationError/invalidParameter(path:reason:)``
    ///   for a value with no parameter form,
    ///   ``/HTTPSerializationCore/RequestSerializationError/nestingTooDeep(path:limit:)`` past the
    ///   serializer's depth limit, and what the `ParameterValue` form throws.
    @_disfavoredOverload
    public func httpRequest(method: String, urlString: String, parameters: [String: Any]?) throws -> SerializedRequest {
        try httpRequest(method: method, urlString: urlString, parameters: ParameterValue.converting(parameters, maximumDepth: base.maximumParameterDepth))
    }

    /// `httpRequest(method:url:parameters:)` for a `[String: Any]`.
    ///
    /// - Throws: ``/HTTPSerializationCore/RequestSerializationError/invalidParameter(path:reason:)``
    ///   for a value with no parameter form,
    ///   ``/HTTPSerializationCore/RequestSerializationError/nestingTooDeep(path:limit:)`` past the
    ///   serializer's depth limit, and what the `ParameterValue` form throws.
    @_disfavoredOverload
    public func httpRequest(method: HTTPRequest.Method, url: URL, parameters: [String: Any]?) throws -> SerializedRequest {
        try httpRequest(method: method, url: url, parameters: ParameterValue.converting(parameters, maximumDepth: base.maximumParameterDepth))
    }

    /// `multipartFormRequest(method:urlString:parameters:boundary:constructingBody:)`
    /// for a `[String: Any]`.
    ///
    /// - Parameters:
    ///   - method: the HTTP method; GET and HEAD cannot carry a form.
    ///   - urlString: the absolute URL to send the form to.
    ///   - parameters: values sent as form fields before the parts.
    ///   - boundary: a fixed boundary for reproducible bodies; random when nil.
    ///   - constructingBody: appends the form's parts.
    /// - Throws: ``/HTTPSerializationCore/RequestSerializationError/invalidParameter(path:reason:)``
    ///   for a value with no parameter form,
    ///   ``/HTTPSerializationCore/RequestSerializationError/nestingTooDeep(path:limit:)`` past the
    ///   serializer's depth limit, and what the `ParameterValue` form throws.
    @_disfavoredOverload
    public func multipartFormRequest(
        method: String, urlString: String, parameters: [String: Any]?, boundary: String? = nil,
        constructingBody: (inout MultipartFormData) throws -> Void = { _ in }
    ) throws -> URLRequest {
        try urlRequest(multipartFormHTTPRequest(method: method, urlString: urlString, parameters: parameters,
                                                boundary: boundary, constructingBody: constructingBody), urlString: urlString)
    }

    /// `multipartFormHTTPRequest(method:urlString:parameters:boundary:constructingBody:)` for a `[String: Any]`.
    ///
    /// - Parameters:
    ///   - method: the HTTP method; GET and HEAD cannot carry a form.
    ///   - urlString: the absolute URL to send the form to.
    ///   - parameters: values sent as form fields before the parts.
    ///   - boundary: a fixed boundary for reproducible bodies; random when nil.
    ///   - constructingBody: appends the form's parts.
    /// - Throws: ``/HTTPSerializationCore/RequestSerializationError/invalidParameter(path:reason:)``
    ///   for a value with no parameter form,
    ///   ``/HTTPSerializationCore/RequestSerializationError/nestingTooDeep(path:limit:)`` past the
    ///   serializer's depth limit, and what the `ParameterValue` form throws.
    @_disfavoredOverload
    public func multipartFormHTTPRequest(
        method: String, urlString: String, parameters: [String: Any]?, boundary: String? = nil,
        constructingBody: (inout MultipartFormData) throws -> Void = { _ in }
    ) throws -> SerializedRequest {
        try multipartFormHTTPRequest(method: method, urlString: urlString,
                                     parameters: ParameterValue.converting(parameters, maximumDepth: base.maximumParameterDepth),
                                     boundary: boundary, constructingBody: constructingBody)
    }
}
