import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import HTTPSerializationCore

extension URLSession {
    /// Sends a serialized request and saves the response body to a file as it arrives:
    /// resumed with `Range` when the download asks and a partial file is there, checked
    /// against its announced length, removed on failure unless kept.
    ///
    /// The same download as the async-http-client bridge's `HTTPClient.download(_:to:)`, through
    /// ``stream(for:uploadProgress:allowsRedirectedBodies:)-(SerializedRequest,_,_)``; the status
    /// rules, the checks and what becomes of the file are ``/HTTPSerializationCore/FileDownload``'s.
    /// Unlike `URLSession`'s own `download(for:)`, the body goes straight to your file (no
    /// temporary file to move) and a partial file resumes across launches with no resume data.
    ///
    /// ```swift
    /// let download = FileDownload(to: URL(filePath: "big.iso"), resumesPartialFile: true, keepsPartialFile: true)
    /// let file = try await URLSession.shared.download(for: request, to: download)
    /// print(file.length, file.resumedFrom ?? 0)
    /// ```
    ///
    /// On Linux, swift-corelibs-foundation cannot pause a transfer, so chunks the file has not
    /// taken yet wait in memory; writing keeps up with any network, but the async-http-client
    /// bridge bounds memory by design.
    ///
    /// - Parameters:
    ///   - request: the request to send; the download adds `Range`, `If-Range` and
    ///     `Accept-Encoding` as ``/HTTPSerializationCore/FileDownload/begin(_:)`` says.
    ///   - download: where the body goes and how a partial file is treated.
    ///   - progress: called as the file grows, with the bytes in it and its expected length.
    /// - Throws: ``/HTTPSerializationCore/TransportError``,
    ///   ``/HTTPSerializationCore/DownloadError``, and
    ///   ``/HTTPSerializationCore/ResponseSerializationError/unacceptableStatusCode(_:response:underlying:)``
    ///   for a status outside 2xx (but a `416` that finds the file whole).
    public func download(
        for request: SerializedRequest, to download: FileDownload, progress: (@Sendable (TransferProgress) -> Void)? = nil
    ) async throws -> DownloadedFile {
        try await download.run(request, progress: progress) { try await stream(for: $0) }
    }
}
