/// A part's bytes, read on demand: the Swift form of an `InputStream` for
/// ``MultipartFormData/appendPart(streamFactory:name:fileName:length:mimeType:)``.
///
/// The form reads a stream from one thread at a time, never asks for more than the bytes still declared, and
/// closes it when the part is done or the body is abandoned. A stream that ends early or runs long is
/// reported as ``RequestSerializationError/multipartLengthMismatch(part:declared:actual:)``.
///
/// ```swift
/// final class Repeating: MultipartPartStream {
///     func read(into buffer: UnsafeMutableRawBufferPointer) throws -> Int {
///         buffer.initializeMemory(as: UInt8.self, repeating: 0x61)
///         return buffer.count
///     }
///     func close() {}
/// }
/// ```
public protocol MultipartPartStream: AnyObject {
    /// Reads up to `buffer.count` bytes into `buffer` and returns how many; 0 only at the end.
    ///
    /// - Throws: ``MultipartStreamError`` with a reason, or any error, which the form reports
    ///   as ``RequestSerializationError/multipartSourceUnavailable(part:reason:)``.
    func read(into buffer: UnsafeMutableRawBufferPointer) throws -> Int
    /// Releases what the stream holds; called once.
    func close()
}

/// A part stream's failure, with the reason to report for its part.
public struct MultipartStreamError: Error, Sendable, Equatable {
    /// Why the stream failed, as it reads after the part's name: "the stream failed: …".
    public var reason: String

    /// A failure to report with `reason`.
    public init(reason: String) {
        self.reason = reason
    }
}
