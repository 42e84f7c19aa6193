#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import HTTPTypes

/// Serializes parameters as a query string or an `application/x-www-form-urlencoded` body:
/// AFNetworking's `AFHTTPRequestSerializer` as a value type.
///
/// It is also the shared base of ``JSONRequestSerializer`` and the property-list serializer:
/// default headers, authorization, request properties and the methods whose parameters go in
/// the URI all live here.
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
    public typealias QueryStringSerialization = @Sendable (HTTPRequest, ParameterValue) throws -> String

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

    /// What layers above the core keep here: `URLRequest`'s timeout, cache policy, cellular,
    /// cookie, pipelining and service-type settings, read as typed properties there.
    package var layerSettings = LayerSettings()

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

    /// The serializer itself: it is its own base, so the composing API applies to it directly.
    public var base: HTTPRequestSerializer {
        get { self }
        set { self = newValue }
    }

    /// Applies the default headers, then writes `parameters` into the query for the methods in
    /// ``methodsEncodingParametersInURI``; other methods get an `application/x-www-form-urlencoded`
    /// body that replaces `body` (empty when `parameters` is nil).
    ///
    /// - Throws: ``RequestSerializationError`` for an unsafe request, parameters nested past
    ///   ``maximumParameterDepth``, or form text that ``stringEncoding`` cannot hold.
    public func serialize(_ request: HTTPRequest, body: RequestBody, parameters: ParameterValue?) throws -> SerializedRequest {
        let request = try applyingHeaders(to: request)
        let query = try parameters.map { try queryString(for: request, parameters: $0) }
        return try placing(query: query, in: request, body: body)
    }

    /// Puts encoded query text where the method wants it: appended to the URI for the methods
    /// in ``methodsEncodingParametersInURI`` (keeping `body`), otherwise as an
    /// `application/x-www-form-urlencoded` body in ``stringEncoding``. `request` has its headers.
    package func placing(query: String?, in request: HTTPRequest, body: RequestBody) throws -> SerializedRequest {
        var request = request
        if encodesParametersInURI(request.method) {
            if let query, !query.isEmpty {
                var target = RequestTarget(request)
                target.appendQuery(query)
                try target.validate()
                request.path = target.pathAndQuery
            }
            return SerializedRequest(request: request, body: body)
        }
        if request.headerFields[.contentType] == nil {
            request.headerFields[.contentType] = "application/x-www-form-urlencoded"
        }
        // An empty body is a valid form; AFNetworking sends one when parameters are nil.
        guard let data = (query ?? "").data(using: stringEncoding, allowLossyConversion: false) else {
            throw RequestSerializationError.stringEncodingFailed(encoding: stringEncoding.rawValue)
        }
        return SerializedRequest(request: request, body: .bytes(data))
    }

    /// Whether `method` carries parameters in the URI.
    public func encodesParametersInURI(_ method: HTTPRequest.Method) -> Bool {
        methodsEncodingParametersInURI.contains { HTTPHeaderFields.namesMatch($0, method.rawValue) }
    }

    /// The request, checked (``HTTPTypes/HTTPRequest/validateForSending()``), with the default
    /// headers it lacks added after its own.
    ///
    /// - Throws: ``RequestSerializationError/invalidHeaderField(name:reason:)`` or
    ///   ``RequestSerializationError/invalidURL(_:)`` when the request would corrupt what goes on
    ///   the wire.
    public func applyingHeaders(to request: HTTPRequest) throws -> HTTPRequest {
        try request.validateForSending()
        var result = request
        for field in headers {
            guard let name = HTTPField.Name(field.name), request.headerFields[name] == nil else { continue }
            result.headerFields.append(HTTPField(name: name, value: field.value))
        }
        return result
    }

    /// The shape every body format shares: URI methods get a query string from this
    /// serializer; others get the default headers, `contentType` unless one is set, and the
    /// body `encode` makes, when there are parameters.
    package func serializeBody(
        _ request: HTTPRequest, body: RequestBody, parameters: ParameterValue?, contentType: String,
        encode: (ParameterValue) throws -> Data
    ) throws -> SerializedRequest {
        if encodesParametersInURI(request.method) {
            return try serialize(request, body: body, parameters: parameters)
        }
        guard let parameters else { return SerializedRequest(request: try applyingHeaders(to: request), body: body) }
        return try attachingBody(to: request, contentType: contentType) { try encode(parameters) }
    }

    /// The request with the default headers, `contentType` unless one is set, and the body
    /// `encode` makes.
    package func attachingBody(
        to request: HTTPRequest, contentType: String, encode: () throws -> Data
    ) throws -> SerializedRequest {
        var request = try applyingHeaders(to: request)
        if request.headerFields[.contentType] == nil {
            request.headerFields[.contentType] = contentType
        }
        return SerializedRequest(request: request, body: .bytes(try encode()))
    }

    /// A checked method, for either request form. `URLRequest` sends GET, HEAD, POST, PUT,
    /// DELETE and CONNECT in upper case however they were written, so both forms do.
    package static func checkedMethod(_ method: String) throws -> HTTPRequest.Method {
        guard HTTPHeaderFields.isToken(method), let checked = HTTPRequest.Method(method) else {
            throw RequestSerializationError.invalidHTTPMethod(method)
        }
        for standard in uppercasedMethods where HTTPHeaderFields.namesMatch(standard.rawValue, method) {
            return standard
        }
        return checked
    }

    private static let uppercasedMethods: [HTTPRequest.Method] = [.get, .head, .post, .put, .delete, .connect]

    /// A parsed URL, for either request form.
    package static func checkedURL(_ urlString: String) throws -> URL {
        guard let url = URL(string: urlString, encodingInvalidCharacters: false) else {
            throw RequestSerializationError.invalidURL(urlString)
        }
        return url
    }

    /// An `HTTPRequest` for a checked method and URL string, in origin form (`/` for an
    /// empty path); the fragment is dropped, as it never goes on the wire.
    package func makeHTTPRequest(method: String, urlString: String) throws -> HTTPRequest {
        makeHTTPRequest(method: try Self.checkedMethod(method), url: try Self.checkedURL(urlString))
    }

    /// An `HTTPRequest` for a method and URL, in origin form; checked when it is serialized.
    package func makeHTTPRequest(method: HTTPRequest.Method, url: URL) -> HTTPRequest {
        let target = RequestTarget(url.absoluteString)
        return HTTPRequest(method: method, scheme: target.scheme, authority: target.authority, path: target.originForm)
    }

    private func queryString(for request: HTTPRequest, parameters: ParameterValue) throws -> String {
        if let queryStringSerialization {
            return try queryStringSerialization(request, parameters)
        }
        try parameters.checkDepth(limit: maximumParameterDepth)
        return HTTPSerializationCore.queryString(from: parameters, style: queryStringStyle)
    }
}
