/// How much of a multipart body a parser accepts before it stops with a
/// ``MultipartParsingError`` naming the limit.
///
/// The defaults suit a form posted by a browser or an app: a server taking large uploads
/// raises ``maximumFileBytes`` and ``maximumBodyBytes``; one taking small forms lowers them.
/// `nil` means no limit.
///
/// ```swift
/// var limits = MultipartParsingLimits()
/// limits.maximumFileBytes = 10 << 30      // 10 GiB uploads
/// limits.maximumBodyBytes = nil
/// ```
public struct MultipartParsingLimits: Sendable, Hashable {
    /// Parts in the body: 1,000.
    public var maximumPartCount: Int? = 1000
    /// Bytes of one part's header block: 16 KiB.
    public var maximumHeaderBytes: Int = 16 << 10
    /// Header fields of one part: 64.
    public var maximumHeaderCount: Int = 64
    /// Bytes of one field (a part without a file name): 1 MiB.
    public var maximumFieldBytes: Int? = 1 << 20
    /// Bytes of one file part (one with a file name, or any part of a non-form multipart): 1 GiB.
    public var maximumFileBytes: Int? = 1 << 30
    /// Bytes of the whole body, preamble and epilogue included: 1 GiB.
    public var maximumBodyBytes: Int? = 1 << 30
    /// File parts that one read of a form keeps in temporary files at once (those longer than
    /// its spill threshold): 100. Each holds a file on disk until its last ``MultipartFile`` is
    /// gone, so this bounds what one request can leave there, whatever its part count allows.
    /// (PHP's `max_file_uploads`, 20 by default, counts every file.)
    public var maximumSpilledFiles: Int? = 100
    /// Levels of `multipart/mixed` inside a form part (RFC 2388's several files under one
    /// name) that ``MultipartForm`` reads: 1. Deeper nesting is an error.
    public var maximumNestingDepth: Int = 1

    /// The defaults above.
    public init() {}
}
