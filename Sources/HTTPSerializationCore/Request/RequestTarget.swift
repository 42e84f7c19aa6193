#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import HTTPTypes

/// A request target taken apart the way both request forms need it: scheme, authority,
/// path with query (the part serializers change) and fragment (kept aside, never sent).
///
/// `URLRequest`s and `HTTPRequest`s go through this one type, so a query lands in the same
/// place, with the same separator, in both.
package struct RequestTarget: Sendable, Equatable {
    package var scheme: String?
    package var authority: String?
    package var pathAndQuery: String
    package var fragment: String?

    /// Splits a URL string as written: nothing is re-encoded or normalised.
    package init(_ string: String) {
        var rest = Substring(string)
        if let hash = rest.firstIndex(of: "#") {
            fragment = String(rest[rest.index(after: hash)...])
            rest = rest[..<hash]
        }
        if let colon = rest.firstIndex(of: ":"), Self.isScheme(rest[..<colon]) {
            scheme = String(rest[..<colon])
            rest = rest[rest.index(after: colon)...]
        }
        if rest.hasPrefix("//") {
            let start = rest.index(rest.startIndex, offsetBy: 2)
            let end = rest[start...].firstIndex(where: { $0 == "/" || $0 == "?" }) ?? rest.endIndex
            authority = String(rest[start..<end])
            rest = rest[end...]
        }
        pathAndQuery = String(rest)
    }

    /// The path and query as a request line asks for them (origin form): `/` before a query or
    /// nothing when the URL names a host but no path (`http://host?q=1` asks for `/?q=1`).
    package var originForm: String {
        authority != nil && !pathAndQuery.hasPrefix("/") ? "/" + pathAndQuery : pathAndQuery
    }

    /// The target of a request head; its path is taken as it is.
    package init(_ request: HTTPRequest) {
        scheme = request.scheme
        authority = request.authority
        pathAndQuery = request.path ?? ""
    }

    /// The URL string again, fragment included.
    package var urlString: String {
        var text = ""
        if let scheme { text += scheme + ":" }
        if let authority { text += "//" + authority }
        text += pathAndQuery
        if let fragment { text += "#" + fragment }
        return text
    }

    /// Adds an already-encoded query, joined to an existing one with `&`. (AFNetworking
    /// appended after the fragment; the fragment stays last here.)
    package mutating func appendQuery(_ query: String) {
        let separator: String
        if let questionMark = pathAndQuery.firstIndex(of: "?") {
            // `/p?` and `/p?a=1&` already end where a pair can start.
            separator = (pathAndQuery.index(after: questionMark) == pathAndQuery.endIndex || pathAndQuery.last == "&") ? "" : "&"
        } else {
            separator = "?"
        }
        pathAndQuery += separator + query
    }

    /// Checks that the target can go on a request line as it is: RFC 3986's characters in
    /// each part (so no space, `[` or `{` outside an IP literal, and `%` only before two hex
    /// digits), and a host for `http` and `https`. Relative targets pass, as AFNetworking let
    /// them. This is what `URL` takes without re-encoding, so the `URLSession` transport, the
    /// async-http-client bridge and ``CurlCommand`` refuse the same targets, and none sends
    /// bytes other than the request's.
    ///
    /// - Throws: ``RequestSerializationError/invalidURL(_:)`` with the whole URL string.
    package func validate() throws {
        let valid = URISyntax.isValidPathQueryOrFragment(pathAndQuery)
            && (fragment.map(URISyntax.isValidPathQueryOrFragment) ?? true)
            && (authority.map(URISyntax.isValidAuthority) ?? true)
            && (scheme.map { Self.isScheme(Substring($0)) } ?? true)
        guard valid else { throw RequestSerializationError.invalidURL(urlString) }
        if let scheme = scheme?.lowercased(), scheme == "http" || scheme == "https", Self.host(of: authority ?? "").isEmpty {
            throw RequestSerializationError.invalidURL(urlString)
        }
    }

    /// The host of an authority: without user information and port, brackets kept.
    package static func host(of authority: String) -> Substring {
        var host = Substring(authority)
        if let at = host.lastIndex(of: "@") { host = host[host.index(after: at)...] }
        if host.hasPrefix("["), let close = host.firstIndex(of: "]") { return host[...close] }
        if let colon = host.firstIndex(of: ":") { host = host[..<colon] }
        return host
    }

    /// RFC 3986 §3.1: `ALPHA *( ALPHA / DIGIT / "+" / "-" / "." )`.
    private static func isScheme(_ text: Substring) -> Bool {
        guard let first = text.utf8.first, first.isASCIILetter else { return false }
        return text.utf8.allSatisfy { $0.isASCIIAlphanumeric || $0 == 0x2B || $0 == 0x2D || $0 == 0x2E }
    }
}

extension URL {
    /// This URL with an already-encoded query added before any `#fragment`, joined to an
    /// existing query with `&`.
    ///
    /// - Throws: ``RequestSerializationError/invalidURL(_:)`` when the result is not a URL.
    public func appendingEncodedQuery(_ query: String) throws -> URL {
        var target = RequestTarget(absoluteString)
        target.appendQuery(query)
        let text = target.urlString
        guard let result = URL(string: text, encodingInvalidCharacters: false) else {
            throw RequestSerializationError.invalidURL(text)
        }
        return result
    }
}
