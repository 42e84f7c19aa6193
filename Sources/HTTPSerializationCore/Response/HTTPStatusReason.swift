/// Reason phrases for status codes from the package's own table, so error messages read
/// the same on every platform.
///
/// The phrases are the ones Apple's `HTTPURLResponse.localizedString(forStatusCode:)`
/// gives and AFNetworking users saw in "Request failed: not found (404)"; Linux's Foundation
/// answers with different words ("Not Found").
public enum HTTPStatusReason {
    /// The phrase for a status code, or its class ("client error") when it has none.
    public static func phrase(for statusCode: Int) -> String {
        if let phrase = phrases[statusCode] { return phrase }
        switch statusCode {
        case 100..<200: return "informational"
        case 200..<300: return "success"
        case 300..<400: return "redirected"
        case 400..<500: return "client error"
        default: return "server error"
        }
    }

    static let phrases: [Int: String] = [
        100: "continue", 101: "switching protocols",
        200: "no error", 201: "created", 202: "accepted", 203: "non-authoritative information", 204: "no content",
        205: "reset content", 206: "partial content",
        300: "multiple choices", 301: "moved permanently", 302: "found", 303: "see other", 304: "not modified",
        305: "needs proxy", 307: "temporarily redirected",
        400: "bad request", 401: "unauthorized", 402: "payment required", 403: "forbidden", 404: "not found",
        405: "method not allowed", 406: "unacceptable", 407: "proxy authentication required", 408: "request timed out",
        409: "conflict", 410: "no longer exists", 411: "length required", 412: "precondition failed",
        413: "request too large", 414: "requested URL too long", 415: "unsupported media type",
        416: "requested range not satisfiable", 417: "expectation failed",
        500: "internal server error", 501: "unimplemented", 502: "bad gateway", 503: "service unavailable",
        504: "gateway timed out", 505: "unsupported version",
    ]
}
