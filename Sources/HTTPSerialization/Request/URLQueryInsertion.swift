import Foundation

/// Adds a query to a URL the way a person would: before any `#fragment`, joined to an
/// existing query with `&`. (AFNetworking appended after the fragment.)
enum URLQueryInsertion {
    static func url(_ url: URL, appendingQuery query: String) throws -> URL {
        let absolute = url.absoluteString
        let fragmentStart = absolute.firstIndex(of: "#") ?? absolute.endIndex
        let head = absolute[..<fragmentStart]
        let separator: String
        if let questionMark = head.firstIndex(of: "?") {
            // `http://x?` or `http://x?a=1&` already end where a pair can start.
            let last = head.last
            separator = (head.index(after: questionMark) == head.endIndex || last == "&") ? "" : "&"
        } else {
            separator = "?"
        }
        let text = head + separator + query + absolute[fragmentStart...]
        guard let result = URL(string: String(text), encodingInvalidCharacters: false) else {
            throw HTTPSerializationError.invalidURL(String(text))
        }
        return result
    }
}

extension URL {
    /// This URL with an already-encoded query added before any `#fragment`, joined to an
    /// existing query with `&`.
    ///
    /// - Throws: ``HTTPSerializationError/invalidURL(_:)`` when the result is not a URL.
    public func appendingEncodedQuery(_ query: String) throws -> URL {
        try URLQueryInsertion.url(self, appendingQuery: query)
    }
}
