import HTTPSerializationCore
import HTTPTypes

/// A response body with its content coding undone, chunk by chunk as it arrives.
///
/// Made by `decodingContentEncoding(of:limits:)` on any `AsyncSequence` of byte chunks, and
/// read by a streaming serializer like any other body; a body without a coding passes through.
///
/// ```swift
/// let body = try response.body.map(\.readableBytesView).decodingContentEncoding(of: head)
/// for try await event in ServerSentEventsResponseSerializer().values(for: head, body: body) { … }
/// ```
public struct ContentDecodedBody<Base: AsyncSequence>: AsyncSequence where Base.Element: Sequence<UInt8> {
    /// Decoded bytes, one chunk for each chunk of the base that decoded to any.
    public typealias Element = [UInt8]

    let base: Base
    let encoding: ContentEncoding?
    let limits: DecompressionLimits

    /// Starts reading the base body.
    public func makeAsyncIterator() -> AsyncIterator {
        AsyncIterator(base: base.makeAsyncIterator(), inflater: encoding.map { Inflater(encoding: $0, limits: limits) })
    }

    /// Pulls the base body and decodes each chunk.
    public struct AsyncIterator: AsyncIteratorProtocol {
        var base: Base.AsyncIterator
        let inflater: Inflater?
        var ended = false

        /// The next decoded chunk, nil after the last, or the error that stopped the body.
        public mutating func next() async throws -> [UInt8]? {
            while !ended {
                guard let chunk = try await base.next() else {
                    ended = true
                    try inflater?.finish()
                    return nil
                }
                guard let inflater else { return Array(chunk) }
                var decoded: [UInt8] = []
                try chunk.withChunkBytes { input in
                    try inflater.decompress(input) { decoded.append(contentsOf: $0) }
                }
                if !decoded.isEmpty { return decoded }
            }
            return nil
        }
    }
}

extension ContentDecodedBody: Sendable where Base: Sendable {}

extension AsyncSequence where Element: Sequence<UInt8> {
    /// This body with `response`'s `Content-Encoding` (gzip or deflate) undone as it arrives,
    /// within `limits`.
    ///
    /// - Throws: ``DecompressionError/unsupportedEncoding(_:)`` at once for a coding the
    ///   package does not decode; the other ``DecompressionError``s come while reading.
    public func decodingContentEncoding(of response: HTTPResponse, limits: DecompressionLimits = DecompressionLimits()) throws -> ContentDecodedBody<Self> {
        ContentDecodedBody(base: self, encoding: try ContentEncoding(of: response), limits: limits)
    }
}

extension StreamedResponse {
    /// This response with its `Content-Encoding` (gzip or deflate) undone as the body
    /// arrives, within `limits`, and the head without `Content-Encoding` and `Content-Length`,
    /// which described the coded body.
    ///
    /// For transports that hand over the body as it came off the wire, such as
    /// async-http-client (URLSession decodes content codings itself):
    ///
    /// ```swift
    /// let streamed = try await client.stream(request).decodingContentEncoding()
    /// for try await record in streamed.values(JSONStreamResponseSerializer()) { … }
    /// ```
    ///
    /// - Throws: ``DecompressionError/unsupportedEncoding(_:)`` at once for a coding the
    ///   package does not decode; the other ``DecompressionError``s come while reading.
    public func decodingContentEncoding(limits: DecompressionLimits = DecompressionLimits()) throws -> StreamedResponse<ContentDecodedBody<Body>> {
        var decoded = try mapBody { try $0.decodingContentEncoding(of: response, limits: limits) }
        if decoded.body.encoding != nil {
            decoded.response.headerFields[.contentEncoding] = nil
            decoded.response.headerFields[.contentLength] = nil
        }
        return decoded
    }
}
