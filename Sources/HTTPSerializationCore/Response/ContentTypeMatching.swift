/// How a response's content type is matched against acceptable types.
///
/// Always case-insensitive, with parameters ignored. Acceptable entries may be wildcards:
/// `image/*`, `*/*`, or a structured-suffix pattern such as `application/*+json`.
public struct ContentTypeMatching: Sendable, Hashable, Codable {
    /// When true, `application/json` also accepts `application/problem+json` and any other
    /// `…/…+json` (RFC 6839 structured suffixes); likewise for `+xml`. Off by default, as in
    /// AFNetworking.
    public var acceptsStructuredSuffixes: Bool
    /// Charsets the response must declare, lower-cased (`utf-8`); nil accepts any, and a
    /// response without a charset is accepted either way.
    public var acceptableCharsets: Set<String>?

    /// Matching rules; by default, as in AFNetworking, no structured suffixes and any charset.
    public init(acceptsStructuredSuffixes: Bool = false, acceptableCharsets: Set<String>? = nil) {
        self.acceptsStructuredSuffixes = acceptsStructuredSuffixes
        self.acceptableCharsets = acceptableCharsets
    }

    /// Whether `mimeType` (already without parameters) is one of `acceptable`.
    func matches(_ mimeType: String, in acceptable: Set<String>) -> Bool {
        let type = mimeType.lowercased()
        // The usual case, a type listed as it came, in one lookup; wildcards and case below.
        if acceptable.contains(type) { return true }
        guard let slash = type.firstIndex(of: "/") else { return acceptable.contains { $0.lowercased() == type } }
        let major = type[..<slash]
        let minor = type[type.index(after: slash)...]
        let suffix = minor.lastIndex(of: "+").map { minor[$0...] }
        for entry in acceptable {
            let pattern = entry.lowercased()
            if pattern == type || pattern == "*/*" { return true }
            guard let patternSlash = pattern.firstIndex(of: "/") else { continue }
            let patternMajor = pattern[..<patternSlash]
            let patternMinor = pattern[pattern.index(after: patternSlash)...]
            guard patternMajor == major || patternMajor == "*" else { continue }
            if patternMinor == "*" { return true }
            // `application/*+json` matches any `application/…+json`.
            if patternMinor.hasPrefix("*+"), let suffix, suffix == patternMinor.dropFirst() { return true }
            // `application/json` accepts `application/problem+json` when suffixes are on.
            if acceptsStructuredSuffixes, let suffix, suffix.dropFirst() == patternMinor { return true }
        }
        return false
    }

    func charsetAccepted(_ charset: String?) -> Bool {
        guard let acceptableCharsets, let charset else { return true }
        return acceptableCharsets.contains { $0.lowercased() == charset.lowercased() }
    }
}
