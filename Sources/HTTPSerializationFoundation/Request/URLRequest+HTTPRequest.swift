import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import HTTPTypes
import HTTPSerializationCore

/// The bridge every `URLRequest` entry point goes through: the request is taken apart into
/// an `HTTPRequest` and body, serialized by the one implementation, and the result written
/// back onto a copy of the original, so its timeout, cache policy and other properties stay.
extension URLRequest {
    /// The head, body and target of this request, checked for sending.
    func serializationParts() throws -> (request: HTTPRequest, body: RequestBody, target: RequestTarget) {
        let method = try HTTPRequestSerializer.checkedMethod(httpMethod ?? "GET")
        guard let url else { throw RequestSerializationError.invalidURL("") }
        let target = RequestTarget(url.absoluteString)
        var fields = HTTPFields()
        // URLRequest keeps one value per name; sorted so the head is the same every run.
        for (name, value) in (allHTTPHeaderFields ?? [:]).sorted(by: { $0.key < $1.key }) {
            try HTTPHeaderFields.validate(name: name, value: value)
            guard let fieldName = HTTPField.Name(name) else {
                throw RequestSerializationError.invalidHeaderField(name: name, reason: "the name is not an RFC 9110 token")
            }
            fields.append(HTTPField(name: fieldName, value: value))
        }
        // The fields were checked above, before HTTPFields could turn CR or LF into spaces.
        try target.validate()
        let head = HTTPRequest(method: method, scheme: target.scheme, authority: target.authority,
                               path: target.originForm, headerFields: fields)
        let body: RequestBody
        if let httpBody {
            body = .bytes(httpBody)
        } else if let stream = httpBodyStream as? RequestBodyInputStream {
            // The one place a body comes back out of an InputStream: a form or stream this
            // package made, recovered whole so it can be replayed and its length known.
            body = stream.body
        } else {
            body = .none
        }
        return (head, body, target)
    }

    /// A copy of this request carrying what a serializer made of its parts: target, header
    /// fields and body. A body of `.none` leaves the request's own body (a stream the
    /// serializer could not see) in place.
    ///
    /// The URL keeps how `written` spells it where the head cannot: its fragment, and no `/`
    /// where it names a host but no path (`http://host?q=1&k=v`, as AFNetworking kept it; the
    /// request line asks for `/` either way).
    func applying(_ serialized: SerializedRequest, as written: RequestTarget) throws -> URLRequest {
        var result = self
        var target = RequestTarget(serialized.request)
        target.fragment = written.fragment
        if written.originForm != written.pathAndQuery, target.pathAndQuery.hasPrefix("/") {
            target.pathAndQuery.removeFirst()
        }
        let text = target.urlString
        if text != url?.absoluteString {
            guard let url = URL(string: text, encodingInvalidCharacters: false) else {
                throw RequestSerializationError.invalidURL(text)
            }
            result.url = url
        }
        result.write(serialized)
        return result
    }

    /// Writes a serialized request's fields (repeated ones joined with commas, as
    /// `URLRequest` holds one value per name) and its body; `.none` leaves the body alone.
    private mutating func write(_ serialized: SerializedRequest) {
        httpMethod = serialized.request.method.rawValue
        for field in serialized.request.headerFields {
            setValue(serialized.request.headerFields[field.name], forHTTPHeaderField: field.name.rawName)
        }
        switch serialized.body {
        case .none:
            break
        case .bytes(let data):
            httpBody = data
        case .multipart, .stream:
            // A fresh stream over the same body; it reads the parts or the source lazily.
            httpBodyStream = serialized.body.makeInputStream()
        }
    }

    /// A request serialized by this package, as `URLRequest`: the Foundation edge of the one
    /// request path, for `URLSession` and code that takes a `URLRequest`.
    ///
    /// Method, URL, header fields and body carry over; a form or stream body becomes a fresh
    /// `httpBodyStream` that reads it lazily, and `SerializedRequest(_: URLRequest)`
    /// turns it back into the same body. Settings that only `URLRequest` has (timeout, cache
    /// policy) keep `URLRequest`'s defaults.
    ///
    /// ```swift
    /// let serialized = try HTTPRequestSerializer().httpRequest(method: .post, url: formURL, parameters: ["a": "1"])
    /// let (data, response) = try await URLSession.shared.data(for: URLRequest(serialized))
    /// ```
    ///
    /// - Throws: ``/HTTPSerializationCore/RequestSerializationError/invalidURL(_:)`` or
    ///   ``/HTTPSerializationCore/RequestSerializationError/invalidHeaderField(name:reason:)`` for a
    ///   request that would corrupt the wire.
    public init(_ serialized: SerializedRequest) throws {
        try serialized.request.validateForSending()
        let text = serialized.urlString
        guard let url = URL(string: text, encodingInvalidCharacters: false) else {
            throw RequestSerializationError.invalidURL(text)
        }
        self.init(url: url)
        write(serialized)
    }

    /// The body to send: `body` (what ``serializationParts()`` found), or a stream of another
    /// kind, read once as it is sent (its length from `Content-Length` when the request has one).
    /// The stream is taken over: the `URLRequest` it came from must not be read again.
    func bodyForSending(_ body: RequestBody) throws -> RequestBody {
        guard case .none = body, let stream = httpBodyStream else { return body }
        let length = value(forHTTPHeaderField: "Content-Length").flatMap { UInt64($0) }
        return .stream(try RequestBodyStream(stream: InputStreamPart(stream), length: length))
    }

