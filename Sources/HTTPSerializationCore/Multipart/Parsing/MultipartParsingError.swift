/// A multipart body that cannot be read, or that broke one of ``MultipartParsingLimits``, with
/// where.
///
/// Parts before the fault have already been handed on; parsing stops with this error.
public enum MultipartParsingError: Error, Sendable, Equatable, CustomStringConvertible {
    /// A `Content-Type` that is not `multipart/*`, or that names no boundary.
    case notMultipart(contentType: String)
    /// A boundary that RFC 2046 does not allow: 1–70 of its characters, the last not a space.
    case invalidBoundary(String, reason: String)
    /// The body ended before its close delimiter (`--BOUNDARY--`); `state` says where.
    case unterminated(state: String)
    /// A delimiter line followed by something other than `--`, spaces or CRLF; `offset` is the
    /// byte in the body.
    case malformedDelimiter(offset: Int)
    /// A header line of part `part` (counting from 1) that is not `Name: value`.
    case malformedHeader(part: Int, line: String)
    /// Part `part` of a `multipart/form-data` body without a `Content-Disposition: form-data`
    /// that names it.
    case missingName(part: Int)
    /// A `Content-Disposition` parameter that cannot be read: an RFC 8187 `filename*` in a
    /// charset other than UTF-8 or ISO-8859-1, or with a bad percent escape.
    case unreadableParameter(part: Int, name: String, reason: String)
    /// More parts than ``MultipartParsingLimits/maximumPartCount``.
    case tooManyParts(limit: Int)
    /// A header block of part `part` longer than ``MultipartParsingLimits/maximumHeaderBytes``.
    case headersTooLarge(part: Int, limit: Int)
    /// More header fields in part `part` than ``MultipartParsingLimits/maximumHeaderCount``.
    case tooManyHeaders(part: Int, limit: Int)
    /// A field (a part without a file name) longer than ``MultipartParsingLimits/maximumFieldBytes``.
    case fieldTooLarge(name: String, limit: Int)
    /// A file part longer than ``MultipartParsingLimits/maximumFileBytes``.
    case fileTooLarge(name: String, fileName: String?, limit: Int)
    /// A body longer than ``MultipartParsingLimits/maximumBodyBytes``.
    case bodyTooLarge(limit: Int)
    /// More file parts kept in temporary files than ``MultipartParsingLimits/maximumSpilledFiles``.
    case tooManySpilledFiles(limit: Int)
    /// A `multipart/mixed` part nested deeper than ``MultipartParsingLimits/maximumNestingDepth``.
    case nestingTooDeep(limit: Int)
    /// A file part could not be kept in a temporary file (a full disk, a missing or
    /// read-only directory).
    case temporaryFileFailed(path: String, reason: String)

    /// One sentence naming the fault and where it is.
    public var description: String {
        switch self {
        case .notMultipart(let contentType):
            return "The body is not multipart: Content-Type \"\(contentType)\" names no multipart type with a boundary."
        case .invalidBoundary(let boundary, let reason):
            return "The multipart boundary \"\(boundary)\" is not allowed: \(reason)."
        case .unterminated(let state):
            return "The multipart body ended \(state), before its closing boundary."
        case .malformedDelimiter(let offset):
            return "The multipart boundary line at byte \(offset) is followed by something other than CRLF or \"--\"."
        case .malformedHeader(let part, let line):
            return "Part \(part) has a header line that is not \"Name: value\": \"\(line.prefix(80))\"."
        case .missingName(let part):
            return "Part \(part) of the form has no Content-Disposition: form-data with a name."
        case .unreadableParameter(let part, let name, let reason):
            return "The \(name) parameter of part \(part) cannot be read: \(reason)."
        case .tooManyParts(let limit):
            return "The multipart body has more than the limit of \(limit) parts."
        case .headersTooLarge(let part, let limit):
            return "The headers of part \(part) are longer than the limit of \(limit) bytes."
        case .tooManyHeaders(let part, let limit):
            return "Part \(part) has more than the limit of \(limit) header fields."
        case .fieldTooLarge(let name, let limit):
            return "The field \"\(name)\" is longer than the limit of \(limit) bytes."
        case .fileTooLarge(let name, let fileName, let limit):
            return "The file \(fileName.map { "\"\($0)\" " } ?? "")of part \"\(name)\" is longer than the limit of \(limit) bytes."
        case .bodyTooLarge(let limit):
            return "The multipart body is longer than the limit of \(limit) bytes."
        case .tooManySpilledFiles(let limit):
            return "The multipart body has more than the limit of \(limit) large files."
        case .nestingTooDeep(let limit):
            return "The multipart body nests multipart parts deeper than the limit of \(limit)."
        case .temporaryFileFailed(let path, let reason):
            return "A file part could not be written to the temporary file \(path): \(reason)."
        }
    }
}
