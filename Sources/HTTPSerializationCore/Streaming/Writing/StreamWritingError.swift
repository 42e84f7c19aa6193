/// A value a stream writer cannot put on the wire, with which value it was and why.
///
/// Nothing of the value is written: the body ends after the value before it, and the stream
/// of chunks ends with this error.
public enum StreamWritingError: Error, Sendable, Equatable, CustomStringConvertible {
    /// A field of an event that would change the stream's meaning if written: an `event` or
    /// `id` holding CR or LF (which would start a forged line), an `id` holding NUL (which
    /// readers ignore), or a negative `retry`. `index` counts the body's values from 1.
    case invalidEventField(index: Int, field: String, reason: String)
    /// A value the JSON writer or encoder refused (NaN, a date with no strategy, nesting past
    /// the limit), with its error. `index` counts the body's values from 1.
    case unencodableValue(index: Int, underlying: UnderlyingError)

    /// One sentence naming the value and the fault.
    public var description: String {
        switch self {
        case .invalidEventField(let index, let field, let reason):
            return "Value \(index) of the stream cannot be written: its `\(field)` field \(reason)."
        case .unencodableValue(let index, let underlying):
            return "Value \(index) of the stream cannot be written as JSON: \(underlying)."
        }
    }
}

extension StreamWritingError {
    /// What the server adapters log when a streamed body stops at a refused value; the error
    /// itself goes in the entry's metadata.
    package static let refusalLogMessage = "A streamed body stopped at a value its writer refused."
}
