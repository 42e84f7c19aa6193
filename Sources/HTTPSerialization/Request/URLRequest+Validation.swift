import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

extension URLRequest {
    /// Checks that the request can be written as HTTP without corrupting it: an RFC 9110
    /// token for a method, a URL of visible ASCII (with a host for `http` and `https`), and
    /// header fields without CR, LF, NUL or other controls.
    ///
    /// Every serializer runs it on the request it is handed, and both transport helpers on
    /// the request they send, so a method such as `"GET\r\nX: 1"` can never split a request.
    ///
    /// - Throws: ``HTTPSerializationError/invalidHTTPMethod(_:)``,
    ///   ``HTTPSerializationError/invalidURL(_:)`` or
    ///   ``HTTPSerializationError/invalidHeaderField(name:reason:)``.
    public func validateForSending() throws {
        let method = httpMethod ?? "GET"
        guard HTTPHeaderFields.isToken(method) else { throw HTTPSerializationError.invalidHTTPMethod(method) }
        guard let url else { throw HTTPSerializationError.invalidURL("") }
        let string = url.absoluteString
        guard string.utf8.allSatisfy({ (0x21...0x7E).contains($0) }) else { throw HTTPSerializationError.invalidURL(string) }
        // Relative URLs pass, as AFNetworking let them (a custom query closure still runs).
        if let scheme = url.scheme?.lowercased(), scheme == "http" || scheme == "https", url.host?.isEmpty ?? true {
            throw HTTPSerializationError.invalidURL(string)
        }
        for (name, value) in allHTTPHeaderFields ?? [:] {
            try HTTPHeaderFields.validate(name: name, value: value)
        }
    }
}
