/// A form body or query string that cannot be read back, or that broke one of
/// ``FormDecodingLimits``.
public enum FormDecodingError: Error, Sendable, Equatable, CustomStringConvertible {
    /// A `%` not followed by two hexadecimal digits, at this byte of the input.
    case malformedPercentEscape(offset: Int)
    /// More pairs than ``FormDecodingLimits/maximumPairs``.
    case tooManyPairs(limit: Int)
    /// A decoded key longer than ``FormDecodingLimits/maximumKeyLength`` bytes.
    case keyTooLong(limit: Int)
    /// A decoded value longer than ``FormDecodingLimits/maximumValueLength`` bytes.
    case valueTooLong(key: String, limit: Int)
    /// A key nested deeper than ``FormDecodingLimits/maximumDepth``.
    case nestedTooDeep(key: String, limit: Int)
    /// Two keys that want the same place to be different things: `a=1&a[b]=2`.
    case conflictingKeys(String)

    /// One sentence naming the fault.
    public var description: String {
        switch self {
        case .malformedPercentEscape(let offset):
            return "The form has a % that does not start a percent escape, at byte \(offset)."
        case .tooManyPairs(let limit):
            return "The form has more than the limit of \(limit) fields."
        case .keyTooLong(let limit):
            return "A field name of the form is longer than the limit of \(limit) bytes."
        case .valueTooLong(let key, let limit):
            return "The value of \"\(key.prefix(80))\" is longer than the limit of \(limit) bytes."
        case .nestedTooDeep(let key, let limit):
            return "The field \"\(key.prefix(80))\" nests deeper than the limit of \(limit) levels."
        case .conflictingKeys(let key):
            return "The field \"\(key.prefix(80))\" is given both as a value and as a list or object."
        }
    }
}

/// How much of a form body or query string a reader accepts before it stops with a
/// ``FormDecodingError`` naming the limit.
public struct FormDecodingLimits: Sendable, Hashable {
    /// Name-value pairs: 1,000 (PHP's `max_input_vars`).
    public var maximumPairs = 1000
    /// Levels of nesting in one key (`a[b][c]` is 3): 32.
    public var maximumDepth = 32
    /// Bytes of one decoded key: 1 KiB.
    public var maximumKeyLength = 1 << 10
    /// Bytes of one decoded value: 1 MiB.
    public var maximumValueLength = 1 << 20

    /// The defaults above.
    public init() {}
}
