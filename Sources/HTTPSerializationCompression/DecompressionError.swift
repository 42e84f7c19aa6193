/// A compressed body that could not be decoded, or that broke a limit set against
/// decompression bombs.
public enum DecompressionError: Error, Sendable, Equatable, CustomStringConvertible {
    /// A `Content-Encoding` the package does not decode (`br`, `zstd`, or several codings).
    case unsupportedEncoding(String)
    /// The decoded body passed ``DecompressionLimits/maximumSize``.
    case outputTooLarge(limit: Int)
    /// The decoded body grew past ``DecompressionLimits/maximumRatio`` times the bytes read.
    case ratioTooHigh(limit: Int)
    /// Bytes that are not valid compressed data, with zlib's reason.
    case corrupt(reason: String)
    /// The body ended before the compressed stream did.
    case truncated
    /// Bytes after the end of the compressed stream (for gzip, after the last member).
    case trailingData

    /// One sentence on what failed.
    public var description: String {
        switch self {
        case .unsupportedEncoding(let coding): return "The response's content coding \"\(coding)\" is not supported (gzip and deflate are)."
        case .outputTooLarge(let limit): return "The decompressed response is larger than the limit of \(limit) bytes."
        case .ratioTooHigh(let limit): return "The response decompresses to more than \(limit) times its size: a likely decompression bomb."
        case .corrupt(let reason): return "The compressed response is corrupt: \(reason)."
        case .truncated: return "The compressed response ends before its compressed stream does."
        case .trailingData: return "The compressed response has bytes after the end of its compressed stream."
        }
    }
}

/// Bounds on what a compressed body may decode to, so a small hostile body cannot exhaust
/// memory.
///
/// ```swift
/// var limits = DecompressionLimits()
/// limits.maximumSize = nil   // an endless event stream
/// ```
public struct DecompressionLimits: Sendable, Hashable {
    /// The most bytes a body may decode to; nil for no bound (a long-lived stream). 1 GiB by default.
    public var maximumSize: Int? = 1 << 30
    /// The most decoded bytes per compressed byte, checked once 1 MiB has been decoded. 250
    /// by default: JSON and text rarely pass 50, a bomb of zeros reaches about 1,000.
    public var maximumRatio = 250

    /// The default limits.
    public init() {}

    /// Limits of your own.
    public init(maximumSize: Int?, maximumRatio: Int) {
        self.maximumSize = maximumSize
        self.maximumRatio = maximumRatio
    }
}
