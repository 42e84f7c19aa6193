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
        case asyncChunks(AsyncChunkFactory)
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

    /// A stream made afresh by `makeStream` each time the body is read, so the body can be
    /// sent again: the same request sent a second time on either transport, or a 307 or 308
    /// redirect that async-http-client follows.
    ///
    /// - Parameters:
    ///   - length: the bytes every stream delivers, enforced; nil to send the body chunked.
    ///   - makeStream: makes a stream positioned at the body's first byte.
    /// - Throws: ``RequestSerializationError/multipartSourceUnavailable(part:reason:)`` for a
    ///   length past `Int64.max`, more than HTTP transports can frame.
    public init(length: UInt64?, makeStream: @escaping @Sendable () throws -> any MultipartPartStream) throws {
        self.length = try Self.checked(length)
        source = .factory(makeStream)
    }

    /// A stream that can be read once; reading the body a second time is
    /// ``RequestSerializationError/multipartStreamAlreadyConsumed(part:)``.
    ///
    /// The stream is handed over (`sending`): only the body reads it from now on.
    ///
    /// - Parameters:
    ///   - stream: the body's bytes, from its first.
    ///   - length: the bytes it delivers, enforced; nil to send the body chunked.
    /// - Throws: ``RequestSerializationError/multipartSourceUnavailable(part:reason:)`` for a
    ///   length past `Int64.max`, more than HTTP transports can frame.
    public init(stream: sending any MultipartPartStream, length: UInt64?) throws {
        self.length = try Self.checked(length)
        source = .oneShot(OneShotStream(stream))
    }

    /// A body read from an async sequence of byte chunks as it is sent, chunked: a bulk upload
    /// written as it goes (JSON Lines for a search engine's bulk API, say), or bytes relayed
    /// from another stream.
    ///
    /// Each send iterates `chunks` afresh, so a sequence that can be iterated again (a stream
    /// writer's chunks over a replayable source) can be sent again on a retry or a 307 or 308
    /// redirect. An error the sequence throws ends the upload with that error.
    ///
    /// async-http-client sends it chunked as it is written. URLSession is given a temporary
    /// copy written first (with its length), because on Linux it reads a body stream while
    /// holding a queue that its own async calls wait for on Swift's thread pool. The
    /// synchronous readers, ``RequestBody/collect()`` and the Foundation layer's
    /// `makeInputStream()`, wait on their thread for a task per chunk: call them from a thread
    /// of your own, never from a task.
    ///
    /// ```swift
    /// let writer = JSONStreamWriter<LogEntry>(format: .lines)
    /// let request = try HTTPRequestSerializer().httpRequest(
    ///     method: "POST", urlString: "https://search.example.com/_bulk",
    ///     body: .stream(RequestBodyStream(chunks: writer.chunks(for: entries, minimumChunkSize: 64 * 1024))),
    ///     contentType: writer.contentType)
    /// ```
    public init<Chunks: AsyncSequence & Sendable>(chunks: Chunks) where Chunks.Element: Sequence<UInt8> {
        length = nil
        source = .asyncChunks(AsyncChunkFactory(chunks))
    }

    /// `length`, unless no transport could frame it.
    private static func checked(_ length: UInt64?) throws -> UInt64? {
        if let length, length > UInt64(Int64.max) {
            throw RequestSerializationError.multipartSourceUnavailable(
                part: label, reason: "its declared length of \(length) bytes is more than the \(Int64.max) an HTTP body can have")
        }
        return length
    }

    /// The file the body is read from, for transports that upload a file directly.
    public var fileURL: URL? {
        if case .file(let url) = source { return url }
        return nil
    }

    /// The file to upload as it is, its size read again just before sending, so a file that
    /// changed since the body was made is an error and not a body that disagrees with its
    /// `Content-Length`; nil for a stream.
    package func fileForDirectUpload() throws -> URL? {
        guard case .file(let url) = source else { return nil }
        let size = try MultipartFormData.regularFileSize(url, label: Self.label)
        guard size == length else {
            throw RequestSerializationError.multipartLengthMismatch(part: Self.label, declared: length ?? 0, actual: size)
        }
        return url
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
        case .asyncChunks(let factory):
            return BlockingChunkSource(factory)
        }
    }

    /// The async sequence the body is read from, for readers that can await it; nil for a
    /// file or a synchronous stream.
    package var asyncChunks: AsyncChunkFactory? {
        if case .asyncChunks(let factory) = source { return factory }
        return nil
    }
}
