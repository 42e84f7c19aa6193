import HTTPTypes

extension SerializedRequest {
    /// The URL this request is sent to, as written: scheme, authority, path and query.
    public var urlString: String {
        RequestTarget(request).urlString
    }

    /// Whether the request sends a body: bytes, a form or a stream with at least one byte
    /// (a stream of unknown length counts).
    package var hasBody: Bool {
        !body.isEmpty
    }

    /// The redirect rule of every transport: a request with a body whose response came from
    /// another URL is ``TransportError/redirectedWithBody(url:to:)``, since the
    /// body may have been dropped on the way. `respondingURL` is where the response came from.
    package func checkNotRedirected(to respondingURL: String?, allowsRedirectedBodies: Bool) throws {
        guard hasBody, !allowsRedirectedBodies, let respondingURL, respondingURL != urlString else { return }
        throw TransportError.redirectedWithBody(url: urlString, to: respondingURL)
    }
}
