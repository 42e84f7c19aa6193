/// A streamed body that broke a limit or held a value that could not be read, with where.
///
/// Values before the fault have already been delivered; the stream ends with this error.
public enum StreamingResponseError: Error, Sendable, Equatable, CustomStringConvertible {
    /// A line (or record) longer than the serializer's limit, in bytes; `line` counts from 1.
    case lineTooLong(line: Int, limit: Int)
    /// A line or record that is not JSON, with the reader's reason and byte offset within it.
    case unreadableJSON(line: Int, JSONReadingError)
    /// A line or record that is JSON but not the value asked for (a `DecodingError`, say).
    case undecodableValue(line: Int, underlying: UnderlyingError)
    /// An event whose data passed the serializer's limit, in bytes.
    case eventTooLarge(limit: Int)
    /// The body ended inside a value the format needs whole.
    case truncated(reason: String)

    /// One sentence naming the fault and where it is.
    public var description: String {
        switch self {
        case .lineTooLong(let line, let limit):
            return "Line \(line) of the response is longer than the limit of \(limit) bytes."
        case .unreadableJSON(let line, let error):
            return "Line \(line) of the response is not valid JSON: \(error.reasonText) (byte \(error.offset) of the line)."
        case .undecodableValue(let line, let underlying):
            return "Line \(line) of the response could not be decoded: \(underlying)."
        case .eventTooLarge(let limit):
            return "An event of the response holds more than the limit of \(limit) bytes of data."
        case .truncated(let reason):
            return "The response ended early: \(reason)."
        }
    }
}