    /// Checks that the request can be written as HTTP without corrupting it: an RFC 9110
    /// token for a method, a URL whose parts hold only the characters RFC 3986 allows there
    /// (with a host for `http` and `https`), and
    /// header fields without CR, LF, NUL or other controls.
    ///
    /// Every serializer runs it on the request it is handed, and both transport helpers on
    /// the request they send, so a method such as `"GET\r\nX: 1"` can never split a request.
    ///
    /// - Throws: ``/HTTPSerializationCore/RequestSerializationError/invalidHTTPMethod(_:)``,
    ///   ``/HTTPSerializationCore/RequestSerializationError/invalidURL(_:)`` or
    ///   ``/HTTPSerializationCore/RequestSerializationError/invalidHeaderField(name:reason:)``.
    public func validateForSending() throws {
        _ = try serializationParts()
    }
}

extension SerializedRequest {
    /// A `URLRequest` as swift-http-types' head and a body: the Foundation edge every
    /// transport without Foundation is reached through.
    ///
    /// The method, target and header fields are checked as a serializer checks them; the
    /// fragment is left out (it is never sent). A body stream this package made comes back as
    /// its form or stream; any other stream is read once, lazily, as the body is sent. `URLRequest`-only settings (timeout, cache
    /// policy and the rest) have no place in an `HTTPRequest`: give a transport its timeout.
    ///
    /// ```swift
    /// let request = try HTTPRequestSerializer().request(method: "GET", urlString: url, parameters: ["q": "swift"])
    /// let result = try await client.execute(SerializedRequest(request), serializer: JSONResponseSerializer())
    /// ```
    ///
    /// - Throws: ``/HTTPSerializationCore/RequestSerializationError/invalidHTTPMethod(_:)``,
    ///   ``/HTTPSerializationCore/RequestSerializationError/invalidURL(_:)``,
    ///   ``/HTTPSerializationCore/RequestSerializationError/invalidHeaderField(name:reason:)``, or
    ///   ``/HTTPSerializationCore/RequestSerializationError/multipartSourceUnavailable(part:reason:)``
    ///   for a body stream whose `Content-Length` is past `Int64.max`.
    public init(_ request: URLRequest) throws {
        let parts = try request.serializationParts()
        self.init(request: parts.request, body: try request.bodyForSending(parts.body))
    }
}

extension RequestSerializer {
    /// Returns `request` with default headers applied and `parameters` encoded into its URL
    /// or body; the input request is never changed, and its timeout, cache policy and other
    /// properties are kept.
    ///
    /// - Throws: ``/HTTPSerializationCore/HTTPSerializationError`` for a request that would corrupt the wire,
    ///   and whatever the serializer throws.
    public func serialize(_ request: URLRequest, parameters: ParameterValue?) throws -> URLRequest {
        try request.serialized { try serialize($0, body: $1, parameters: parameters) }
    }
}

extension HTTPRequestSerializerComposing {
    /// Builds a request for a method and URL string, applies the request properties that
    /// were set, and serializes the parameters into it.
    ///
    /// ```swift
    /// let request = try HTTPRequestSerializer().request(
    ///     method: "GET", urlString: "https://example.com/search", parameters: ["q": "swift"])
    /// // https://example.com/search?q=swift
    /// ```
    ///
    /// - Throws: ``/HTTPSerializationCore/RequestSerializationError/invalidURL(_:)``,
    ///   ``/HTTPSerializationCore/RequestSerializationError/invalidHTTPMethod(_:)``, and whatever serializing
    ///   throws.
    public func request(method: String, urlString: String, parameters: ParameterValue? = nil) throws -> URLRequest {
        try urlRequest(httpRequest(method: method, urlString: urlString, parameters: parameters), urlString: urlString)
    }
}

extension HTTPRequestSerializer {
    /// Whether `request`'s method carries parameters in the URI.
    public func encodesParametersInURI(_ request: URLRequest) -> Bool {
        (try? HTTPRequestSerializer.checkedMethod(request.httpMethod ?? "GET")).map(encodesParametersInURI) ?? false
    }

    /// The request, checked (`URLRequest.validateForSending()`), with the default
    /// headers it lacks added.
    ///
    /// - Throws: ``/HTTPSerializationCore/RequestSerializationError/invalidHeaderField(name:reason:)``,
    ///   ``/HTTPSerializationCore/RequestSerializationError/invalidHTTPMethod(_:)`` or
    ///   ``/HTTPSerializationCore/RequestSerializationError/invalidURL(_:)`` when the request would corrupt
    ///   what goes on the wire.
    public func applyingHeaders(to request: URLRequest) throws -> URLRequest {
        try request.serialized { SerializedRequest(request: try applyingHeaders(to: $0), body: $1) }
    }

    /// A request for a checked method and URL string, with the request properties that were set.
    func makeRequest(method: String, urlString: String) throws -> URLRequest {
        let method = try Self.checkedMethod(method)
        var request = URLRequest(url: try Self.checkedURL(urlString))
        request.httpMethod = method.rawValue
        if let timeoutInterval { request.timeoutInterval = timeoutInterval }
        if let cachePolicy { request.cachePolicy = cachePolicy }
        if let allowsCellularAccess { request.allowsCellularAccess = allowsCellularAccess }
        if let httpShouldHandleCookies { request.httpShouldHandleCookies = httpShouldHandleCookies }
        if let httpShouldUsePipelining { Self.setPipelining(httpShouldUsePipelining, on: &request) }
        if let networkServiceType { request.networkServiceType = networkServiceType }
        return request
    }

    /// Foundation deprecates pipelining but AFNetworking exposes it, so it is set through a
    /// protocol requirement rather than the deprecated member directly.
    private static func setPipelining<Request: PipeliningConfigurable>(_ value: Bool, on request: inout Request) {
        request.httpShouldUsePipelining = value
    }
}

protocol PipeliningConfigurable {
    var httpShouldUsePipelining: Bool { get set }
}

extension URLRequest: PipeliningConfigurable {}
