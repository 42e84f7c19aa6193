import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import HTTPSerializationCore

extension URLRequest {
    /// This request as a `curl` command that sends the same method, URL, header fields and
    /// body: Alamofire's `cURLDescription()`, exact.
    ///
    /// The request goes through `SerializedRequest(_:)` first, so a form or stream this
    /// package made is written out whole; see ``/HTTPSerializationCore/SerializedRequest/curlCommand(bodyFile:maximumInlineBodyBytes:)``.
    ///
    /// ```swift
    /// print(try await request.curlCommand())
    /// ```
    ///
    /// - Throws: the errors of `SerializedRequest(_:)` and of writing the body's file.
    public func curlCommand(bodyFile: URL? = nil, maximumInlineBodyBytes: Int = 4096) async throws -> CurlCommand {
        try await SerializedRequest(self).curlCommand(bodyFile: bodyFile, maximumInlineBodyBytes: maximumInlineBodyBytes)
    }
}
