/// Why the package's own JSON reader refused a document, and where.
///
/// The reader is strict RFC 8259: anything it refuses is a value you can switch over, with
/// the byte offset of the fault, never a crash, a hang or a silently repaired document.
public struct JSONReadingError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What was wrong.
    public enum Reason: Sendable, Hashable {
        /// The body holds no value (empty, or whitespace only).
        case noValue
        /// A byte that the grammar does not allow where it stands; the text says what was expected.
        case unexpectedCharacter(UInt8, expected: String)
        /// The document ends inside a value; the text says what was expected.
        case unexpectedEnd(expected: String)
        /// Bytes that are not well-formed UTF-8 (or UTF-16/32 for documents in those encodings).
        case invalidEncoding
        /// A control character (below U+0020) written raw inside a string.
        case controlCharacterInString
        /// A backslash escape that JSON does not define, or a `\u` without four hex digits.
        case invalidEscape
        /// A `\u` escape naming half of a surrogate pair without the other half.
        case loneSurrogate
        /// A number that breaks the grammar (`01`, `1.`, `.5`, `+1`, `1e`).
        case invalidNumber
        /// A number whose magnitude no Swift number type holds (`1e400`).
        case numberOutOfRange
        /// Something other than whitespace follows the value.
        case trailingData
        /// Arrays and objects are nested deeper than the limit.
        case nestingTooDeep(limit: Int)
    }

    /// The kind of fault.
    public var reason: Reason
    /// Byte offset in the document as received (after a byte-order mark, in the converted
    /// UTF-8 for UTF-16 and UTF-32 documents).
    public var offset: Int

    /// An error of kind `reason` at byte `offset`.
    public init(_ reason: Reason, offset: Int) {
        self.reason = reason
        self.offset = offset
    }

    /// The fault and its byte offset in one sentence: `The JSON document is refused at byte 7: …`.
    public var description: String {
        "The JSON document is refused at byte \(offset): \(reasonText)."
    }

    /// The reason in words, without the position.
    public var reasonText: String {
        switch reason {
        case .noValue: return "it holds no value"
        case .unexpectedCharacter(let byte, let expected): return "found \(Self.describe(byte)) where \(expected) was expected"
        case .unexpectedEnd(let expected): return "it ends where \(expected) was expected"
        case .invalidEncoding: return "the bytes are not valid in its encoding"
        case .controlCharacterInString: return "a string holds a raw control character"
        case .invalidEscape: return "a string holds an invalid escape"
        case .loneSurrogate: return "a string escapes half of a surrogate pair"
        case .invalidNumber: return "a number is not written as JSON allows"
        case .numberOutOfRange: return "a number is too large for any number type"
        case .trailingData: return "more follows the value"
        case .nestingTooDeep(let limit): return "it is nested more than \(limit) levels deep"
        }
    }

    private static func describe(_ byte: UInt8) -> String {
        if byte >= 0x21, byte < 0x7F { return "\"\(Character(Unicode.Scalar(byte)))\"" }
        let hex = String(byte, radix: 16, uppercase: true)
        return "byte 0x" + (hex.count == 1 ? "0" + hex : hex)
    }
}
