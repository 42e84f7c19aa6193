#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// A request body read on demand: a file, or a stream, with its length when it is known.
///
/// For bodies too large to hold in memory (an upload of a disk image, a generated export).
/// A known length goes out as `Content-Length` and is enforced: a file or stream that
/// delivers fewer or more bytes is an error, never a silently different body. An unknown
/// length goes out chunked.
///
/// ```swift
/// let body = try RequestBodyStream(fileURL: archiveURL)
/// let request = try HTTPRequestSerializer().httpRequest(
///     method: "PUT", urlString: "https://example.com/archive.tar", body: .stream(body),
///     contentType: "application/x-tar")
/// ```
public struct RequestBodyStream: Sendable {
    package enum Source: Sendable {
        case file(URL)
        case factory(@Sendable () throws -> any MultipartPartStream)
        case oneShot(OneShotStream)
    }

    /// The exact number of bytes the body holds, or nil when it is known only at its end.
    public let length: UInt64?
    package let source: Source

    /// A regular file's bytes; its size is read now and enforced when it is read.
    ///
    /// - Throws: ``RequestSerializationError/multipartSourceUnavailable(part:reason:)`` when the
    ///   URL is not a file URL, or the file is missing, a directory, or of unknown size.
    public init(fileURL: URL) throws {
        length = try MultipartFormData.regularFileSize(fileURL, label: Self.label)
        source = .file(fileURL)
    }

    /// A stream made afresh by `makeStream` each time the body is read, so a transport can send
    /// it again (a retry, a 307 redirect).
    ///
    /// - Parameters:
    ///   - length: the bytes every stream delivers, enforced; nil to send the body chunked.
    ///   - makeStream: makes a stream positioned at the body's first byte.
    public init(length: UInt64?, makeStream: @escaping @Sendable () throws -> any MultipartPartStream) {
        self.length = length
        source = .factory(makeStream)
    }

    /// A stream that can be read once; reading the body a second time is
    /// ``RequestSerializationError/multipartStreamAlreadyConsumed(part:)``.
    ///
    /// - Parameters:
    ///   - stream: the body's bytes, from its first.
    ///   - length: the bytes it delivers, enforced; nil to send the body chunked.
    public init(stream: any MultipartPartStream, length: UInt64?) {
        self.length = length
        source = .oneShot(OneShotStream(stream))
    }

    /// The file the body is read from, for transports that upload a file directly.
    public var fileURL: URL? {
        if case .file(let url) = source { return url }
        return nil
    }

    /// How errors name the body, in place of a part's label.
    package static let label = "the request body"

    /// A fresh reader over the body.
    package func makeSource() throws -> any BodyByteSource {
        switch source {
        case .file(let url):
            // The length was read when the body was made, so it is always known here.
            return try FileBodySource(url: url, declared: length ?? 0, label: Self.label)
        case .factory(let makeStream):
            return try StreamBodySource(opening: makeStream, declared: length, label: Self.label)
        case .oneShot(let oneShot):
            return try StreamBodySource(claiming: oneShot, declared: length, label: Self.label)
        }
    }
}
