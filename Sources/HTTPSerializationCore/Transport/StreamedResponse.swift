#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import HTTPTypes

/// A response whose body is still arriving: the head, the URL it came from, and the body's
/// chunks, read once.
///
/// What every transport's streaming send returns (the async-http-client bridge's
/// `stream(_:)`, URLSession's `stream(for:)`), so server-sent events, JSON Lines and huge
/// arrays are read the same way on both. ``values(_:)`` validates the head and decodes the
/// body as it comes; reading ``body`` yourself gives the raw chunks.
///
/// ```swift
/// let streamed = try await client.stream(request)
/// for try await event in streamed.values(ServerSentEventsResponseSerializer()) {
///     print(event.type, event.data)
/// }
/// ```
public struct StreamedResponse<Body: AsyncSequence> where Body.Element: Sequence<UInt8> {
    /// The response head: status and header fields, in the order they arrived.
    public var response: HTTPResponse
    /// The body's chunks as they arrive; iterating it a second time is not supported.
    public var body: Body
    /// The URL the response came from, after any redirect.
    public var url: URL?
    /// The method of the request, so a serializer knows a HEAD response is empty by design.
    public var requestMethod: HTTPRequest.Method?
    /// The head of the request this answers, for the serializer's checks and its `Accept` rule.
    public var request: HTTPRequest?

    /// Pairs a response head with the body still to be read; ``requestMethod`` is `request`'s
    /// method when no method is given.
    public init(response: HTTPResponse, body: Body, url: URL? = nil, requestMethod: HTTPRequest.Method? = nil, request: HTTPRequest? = nil) {
        self.response = response
        self.body = body
        self.url = url
        self.requestMethod = requestMethod ?? request?.method
        self.request = request
    }

    /// The body's values as `serializer` decodes them, after the head has passed its
    /// validation.
    ///
    /// The same as ``StreamingResponseSerializer/values(for:body:requestMethod:request:)`` with this
    /// response's head, body and request.
    public func values<Serializer: StreamingResponseSerializer>(_ serializer: Serializer) -> ResponseValueStream<Serializer, Body> {
        serializer.values(for: response, body: body, requestMethod: requestMethod, request: request)
    }

    /// This response with its body read through `transform`: for a layer between the wire and
    /// the serializer, such as content decoding.
    public func mapBody<NewBody: AsyncSequence>(
        _ transform: (Body) throws -> NewBody
    ) rethrows -> StreamedResponse<NewBody> where NewBody.Element: Sequence<UInt8> {
        StreamedResponse<NewBody>(response: response, body: try transform(body), url: url, requestMethod: requestMethod, request: request)
    }
}

extension StreamedResponse: Sendable where Body: Sendable {}
