#if AsyncHTTPClient
import AsyncHTTPClient
import HTTPSerializationCore
import NIOCore

extension HTTPClient {
    /// Sends a serialized request and saves the response body to a file as it arrives, never
    /// holding it in memory: resumed with `Range` when the download asks and a partial file is
    /// there, checked against its announced length, removed on failure unless kept.
    ///
    /// What `httpser --download` does, as one call. The status rules, the checks and what
    /// becomes of the file on failure are ``/HTTPSerializationCore/FileDownload``'s.
    ///
    /// ```swift
    /// let request = try HTTPRequestSerializer().httpRequest(method: "GET", urlString: "https://example.com/big.iso")
    /// let download = FileDownload(to: URL(filePath: "big.iso"), resumesPartialFile: true, keepsPartialFile: true)
    /// let file = try await HTTPClient.shared.download(request, to: download) { progress in
    ///     print("\(progress.completed) of \(progress.total ?? -1)")
    /// }
    /// ```
    ///
    /// The body is written as the client hands it over: a client that undoes gzip and deflate
    /// (`HTTPClient.shared` does) saves the decoded bytes, though the download asks for none
    /// unless the request sets `Accept-Encoding`.
    ///
    /// - Parameters:
    ///   - request: the request to send; the download adds `Range`, `If-Range` and
    ///     `Accept-Encoding` as ``/HTTPSerializationCore/FileDownload/begin(_:)`` says.
    ///   - download: where the body goes and how a partial file is treated.
    ///   - timeout: how long the response head may take; the body may take as long as it takes,
    ///     within the client's own read timeout.
    ///   - progress: called as the file grows, with the bytes in it and its expected length.
    /// - Throws: ``/HTTPSerializationCore/TransportError``,
    ///   ``/HTTPSerializationCore/DownloadError``, and
    ///   ``/HTTPSerializationCore/ResponseSerializationError/unacceptableStatusCode(_:response:underlying:)``
    ///   for a status outside 2xx (but a `416` that finds the file whole).
    public func download(
        _ request: SerializedRequest, to download: FileDownload, timeout: TimeAmount = .seconds(60),
        progress: (@Sendable (TransferProgress) -> Void)? = nil
    ) async throws -> DownloadedFile {
        try await download.run(request, progress: progress) { try await stream($0, timeout: timeout) }
    }
}
#endif
