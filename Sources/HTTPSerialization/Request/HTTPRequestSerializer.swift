import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Serializes parameters as a query string or an `application/x-www-form-urlencoded` body:
/// AFNetworking's `AFHTTPRequestSerializer` as a value type.
///
/// It is also the shared base of ``JSONRequestSerializer`` and
/// ``PropertyListRequestSerializer``: default headers, authorization, request properties
/// and the methods whose parameters go in the URI all live here.
///
/// ```swift
/// var serializer = HTTPRequestSerializer()
/// try serializer.setAuthorizationHeader(username: "user", password: "password")
/// let request = try serializer.request(method: "POST", urlString: "https://example.com/form",
///                                      parameters: ["key": "value"])
/// // body: key=value, Content-Type: application/x-www-form-urlencoded
/// ```
public struct HTTPRequestSerializer: HTTPRequestSerializerComposing {
    /// Builds the query string from parameters in place of the built-in encoder; its output
    /// is used verbatim (not escaped) and an error it throws propagates unchanged.
    public typealias QueryStringSerialization = @Sendable (URLRequest, ParameterValue) throws -> String

    /// The encoding of the form body's bytes (the escaped text itself is ASCII).
    public var stringEncoding: String.Encoding = .utf8
    /// Headers applied to every request that does not set the same field itself.
    public var headers: HTTPHeaderFields
    /// Methods whose parameters go in the URL query rather than the body; compared
    /// case-insensitively. `GET`, `HEAD` and `DELETE` by default.
    public var methodsEncodingParametersInURI: Set<String> = ["GET", "HEAD", "DELETE"]
    /// How parameters are spelled; AFNetworking's style by default.
    public var queryStringStyle: QueryStringStyle = .afNetworking
    /// Replaces the built-in query encoder when set. Not part of the `Codable` form.
    public var queryStringSerialization: QueryStringSerialization?
    /// Parameter trees nested deeper than this are refused with a typed error.
    public var maximumParameterDepth: Int = ParameterValue.defaultMaximumDepth

    /// Applied to requests made by `request(method:urlString:parameters:)` only when set, so
    /// `URLRequest`'s own defaults stay in force otherwise.
    public var timeoutInterval: TimeInterval?
    public var cachePolicy: URLRequest.CachePolicy?
    public var allowsCellularAccess: Bool?
    public var httpShouldHandleCookies: Bool?
    public var httpShouldUsePipelining: Bool?
    public var networkServiceType: URLRequest.NetworkServiceType?

    /// A serializer with AFNetworking's default headers: `Accept-Language` from the preferred
    /// languages and a `User-Agent` naming this program and system.
    public init() {
        var headers = HTTPHeaderFields()
        // Both values are built from tokens and folded ASCII, so they always validate.
        if let languages = DefaultHeaders.acceptLanguage() {
            try? headers.setValue(languages, forHTTPHeaderField: "Accept-Language")
        }
        try? headers.setValue(DefaultHeaders.userAgent(), forHTTPHeaderField: "User-Agent")
        self.headers = headers
    }

    /// A serializer with exactly these default headers, for reproducible requests.
    public init(headers: HTTPHeaderFields) {
        self.headers = headers
    }

    public var base: HTTPRequestSerializer {
        get { self }
        set { self = newValue }
    }

    public func serialize(_ request: URLRequest, parameters: ParameterValue?) throws -> URLRequest {
        var request = try applyingHeaders(to: request)
        let query = try parameters.map { try queryString(for: request, parameters: $0) }
        if encodesParametersInURI(request) {
            if let query, !query.isEmpty {
                guard let url = request.url else { throw HTTPSerializationError.invalidURL("") }
                request.url = try URLQueryInsertion.url(url, appendingQuery: query)
            }
        } else {
            if request.value(forHTTPHeaderField: "Content-Type") == nil {
                request.setValue("application/x-www-form-urlencoded", forHTTPHeaderField: "Content-Type")
            }
            // An empty body is a valid form; AFNetworking sends one when parameters are nil.
            guard let body = (query ?? "").data(using: stringEncoding, allowLossyConversion: false) else {
                throw HTTPSerializationError.stringEncodingFailed(encoding: stringEncoding.rawValue)
            }
            request.httpBody = body
        }
        return request
    }

