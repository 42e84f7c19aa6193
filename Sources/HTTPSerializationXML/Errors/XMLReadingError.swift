/// Why the package's own XML reader refused a document, and where.
///
/// Every XML body is read by this reader before FoundationXML sees it, so hostile documents
/// (entity bombs, bad encodings, markup FoundationXML crashes on) end here as a value you can
/// switch over, never as a crash or a hang. A response serializer throws it inside
/// ``/HTTPSerializationCore/ResponseSerializationError/unreadableBody(_:response:)``:
///
/// ```swift
/// catch ResponseSerializationError.unreadableBody(let refusal as XMLReadingError, _) {
///     if case .entityDeclarationsNotAllowed = refusal.reason { … }
/// }
/// ```
public struct XMLReadingError: BodyReadingError {
    /// What was wrong.
    public enum Reason: Sendable, Hashable {
        /// The document breaks an XML 1.0 (or Namespaces in XML) well-formedness rule; the text says which.
        case notWellFormed(String)
        /// The bytes are not valid in the document's encoding (invalid UTF-8, a lone surrogate, …).
        case invalidEncoding(String)
        /// The byte-order mark, the declaration and the bytes disagree (8-bit bytes labelled UTF-16, say).
        case encodingMismatch(String)
        /// The declared encoding is not one the reader can transcode.
        case unsupportedEncoding(String)
        /// The XML declaration names a version other than 1.0.
        case unsupportedVersion(String)
        /// The document declares entities, which ``XMLReadingPolicy/allowsEntityDeclarations`` refuses.
        case entityDeclarationsNotAllowed
        /// The document names an external DTD, which ``XMLReadingPolicy/allowsExternalDTD`` refuses.
        case externalDTDNotAllowed
        /// Parameter entities (`%name;`) are never read: they are the usual vehicle of XXE attacks.
        case parameterEntitiesNotSupported
        /// An entity whose text is outside the document (`SYSTEM`/`PUBLIC`) is referenced; it
        /// is never fetched, and dropping it silently would lose data.
        case externalEntityReference(String)
        /// An entity is referenced that the document does not declare.
        case undeclaredEntity(String)
        /// An entity refers to itself, directly or through others.
        case recursiveEntity(String)
        /// Entity references would expand past the budget (bytes of replacement text).
        case entityExpansionLimitExceeded(limit: Int)
        /// Elements are nested deeper than the policy allows.
        case nestingTooDeep(limit: Int)
        /// One element has more attributes than the policy allows (libxml2 checks them in
        /// quadratic time, so the limit keeps FoundationXML linear).
        case tooManyAttributes(limit: Int)
        /// The document is larger than ``XMLReadingPolicy/maximumDocumentSize``.
        case documentTooLarge(limit: Int)
        /// A processing instruction has no data (`<?pi?>`): FoundationXML on Linux crashes on it.
        case processingInstructionWithoutData
        /// A DTD declaration that FoundationXML's parser on Linux crashes on, or reports as an
        /// error, once it has a delegate: an attribute with no default value (`#IMPLIED`,
        /// `#REQUIRED`), a `NOTATION` without both a public and a system identifier, an
        /// unparsed (`NDATA`) entity, a predefined entity redeclared other than as its
        /// character, or an external entity whose system identifier is not a URI reference
        /// without a fragment. The text says which.
        case unreadableDeclaration(String)
    }

    /// The kind of fault.
    public var reason: Reason
    /// Byte offset in the document as received (for an entity's text, the offset of the
    /// reference); nil when the whole document is at fault.
    public var offset: Int?

    /// An error of kind `reason`, at byte `offset` when one place is at fault.
    public init(_ reason: Reason, offset: Int? = nil) {
        self.reason = reason
        self.offset = offset
    }

    /// The fault in one sentence, with its byte offset when known: `The XML document is refused: …`.
    public var description: String {
        guard let offset else { return "The XML document is refused: \(reasonText)." }
        return "The XML document is refused at byte \(offset): \(reasonText)."
    }

    /// The reason in words, without the position, as ``/HTTPSerializationCore/JSONReadingError/reasonText`` and
    /// ``PropertyListReadingError/reasonText`` give theirs.
    public var reasonText: String {
        let text: String
        switch reason {
        case .notWellFormed(let detail): text = "it is not well-formed: \(detail)"
        case .invalidEncoding(let detail): text = "its bytes are not valid \(detail)"
        case .encodingMismatch(let detail): text = "its encoding is inconsistent: \(detail)"
        case .unsupportedEncoding(let name): text = "it declares the unsupported encoding \"\(name)\""
        case .unsupportedVersion(let version): text = "it declares XML version \"\(version)\"; only 1.0 is read"
        case .entityDeclarationsNotAllowed: text = "it declares entities, which the reading policy does not allow"
        case .externalDTDNotAllowed: text = "it names an external DTD, which the reading policy does not allow"
        case .parameterEntitiesNotSupported: text = "it uses parameter entities, which are never read"
        case .externalEntityReference(let name): text = "it references the external entity \"\(name)\", which is never fetched"
        case .undeclaredEntity(let name): text = "it references the undeclared entity \"\(name)\""
        case .recursiveEntity(let name): text = "the entity \"\(name)\" refers to itself"
        case .entityExpansionLimitExceeded(let limit): text = "its entities expand past the \(limit)-byte budget"
        case .nestingTooDeep(let limit): text = "its elements are nested more than \(limit) levels deep"
        case .tooManyAttributes(let limit): text = "an element has more than \(limit) attributes"
        case .documentTooLarge(let limit): text = "it is larger than the \(limit)-byte limit"
        case .processingInstructionWithoutData: text = "a processing instruction has no data, which FoundationXML cannot parse"
        case .unreadableDeclaration(let detail): text = "its DTD has a declaration FoundationXML cannot parse: \(detail)"
        }
        return text
    }
}
