#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import HTTPTypes

/// The decoded body of a response with the response head and raw body it came from: what
/// every transport (URLSession's helpers, the async-http-client bridge) returns.
///
/// The head is swift-http-types' `HTTPResponse`, the same on every transport; the Foundation
/// layer adds `urlResponse` for code that wants URLSession's own object. It is `Sendable`
/// when its output is, so a send can run in a child task.
///
/// ```swift
/// let result = try await client.execute(request, serializer: DecodableResponseSerializer(User.self))
/// result.response.status     // .ok
/// result.output.name         // "bang"
/// ```
public struct SerializedResponse<Output> {
    /// The body as the serializer decoded it.
    public var output: Output
    /// The response head: status and header fields, in the order they arrived.
    public var response: HTTPResponse
    /// The body's bytes as received.
    public var data: Data
    /// The URL the response came from, after any redirect.
    public var url: URL?
    /// The transport's own response object (URLSession's `HTTPURLResponse`), when it has one.
    package var transportResponse: (any Sendable)?

    /// Pairs a decoded body with its response head, bytes and URL.
    public init(output: Output, response: HTTPResponse, data: Data, url: URL? = nil) {
        self.output = output
        self.response = response
        self.data = data
        self.url = url
    }
}

extension SerializedResponse: Sendable where Output: Sendable {}

extension SerializedResponse {
    /// Validates and decodes what a transport received; the context carries the request's
    /// method, so a serializer knows a HEAD response is empty by design.
    package static func decoding<Serializer: ResponseSerializer>(
        _ context: ResponseContext, url: URL?, serializer: Serializer
    ) throws -> SerializedResponse<Serializer.Output> where Serializer.Output == Output {
        guard let head = context.response else {
            throw ResponseSerializationError.responseSerializationFailed(
                reason: "The response is not an HTTP response.", response: context)
        }
        var result = SerializedResponse(output: try serializer.responseObject(for: context), response: head, data: context.data ?? Data(), url: url)
        result.transportResponse = context.transportResponse
        return result
    }
}
