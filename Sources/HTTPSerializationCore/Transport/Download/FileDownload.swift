#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import HTTPTypes

/// Where and how a response body is saved: a file written as the body arrives, never held in
/// memory, resumed with a `Range` request when a partial file is there.
///
/// The transports' `download` methods take one (the async-http-client bridge's
/// `HTTPClient.download(_:to:)`, `URLSession.download(for:to:)`); for another transport,
/// ``begin(_:)`` gives the request to send and ``Attempt/finish(_:progress:)`` saves what
/// came back. The file holds the body as the transport hands it over, and the request asks
/// for it unencoded (`Accept-Encoding: identity`) unless it says otherwise, so a byte range
/// means the same in the file as on the server.
///
/// ```swift
/// let download = FileDownload(to: URL(filePath: "/tmp/big.iso"), resumesPartialFile: true, keepsPartialFile: true)
/// let file = try await HTTPClient.shared.download(request, to: download) { progress in
///     print(progress.fraction ?? 0)
/// }
/// print(file.length, file.resumedFrom ?? 0)
/// ```
///
/// What the response decides:
/// - `200` (or any `2xx` but `206`) writes the file from the start, replacing what was there,
///   also when a resume was asked for and the server chose to send everything.
/// - `206` to a resumed request appends, once its `Content-Range` starts where the file ends.
/// - `416` to a resumed request means the file is already whole when the length the server
///   reports is the file's; otherwise it is ``DownloadError/rangeNotSatisfiable(path:fileLength:resourceLength:)``.
/// - Any other status is ``ResponseSerializationError/unacceptableStatusCode(_:response:underlying:)``
///   with up to 64 KiB of its body, and the file is not touched unless it was being resumed.
///
/// A body shorter or longer than its `Content-Length` (or the range's length) is
/// ``DownloadError/lengthMismatch(path:expected:received:)``, and bytes past that length are
/// never written. The length is not checked under a `Content-Encoding` other than `identity`
/// (a transport may have decoded the body, and `Content-Length` counts the coded bytes), and a
/// coded `206` cannot be appended to a resumed file. A `HEAD`, `204` or `205` has no body by
/// definition and leaves the file as it is. On any failure once the file
/// is being written (a resumed file from the start), the file is removed unless
/// ``keepsPartialFile`` is set, in which case it holds the bytes that arrived (all of them,
/// unless writing them is what failed), ready to resume. Only a regular file is ever removed:
/// not a device such as `/dev/null`, a pipe, or a symbolic link.
public struct FileDownload: Sendable, Equatable {
    /// The file the body is written to; its folder must exist.
    public var destination: URL
    /// Whether a non-empty file at ``destination`` is continued with `Range: bytes=N-`
    /// (otherwise it is replaced).
    public var resumesPartialFile: Bool
    /// Whether a failed download leaves the bytes that arrived in place, for a later resume
    /// (otherwise the file is removed).
    public var keepsPartialFile: Bool
    /// A validator from the earlier download (its ``DownloadedFile/validator``), sent as
    /// `If-Range` when resuming: a server whose resource changed then sends all of it again.
    public var ifRange: String?

    /// A download to `destination`; by default it replaces the file and removes it on failure.
    public init(to destination: URL, resumesPartialFile: Bool = false, keepsPartialFile: Bool = false, ifRange: String? = nil) {
        self.destination = destination
        self.resumesPartialFile = resumesPartialFile
        self.keepsPartialFile = keepsPartialFile
        self.ifRange = ifRange
    }

    /// The request to send for this download, and where the file stands: `request` with
    /// `Range` (and `If-Range`) when a partial file is resumed (replacing a `Range` of its
    /// own), and `Accept-Encoding: identity` unless it has an `Accept-Encoding`.
    ///
    /// Send ``Attempt/request`` with a streaming transport and hand the response to
    /// ``Attempt/finish(_:progress:)``.
    ///
    /// - Throws: ``DownloadError/cannotWrite(path:reason:)`` when ``destination`` is not a
    ///   file URL, names a folder, a pipe or a socket, or its folder does not exist, and
    ///   ``RequestSerializationError/invalidHeaderField(name:reason:)``
    ///   for an ``ifRange`` that is not a valid field value.
    public func begin(_ request: SerializedRequest) throws -> Attempt {
        let path = try DownloadFileSink.path(of: destination)
        if let ifRange { try HTTPHeaderFields.validate(name: "If-Range", value: ifRange) }
        if let problem = DownloadFileSink.destinationProblem(path) { throw DownloadError.cannotWrite(path: path, reason: problem) }
        var offset: Int64 = 0
        if resumesPartialFile, let length = DownloadFileSink.regularFileLength(path) { offset = length }
        var sent = request
        if sent.request.headerFields[.acceptEncoding] == nil {
            sent.request.headerFields[.acceptEncoding] = "identity"
        }
        if offset > 0 {
            sent.request.headerFields[.range] = "bytes=\(offset)-"
            if let ifRange { sent.request.headerFields[.ifRange] = ifRange }
        }
        return Attempt(download: self, path: path, request: sent, resumingAt: offset > 0 ? offset : nil,
                       asksForRange: sent.request.headerFields[.range] != nil)
    }
}

extension FileDownload {
    /// Runs the whole download through `send`, any transport's streaming send: the one path
    /// the transports' `download` methods take.
    ///
    /// ```swift
    /// let file = try await download.run(request) { try await myTransport.stream($0) }
    /// ```
    ///
    /// - Throws: what ``begin(_:)``, `send` and ``Attempt/finish(_:progress:)`` throw; a
    ///   resumed file is removed when `send` fails too, unless ``keepsPartialFile`` is set.
    public func run<Body: AsyncSequence>(
        _ request: SerializedRequest, progress: (@Sendable (TransferProgress) -> Void)? = nil,
        send: (SerializedRequest) async throws -> StreamedResponse<Body>
    ) async throws -> DownloadedFile where Body.Element: Sequence<UInt8> {
        let attempt = try begin(request)
        let streamed: StreamedResponse<Body>
        do {
            streamed = try await send(attempt.request)
        } catch {
            attempt.abandon()
            throw error
        }
        return try await attempt.finish(streamed, progress: progress)
    }
}