    /// Whether `request`'s method carries parameters in the URI.
    public func encodesParametersInURI(_ request: URLRequest) -> Bool {
        let method = request.httpMethod ?? "GET"
        return methodsEncodingParametersInURI.contains { $0.caseInsensitiveCompare(method) == .orderedSame }
    }

    /// The request, checked (``Foundation/URLRequest/validateForSending()``), with the default
    /// headers it lacks added.
    ///
    /// - Throws: ``HTTPSerializationError/invalidHeaderField(name:reason:)``,
    ///   ``HTTPSerializationError/invalidHTTPMethod(_:)`` or ``HTTPSerializationError/invalidURL(_:)``
    ///   when the request would corrupt what goes on the wire.
    public func applyingHeaders(to request: URLRequest) throws -> URLRequest {
        try request.validateForSending()
        var request = request
        for field in headers where request.value(forHTTPHeaderField: field.name) == nil {
            request.setValue(field.value, forHTTPHeaderField: field.name)
        }
        return request
    }

    /// The shape every body format shares: URI methods get a query string from this
    /// serializer; others get the default headers, `contentType` unless one is set, and the
    /// body `encode` makes, when there are parameters.
    func serializeBody(
        _ request: URLRequest, parameters: ParameterValue?, contentType: String,
        encode: (ParameterValue) throws -> Data
    ) throws -> URLRequest {
        if encodesParametersInURI(request) {
            return try serialize(request, parameters: parameters)
        }
        var request = try applyingHeaders(to: request)
        guard let parameters else { return request }
        if request.value(forHTTPHeaderField: "Content-Type") == nil {
            request.setValue(contentType, forHTTPHeaderField: "Content-Type")
        }
        request.httpBody = try encode(parameters)
        return request
    }

    /// A request for a checked method and URL string, with the request properties that were set.
    func makeRequest(method: String, urlString: String) throws -> URLRequest {
        guard HTTPHeaderFields.isToken(method) else { throw HTTPSerializationError.invalidHTTPMethod(method) }
        guard let url = URL(string: urlString, encodingInvalidCharacters: false) else {
            throw HTTPSerializationError.invalidURL(urlString)
        }
        var request = URLRequest(url: url)
        request.httpMethod = method
        applyRequestProperties(to: &request)
        return request
    }

    func applyRequestProperties(to request: inout URLRequest) {
        if let timeoutInterval { request.timeoutInterval = timeoutInterval }
        if let cachePolicy { request.cachePolicy = cachePolicy }
        if let allowsCellularAccess { request.allowsCellularAccess = allowsCellularAccess }
        if let httpShouldHandleCookies { request.httpShouldHandleCookies = httpShouldHandleCookies }
        if let httpShouldUsePipelining { Self.setPipelining(httpShouldUsePipelining, on: &request) }
        if let networkServiceType { request.networkServiceType = networkServiceType }
    }

    /// Foundation deprecates pipelining but AFNetworking exposes it, so it is set through a
    /// protocol requirement rather than the deprecated member directly.
    private static func setPipelining<Request: PipeliningConfigurable>(_ value: Bool, on request: inout Request) {
        request.httpShouldUsePipelining = value
    }

    private func queryString(for request: URLRequest, parameters: ParameterValue) throws -> String {
        if let queryStringSerialization {
            return try queryStringSerialization(request, parameters)
        }
        try parameters.checkDepth(limit: maximumParameterDepth)
        return HTTPSerialization.queryString(from: parameters, style: queryStringStyle)
    }
}

protocol PipeliningConfigurable {
    var httpShouldUsePipelining: Bool { get set }
}

extension URLRequest: PipeliningConfigurable {}
