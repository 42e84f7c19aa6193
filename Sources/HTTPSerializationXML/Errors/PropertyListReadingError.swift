/// Why the package's own property-list reader refused a document, and where.
///
/// XML and binary property lists are read by the package itself, so hostile documents
/// (shared-reference bombs, cycles, bad offsets, malformed XML) end here as a value, never as
/// a crash or a hang inside Foundation. ``PropertyListResponseSerializer`` throws it inside
/// ``/HTTPSerializationCore/ResponseSerializationError/unreadableBody(_:response:)``.
public struct PropertyListReadingError: BodyReadingError {
    /// What was wrong.
    public enum Reason: Sendable, Hashable {
        /// Neither an XML (`<`) nor a binary (`bplist00`) property list.
        case unsupportedFormat
        /// A binary property list's structure is broken (trailer, offset table, object
        /// reference, length, marker); the text says which.
        case corruptBinary(String)
        /// An object contains itself, directly or through others.
        case cycle
        /// Containers are nested deeper than the limit.
        case nestingTooDeep(limit: Int)
        /// The XML form breaks the property-list DTD or the XML rules; the text says which.
        case invalidXML(String)
        /// A value's text is not of its type (an `<integer>` that is not a number, invalid
        /// Base64 in `<data>`, an unparsable `<date>`).
        case invalidValue(String)
    }

    /// The kind of fault.
    public var reason: Reason
    /// Byte offset in the document, when one place is at fault.
    public var offset: Int?

    /// An error of kind `reason`, at byte `offset` when one place is at fault.
    public init(_ reason: Reason, offset: Int? = nil) {
        self.reason = reason
        self.offset = offset
    }

    /// The fault in one sentence, with its byte offset when known: `The property list is refused: …`.
    public var description: String {
        guard let offset else { return "The property list is refused: \(reasonText)." }
        return "The property list is refused at byte \(offset): \(reasonText)."
    }

    /// The reason in words, without the position, as ``/HTTPSerializationCore/JSONReadingError/reasonText`` and
    /// ``XMLReadingError/reasonText`` give theirs.
    public var reasonText: String {
        switch reason {
        case .unsupportedFormat: return "it is not an XML or binary property list"
        case .corruptBinary(let detail): return "the binary form is corrupt: \(detail)"
        case .cycle: return "an object contains itself"
        case .nestingTooDeep(let limit): return "it is nested more than \(limit) levels deep"
        case .invalidXML(let detail): return "the XML form is invalid: \(detail)"
        case .invalidValue(let detail): return "a value is invalid: \(detail)"
        }
    }
}
