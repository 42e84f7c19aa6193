// README row `HTTPSerializationCompression`: gzip and deflate response bodies undone as they
// arrive or whole (decodingContentEncoding), with limits against decompression bombs.
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import HTTPSerializationCompression

public func checkCompression<Body: AsyncSequence>(_ response: ResponseContext, streamed: StreamedResponse<Body>) throws {
    _ = queryString(from: ["a": 1])
    _ = try response.decodingContentEncoding(limits: DecompressionLimits(maximumSize: 1 << 20, maximumRatio: 100))
    _ = try streamed.decodingContentEncoding()
    _ = try SerializedRequest(request: HTTPRequest(method: .post, scheme: "http", authority: "127.0.0.1", path: "/"), body: .bytes(Data("a".utf8))).compressed(.gzip)
}
