/// What the package's XML reader accepts before FoundationXML sees a document.
///
/// Secure by default: documents that declare entities or name an external DTD are refused,
/// and every limit is finite. Opt in per serializer when a trusted API needs more:
///
/// ```swift
/// var serializer = XMLDocumentResponseSerializer()
/// serializer.readingPolicy.allowsEntityDeclarations = true   // still bounded by the expansion budget
/// ```
public struct XMLReadingPolicy: Sendable, Hashable, Codable {
    /// Entity declarations in the document's internal DTD subset are read and expanded
    /// (within ``entityExpansionFactor``); off by default. External entities are never fetched.
    public var allowsEntityDeclarations = false
    /// A `DOCTYPE` naming an external DTD (`SYSTEM` or `PUBLIC`) is accepted; the DTD is never
    /// fetched. Off by default.
    public var allowsExternalDTD = false
    /// Entity references may expand to at most this many times the document's size in bytes …
    ///
    /// Declared attribute defaults count too: every default's name and value (repeats and
    /// defaults an element overrides included), once for every element they apply to, as
    /// FoundationXML copies them into each.
    public var entityExpansionFactor = 4
    /// … or this many bytes, whichever is larger.
    public var minimumEntityExpansionBudget = 65_536
    /// The deepest element nesting accepted.
    public var maximumDepth = 512
    /// The most attributes one element may have (including attribute defaults its DTD
    /// declares): libxml2 compares every pair, so this bounds FoundationXML's time.
    public var maximumAttributesPerElement = 256
    /// The largest document accepted, in bytes.
    public var maximumDocumentSize = 64 * 1024 * 1024

    /// The secure defaults described on each property.
    public init() {}

    /// The policy the property-list reader uses: Apple's plists name their DTD by `PUBLIC`
    /// identifier, which is accepted (and never fetched).
    static let propertyList: XMLReadingPolicy = {
        var policy = XMLReadingPolicy()
        policy.allowsExternalDTD = true
        return policy
    }()

    /// Bytes of entity replacement text a document of `size` bytes may expand to.
    func entityExpansionBudget(forDocumentSize size: Int) -> Int {
        let (scaled, overflow) = size.multipliedReportingOverflow(by: max(0, entityExpansionFactor))
        return max(overflow ? Int.max : scaled, minimumEntityExpansionBudget)
    }
}
