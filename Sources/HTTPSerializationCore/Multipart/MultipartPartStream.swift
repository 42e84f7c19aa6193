/// A part's bytes, read on demand: the Swift form of an `InputStream` for
/// ``MultipartFormData/appendPart(streamFactory:name:fileName:length:mimeType:)``.
///
/// The form reads a stream from one thread at a time, never asks for more than the bytes still declared, and
/// closes it when the part is done or the body is abandoned. A stream that ends early or runs long is
/// reported as ``RequestSerializationError/multipartLengthMismatch(part:declared:actual:)``.
///
/// ```swift
/// final class Repeating: MultipartPartStream {
///     func read(into buffer: inout OutputSpan<UInt8>) throws {
///         buffer.append(repeating: 0x61, count: buffer.freeCapacity)
///     }
///     func close() {}
/// }
/// ```
///
/// A stream over a C API or a file descriptor writes in place, in
/// `buffer.withUnsafeMutableBufferPointer { storage, initializedCount in … }`: at
/// `storage.baseAddress! + initializedCount`, at most `storage.count - initializedCount` bytes,
/// adding what it wrote to `initializedCount`.
public protocol MultipartPartStream: AnyObject {
    /// Appends the stream's next bytes to `buffer`, at most `buffer.freeCapacity` of them;
    /// appending none means the stream has ended.
    ///
    /// The form counts what was appended, so a stream cannot report bytes it did not write.
    ///
    /// - Throws: ``MultipartStreamError`` with a reason, or any error, which the form reports
    ///   as ``RequestSerializationError/multipartSourceUnavailable(part:reason:)``.
    func read(into buffer: inout OutputSpan<UInt8>) throws
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
