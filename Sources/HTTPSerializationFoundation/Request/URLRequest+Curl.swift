import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import HTTPSerializationCore

extension URLRequest {
    /// This request as a `curl` command that sends what the async-http-client bridge sends for
    /// it: Alamofire's `cURLDescription()`.
    ///
    /// The request goes through `SerializedRequest(_:)` first, so a form or stream this
    /// package made is written out whole, and its fields come in the order that conversion
    /// gives (by name, as `URLRequest` keeps no order); see
    /// ``/HTTPSerializationCore/SerializedRequest/curlCommand(bodyFile:maximumInlineBodyBytes:)``.
    /// URLSession adds fields of its own when it sends (its `User-Agent`, `Accept-Language`,
    /// cookies, the session's additional headers), which the command does not. A body stream
    /// of another origin is read to write the file, and is then used up.
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
