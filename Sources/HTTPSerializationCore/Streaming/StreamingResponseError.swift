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
    /// A body read as one JSON array that is not one: the reader's reason and the byte offset
    /// in the body (a missing `[`, a missing comma, a trailing comma, data after the `]`).
    case unreadableArray(JSONReadingError)
    /// An element of a JSON array (counting from 1) that is not JSON.
    case unreadableElement(index: Int, JSONReadingError)
    /// An element of a JSON array that is JSON but not the value asked for.
    case undecodableElement(index: Int, underlying: UnderlyingError)
    /// An element of a JSON array longer than the serializer's limit, in bytes.
    case elementTooLarge(index: Int, limit: Int)
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
        case .unreadableArray(let error):
            return "The response is not one JSON array: \(error.reasonText) (byte \(error.offset))."
        case .unreadableElement(let index, let error):
            return "Element \(index) of the response's array is not valid JSON: \(error.reasonText) (byte \(error.offset) of the element)."
        case .undecodableElement(let index, let underlying):
            return "Element \(index) of the response's array could not be decoded: \(underlying)."
        case .elementTooLarge(let index, let limit):
            return "Element \(index) of the response's array is longer than the limit of \(limit) bytes."
        case .eventTooLarge(let limit):
            return "An event of the response holds more than the limit of \(limit) bytes of data."
        case .truncated(let reason):
            return "The response ended early: \(reason)."
        }
    }
}
