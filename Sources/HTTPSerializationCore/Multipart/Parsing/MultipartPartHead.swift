/// The header block of one received part, with what a form needs read out of it.
///
/// ```swift
/// head.name              // "avatar", from Content-Disposition: form-data; name="avatar"
/// head.fileName          // "me.png" (an RFC 8187 filename* wins over filename)
/// head.contentType       // "image/png"
/// head.headers.value(forHTTPHeaderField: "content-transfer-encoding")
/// ```
public struct MultipartPartHead: Sendable, Hashable {
    /// Every header field of the part, in order, names as written.
    public var headers: HTTPHeaderFields
    /// The `Content-Disposition` type, lower-cased: `form-data`, `attachment`, `file`, or nil
    /// without one.
    public var dispositionType: String?
    /// The `name` parameter, with a browser's `%22`, `%0D` and `%0A` escapes undone.
    public var name: String?
    /// The file name: `filename*` (RFC 8187) when given, else `filename` unescaped as
    /// ``name`` is; nil for a plain field.
    public var fileName: String?

    /// The part's `Content-Type`, as written; RFC 7578 reads a part without one as `text/plain`.
    public var contentType: String? { headers.value(forHTTPHeaderField: "Content-Type") }

    /// Whether the part carries a file: it has a file name.
    public var isFile: Bool { fileName != nil }

    /// A head from its parts, for tests and for parts made by hand; `headers` is not read
    /// for the names.
    public init(headers: HTTPHeaderFields = HTTPHeaderFields(), dispositionType: String? = "form-data", name: String?, fileName: String? = nil) {
        self.headers = headers
        self.dispositionType = dispositionType
        self.name = name
        self.fileName = fileName
    }

    /// A head from its fields and the value of its first `Content-Disposition`, read;
    /// `part` numbers errors.
    ///
    /// - Throws: ``MultipartParsingError/unreadableParameter(part:name:reason:)`` for a
    ///   `filename*` that cannot be decoded.
    init(headers: HTTPHeaderFields, disposition: HeaderParameters.Bytes?, part: Int) throws(MultipartParsingError) {
        self.headers = headers
        guard let disposition else { return }
        let parsed = HeaderParameters.disposition(utf8: disposition)
        dispositionType = parsed.type
        name = parsed.name.map(HeaderParameters.unescapedFormValue)
        if let extended = parsed.extendedFileName {
            do {
                fileName = try HeaderParameters.decodeExtended(extended)
            } catch {
                throw .unreadableParameter(part: part, name: "filename*", reason: error.reason)
            }
        } else {
            fileName = parsed.fileName.map(HeaderParameters.unescapedFormValue)
        }
    }
}
