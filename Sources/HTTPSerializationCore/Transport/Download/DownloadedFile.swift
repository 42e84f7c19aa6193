#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import HTTPTypes

/// A body saved to a file by a ``FileDownload``: where, how long, and the head that came with it.
public struct DownloadedFile: Sendable {
    /// The file, the download's destination.
    public var fileURL: URL
    /// The response head; for a file found already whole, the server's `416`.
    public var response: HTTPResponse
    /// The URL the response came from, after any redirect.
    public var url: URL?
    /// The bytes the file holds: those it had when resumed and those written (for a device
    /// such as `/dev/null`, what was written to it).
    public var length: Int64
    /// The bytes this response wrote (0 for a file found already whole).
    public var bytesWritten: Int64
    /// Where the body was appended when a partial file was resumed; nil when it was written
    /// from the start (no partial file, or a server that sent everything again).
    public var resumedFrom: Int64?

    /// Describes a saved download.
    public init(fileURL: URL, response: HTTPResponse, url: URL?, length: Int64, bytesWritten: Int64, resumedFrom: Int64?) {
        self.fileURL = fileURL
        self.response = response
        self.url = url
        self.length = length
        self.bytesWritten = bytesWritten
        self.resumedFrom = resumedFrom
    }

    /// What to send as ``FileDownload/ifRange`` when resuming this file later: the response's
    /// strong `ETag`, else its `Last-Modified`; nil when it had neither (or only a weak tag,
    /// which `If-Range` cannot use).
    public var validator: String? {
        if let tag = response.headerFields[.eTag], !tag.hasPrefix("W/") { return tag }
        return response.headerFields[.lastModified]
    }
}
