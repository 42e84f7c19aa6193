import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import HTTPSerializationCore

/// The decoded body of a response with the response and raw body it came from: what both
/// transport helpers return.
///
/// It is `Sendable` when its output is, so a send can run in a child task:
/// `let user = try await Task { try await session.response(for: request, serializer: users) }.value`.
public struct SerializedResponse<Output> {
    /// The body as the serializer decoded it.
    public var output: Output
    /// The HTTP response the body came with.
    public var response: HTTPURLResponseValue
    /// The body's bytes as received.
    public var data: Data

    /// Pairs a decoded body with its response and bytes.
    public init(output: Output, response: HTTPURLResponseValue, data: Data) {
        self.output = output
        self.response = response
        self.data = data
    }
}

extension SerializedResponse: Sendable where Output: Sendable {}

/// `HTTPURLResponse` under a name that reads well in signatures across modules.
public typealias HTTPURLResponseValue = HTTPURLResponse

extension SerializedResponse {
    /// Validates and decodes what a transport received, with the request known: its method
    /// tells a serializer that a HEAD response is empty by design (`emptyRequestMethods`).
    package static func decoding<Serializer: ResponseSerializer>(
        _ response: URLResponse, data: Data, request: URLRequest, serializer: Serializer
    ) throws -> SerializedResponse<Serializer.Output> where Serializer.Output == Output {
        guard let http = response as? HTTPURLResponse else {
            throw ResponseSerializationError.responseSerializationFailed(
                reason: "The response is not an HTTP response.", response: ResponseContext(response: response, data: data, request: request))
        }
        let context = try ResponseContext.checked(http, data: data, request: request)
        return SerializedResponse(output: try serializer.responseObject(for: context), response: http, data: data)
    }
}

extension URLRequest {
    /// The redirect rule of both transports: a request with a body whose response came from
    /// another URL is ``/HTTPSerializationCore/RequestSerializationError/redirectedWithBody(from:to:)``
    /// (the body may have been dropped on the way).
    package func checkNotRedirected(to response: URLResponse, hasBody: Bool) throws {
        guard hasBody, let from = url?.absoluteString, let to = response.url?.absoluteString, from != to else { return }
        throw RequestSerializationError.redirectedWithBody(from: from, to: to)
    }
}
