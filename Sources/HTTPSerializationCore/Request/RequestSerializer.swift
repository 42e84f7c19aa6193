#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import HTTPTypes

/// Turns a request and parameters into the request to send: AFNetworking's
/// `requestBySerializingRequest:withParameters:error:`, over swift-http-types.
///
/// Conform to it to plug a body format of your own into code written against the protocol;
/// the `URLRequest` form (`serialize(_:parameters:)` taking a `URLRequest`) comes with the
/// `HTTPSerialization` product for every conformer.
public protocol RequestSerializer: Sendable {
    /// Returns `request` with default headers applied and `parameters` encoded into its target
    /// or body; a serializer that has nothing to encode returns `body` as it came.
    func serialize(_ request: HTTPRequest, body: RequestBody, parameters: ParameterValue?) throws -> SerializedRequest
}

extension RequestSerializer {
    /// Serializes a request that has no body yet.
    public func serialize(_ request: HTTPRequest, parameters: ParameterValue?) throws -> SerializedRequest {
        try serialize(request, body: .none, parameters: parameters)
    }
}

/// A serializer built around an ``HTTPRequestSerializer`` that holds its shared behaviour:
/// headers, authorization, request properties and which methods carry parameters in the URI.
///
/// Conformers get the base's header and request-building API for free, and (when marked
/// `@dynamicMemberLookup`) its properties: `json.maximumParameterDepth = 10`.
public protocol HTTPRequestSerializerComposing: RequestSerializer {
    /// The shared configuration every body format starts from.
    var base: HTTPRequestSerializer { get set }
}

extension HTTPRequestSerializerComposing {
    /// The base serializer's properties, read and written through this serializer.
    public subscript<Value>(dynamicMember keyPath: WritableKeyPath<HTTPRequestSerializer, Value>) -> Value {
        get { base[keyPath: keyPath] }
        set { base[keyPath: keyPath] = newValue }
    }

    /// The default value of a header field, matched case-insensitively, or nil.
    public func value(forHTTPHeaderField field: String) -> String? {
        base.headers.value(forHTTPHeaderField: field)
    }

    /// Sets or, with `nil`, removes a header applied to every request that does not set it.
    ///
    /// - Throws: ``RequestSerializationError/invalidHeaderField(name:reason:)`` for CR, LF, NUL
    ///   or other control characters, or a name that is not a token.
    public mutating func setValue(_ value: String?, forHTTPHeaderField field: String) throws {
        try base.headers.setValue(value, forHTTPHeaderField: field)
    }

    /// Sets `Authorization: Basic …` from a user name and password (RFC 7617, UTF-8).
    ///
    /// - Throws: ``RequestSerializationError/invalidCredentials(reason:)`` when the user name
    ///   contains `:`, which the scheme cannot carry.
    public mutating func setAuthorizationHeader(username: String, password: String) throws {
        guard !username.contains(":") else {
            throw RequestSerializationError.invalidCredentials(reason: "a Basic user name cannot contain \":\"")
        }
        let token = Data("\(username):\(password)".utf8).base64EncodedString()
        try setValue("Basic \(token)", forHTTPHeaderField: "Authorization")
    }

    /// Sets `Authorization: Bearer <token>` (RFC 6750): OAuth 2 access tokens, JWTs, API keys.
    ///
    /// The token is sent as given. RFC 6750's `b64token` allows letters, digits, `-._~+/` and
    /// trailing `=`; other visible ASCII is accepted too, as Alamofire and HTTPie send it.
    ///
    /// ```swift
    /// var serializer = HTTPRequestSerializer()
    /// try serializer.setAuthorizationHeader(bearerToken: "eyJhbGciOiJIUzI1NiJ9.e30.c2lnbg")
    /// ```
    ///
    /// - Throws: ``RequestSerializationError/invalidCredentials(reason:)`` for an empty token or
    ///   one holding a space, a control character or non-ASCII text, which would not arrive as
    ///   one token.
    public mutating func setAuthorizationHeader(bearerToken token: String) throws {
        guard !token.isEmpty else {
            throw RequestSerializationError.invalidCredentials(reason: "a Bearer token cannot be empty")
        }
        guard token.utf8.allSatisfy({ (0x21...0x7E).contains($0) }) else {
            throw RequestSerializationError.invalidCredentials(
                reason: "a Bearer token is visible ASCII without spaces or control characters")
        }
        try setValue("Bearer \(token)", forHTTPHeaderField: "Authorization")
    }

    /// Removes the default `Authorization` header.
    public mutating func clearAuthorizationHeader() {
        // A nil value with a valid token name cannot fail validation.
        try? setValue(nil, forHTTPHeaderField: "Authorization")
    }

    /// Builds an `HTTPRequest` for a method and URL string and serializes the parameters into
    /// it: the swift-http-types form of `request(method:urlString:parameters:)`.
    ///
    /// ```swift
    /// let serialized = try HTTPRequestSerializer().httpRequest(
    ///     method: "GET", urlString: "https://example.com/search", parameters: ["q": "swift"])
    /// serialized.request.path  // "/search?q=swift"
    /// ```
    ///
    /// - Throws: ``RequestSerializationError/invalidURL(_:)``,
    ///   ``RequestSerializationError/invalidHTTPMethod(_:)``, and whatever serializing throws.
    public func httpRequest(method: String, urlString: String, parameters: ParameterValue? = nil) throws -> SerializedRequest {
        try serialize(base.makeHTTPRequest(method: method, urlString: urlString), parameters: parameters)
    }
}
