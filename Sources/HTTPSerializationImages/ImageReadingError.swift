/// Why ``ImageResponseSerializer`` refused an image, before or while decoding it.
///
/// The serializer throws it inside
/// ``/HTTPSerializationCore/ResponseSerializationError/unreadableBody(_:response:)``, so a
/// decompression bomb is told apart from a format this platform does not decode:
///
/// ```swift
/// catch ResponseSerializationError.unreadableBody(let refusal as ImageReadingError, _) {
///     if case .tooLarge(let width, let height, _) = refusal.reason { … }
/// }
/// ```
public struct ImageReadingError: BodyReadingError {
    /// What was wrong.
    public enum Reason: Sendable, Hashable {
        /// The body is not an image whose header the reader recognises.
        case unrecognized
        /// More pixels than allowed (``ImageResponseSerializer/maximumPixelCount``, or the
        /// ``ImageResponseSerializer/decodeBudget`` for the body's size), refused from the
        /// header before any pixel memory is allocated: a decompression bomb, or a mistake.
        case tooLarge(width: Int, height: Int, limit: Int)
        /// A format this platform recognises and measures but does not decode (GIF, BMP, ICO,
        /// TIFF and WebP on Linux): never reported as a decoded image.
        case notDecoded(ImageHeader.Format)
        /// The decoder refused the data (a corrupt or truncated image); the text says why,
        /// when the decoder does.
        case corrupt(format: ImageHeader.Format, detail: String?)
    }

    /// The kind of fault.
    public var reason: Reason

    /// An error of kind `reason`.
    public init(_ reason: Reason) {
        self.reason = reason
    }

    /// Always nil: image decoders do not say where in the body they stopped.
    public var offset: Int? { nil }

    /// The fault in one sentence: `The image is 100000 × 100000 pixels, more than …`.
    public var description: String { "The \(reasonText)." }

    /// The reason in words, without the sentence around it: `image is 100000 × 100000 pixels,
    /// more than the 16777216 allowed`.
    public var reasonText: String {
        switch reason {
        case .unrecognized: return "response is not a supported image"
        case .tooLarge(let width, let height, let limit): return "image is \(width) × \(height) pixels, more than the \(limit) allowed"
        case .notDecoded(let format): return "\(format.displayName) image is recognised but not decoded on this platform"
        case .corrupt(let format, let detail?): return "\(format.displayName) image could not be decoded: \(detail)"
        case .corrupt(let format, nil): return "\(format.displayName) image could not be decoded"
        }
    }
}

extension ImageHeader.Format {
    /// The format's name as messages print it: `PNG`, `JPEG`.
    var displayName: String { rawValue.uppercased() }
}
