import HTTPTypes

/// A content coding of RFC 9110 that the package decodes and applies: gzip or deflate.
public enum ContentEncoding: String, Sendable, Hashable, CaseIterable {
    /// RFC 1952 gzip (`x-gzip` is read as the same).
    case gzip
    /// RFC 1950 zlib-wrapped deflate, as RFC 9110 defines it; raw RFC 1951 deflate, which some
    /// servers send under this name, is read too.
    case deflate

    /// The coding a `Content-Encoding` field names: nil for none or `identity`.
    ///
    /// - Throws: ``DecompressionError/unsupportedEncoding(_:)`` for any other coding, or for
    ///   more than one (`gzip, br`), which the package does not unwrap.
    public init?(contentEncoding field: String?) throws(DecompressionError) {
        guard let field else { return nil }
        let codings = field.split(separator: ",").map { $0.trimmingSpaces.lowercased() }.filter { !$0.isEmpty && $0 != "identity" }
        guard let only = codings.first else { return nil }
        guard codings.count == 1 else { throw .unsupportedEncoding(field) }
        switch only {
        case "gzip", "x-gzip": self = .gzip
        case "deflate": self = .deflate
        default: throw .unsupportedEncoding(field)
        }
    }

    /// The coding `response`'s `Content-Encoding` field names, if any.
    public init?(of response: HTTPResponse) throws(DecompressionError) {
        guard let coding = try ContentEncoding(contentEncoding: response.headerFields[.contentEncoding]) else { return nil }
        self = coding
    }
}

extension Substring {
    /// Without leading and trailing spaces and tabs.
    var trimmingSpaces: String {
        String(drop { $0 == " " || $0 == "\t" }.reversed().drop { $0 == " " || $0 == "\t" }.reversed())
    }
}
