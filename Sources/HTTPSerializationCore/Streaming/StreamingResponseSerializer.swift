#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import HTTPTypes

/// Validates a response head, then decodes its body into values as the bytes arrive.
///
/// For bodies a caller reads while they are still coming (server-sent events, JSON Lines, a
/// huge array): ``values(for:body:requestMethod:request:)`` checks the status and content type with
/// the same rules as the whole-body serializers, before a byte is decoded, and yields each
/// value as soon as it is complete.
///
/// ```swift
/// let response = try await client.execute(request, timeout: .seconds(30))
/// let lines = JSONStreamResponseSerializer()
/// for try await record in lines.values(for: HTTPResponse(response), body: response.body.map(\.readableBytesView)) {
///     print(record)
/// }
/// ```
public protocol StreamingResponseSerializer: Sendable {
    /// What reads the body once the head has passed.
    associatedtype BodyDecoder: StreamingBodyDecoder

    /// The status-code and content-type rules the head must pass.
    var base: HTTPResponseSerializer { get }

    /// A decoder for the body of `response`, which has passed validation.
    func makeBodyDecoder(for response: HTTPResponse) throws -> BodyDecoder
}

extension StreamingResponseSerializer {
    /// The values of `body`, decoded as its chunks arrive, after `response` has passed
    /// validation.
    ///
    /// Reading stops when the caller stops iterating or its task is cancelled. A status the
    /// serializer does not accept is thrown with up to 1 MiB of the body attached (a server's
    /// error payload); a content type it does not accept is thrown before the body is read,
    /// and a response without one fails at its first byte (an empty body passes).
    ///
    /// - Parameters:
    ///   - response: the response head.
    ///   - body: the body's chunks: `Data`, `[UInt8]`, a `ByteBuffer`'s `readableBytesView`, any
    ///     sequence of bytes.
    ///   - requestMethod: the method of the request, when known; `request`'s when nil.
    ///   - request: the request's head, when known: the checks in ``HTTPResponseSerializer/validators``
    ///     see it, and ``HTTPResponseSerializer/contentTypesFromAcceptHeader`` reads its `Accept`.
    public func values<Body: AsyncSequence>(
        for response: HTTPResponse, body: Body, requestMethod: HTTPRequest.Method? = nil, request: HTTPRequest? = nil
    ) -> ResponseValueStream<Self, Body> where Body.Element: Sequence<UInt8> {
        ResponseValueStream(serializer: self, response: response, body: body, requestMethod: requestMethod ?? request?.method, request: request)
    }
}

extension StreamingResponseSerializer where Self: HTTPResponseSerializerComposing {
    /// Every value of a body already in hand, as ``values(for:body:requestMethod:request:)`` would
    /// give them, for the whole-body `responseObject(for:)` of a streaming serializer.
    package func allValues(in context: ResponseContext) throws -> [BodyDecoder.Value] {
        let context = try preprocessed(context)
        try base.validate(context)
        var values: [BodyDecoder.Value] = []
        guard let response = context.response else {
            return values
        }
        var decoder = try makeBodyDecoder(for: response)
        if let data = context.data {
            try data.withUnsafeBytes { try decoder.decode(Span(_unsafeBytes: $0), into: &values) }
        }
        try decoder.finish(into: &values)
        return values
    }
}
