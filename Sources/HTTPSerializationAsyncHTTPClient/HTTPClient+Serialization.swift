// The bridge exists only with the package trait `AsyncHTTPClient`, so apps that do not use it
// never resolve async-http-client and swift-nio.
#if AsyncHTTPClient
import AsyncHTTPClient
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import HTTPSerializationCore
import HTTPTypes
import NIOCore
import NIOHTTP1

extension HTTPClientRequest {
    /// An async-http-client request from a serialized request: method, URL, header fields in
    /// their order (repeated ones kept) and body.
    ///
    /// A multipart form or a stream is read lazily; with its exact length it goes out with a
    /// real `Content-Length`, a stream of unknown length chunked; bytes go out as one buffer. The body sets the framing, so the request's
    /// own `Content-Length` and `Transfer-Encoding` fields are not copied.
    ///
    /// - Throws: ``/HTTPSerializationCore/RequestSerializationError/invalidURL(_:)`` or
    ///   ``/HTTPSerializationCore/RequestSerializationError/invalidHeaderField(name:reason:)`` for a
    ///   request that would corrupt the wire.
    public init(_ serialized: SerializedRequest, uploadProgress: (@Sendable (TransferProgress) -> Void)? = nil) throws {
        // The target and fields are copied onto the wire as they are: check them first.
        try serialized.request.validateForSending()
        self.init(url: serialized.urlString)
        method = HTTPMethod(rawValue: serialized.request.method.rawValue)
        for field in serialized.request.headerFields where field.name != .contentLength && field.name != .transferEncoding {
            headers.add(name: field.name.rawName, value: field.value)
        }
        switch serialized.body {
        case .none:
            break
        case .bytes(let data):
            uploadProgress?(TransferProgress(completed: Int64(data.count), total: Int64(data.count)))
            body = .bytes(ByteBuffer(bytes: data))
        case .multipart(let form):
            if headers.first(name: "content-type") == nil { headers.add(name: "Content-Type", value: form.contentType) }
            body = .stream(ProgressReportingChunks(body: serialized.body, progress: uploadProgress), length: .known(Int64(form.contentLength)))
        case .stream(let stream):
            let length: HTTPClientRequest.Body.Length = stream.length.map { .known(Int64($0)) } ?? .unknown
            body = .stream(ProgressReportingChunks(body: serialized.body, progress: uploadProgress), length: length)
        }
    }
}

/// A form or stream body read straight into `ByteBuffer`s, counting what has been handed to
/// the transport.
struct ProgressReportingChunks: AsyncSequence, Sendable {
    typealias Element = ByteBuffer

    /// Large reads keep per-chunk costs (a syscall, a channel write, a progress call) small
    /// next to the copy; a few are in flight at once, far under the memory bound.
    static let chunkSize = 1 << 20

    let body: RequestBody
    let progress: (@Sendable (TransferProgress) -> Void)?

    func makeAsyncIterator() -> Iterator {
        Iterator(producer: BodyChunkProducer(body: body, chunkSize: Self.chunkSize), total: body.length.map { Int64($0) },
                 progress: progress)
    }

    struct Iterator: AsyncIteratorProtocol {
        var producer: BodyChunkProducer
        let total: Int64?
        let progress: (@Sendable (TransferProgress) -> Void)?
        let allocator = ByteBufferAllocator()
        var sent: Int64 = 0

        mutating func next() async throws -> ByteBuffer? {
            let allocator = self.allocator
            let chunk = try await producer.next { count, read -> ByteBuffer in
                var buffer = allocator.buffer(capacity: count)
                _ = try buffer.writeWithUnsafeMutableBytes(minimumWritableBytes: count) { free in
                    try read(UnsafeMutableRawBufferPointer(rebasing: free[..<count]))
                }
                return buffer
            }
            guard let chunk else { return nil }
            sent += Int64(chunk.readableBytes)
            progress?(TransferProgress(completed: sent, total: total))
            return chunk
        }
    }
}

extension HTTPResponse {
    /// The head of an async-http-client response in swift-http-types' form: status, reason
    /// phrase, and header fields in the order they arrived, repeated ones kept.
    ///
    /// For code that reads an `HTTPClientResponse` itself (streaming its body, following
    /// redirects its own way) and then validates or decodes it with a response serializer.
    ///
    /// ```swift
    /// let response = try await client.execute(request, timeout: .seconds(30))
    /// let context = ResponseContext(response: HTTPResponse(response), data: body)
    /// ```
    public init(_ response: HTTPClientResponse) {
        var fields = HTTPFields()
        fields.reserveCapacity(response.headers.count)
        for header in response.headers {
            // async-http-client has already refused names that are not tokens.
            guard let name = HTTPField.Name(header.name) else { continue }
            fields.append(HTTPField(name: name, value: header.value))
        }
        self.init(status: HTTPResponse.Status(code: Int(response.status.code), reasonPhrase: response.status.reasonPhrase),
                  headerFields: fields)
    }
}

extension TimeAmount {
    /// A `URLRequest`-style `timeoutInterval` in seconds as a time limit for
    /// ``/HTTPSerializationAsyncHTTPClient/AsyncHTTPClient/HTTPClient/execute(_:serializer:timeout:maximumResponseSize:uploadProgress:downloadProgress:allowsRedirectedBodies:)``.
    ///
    /// For code that kept its timeouts as `URLRequest` does: a non-positive, infinite or NaN
    /// interval (which `URLRequest` accepts) means URLSession's 60-second default, and a huge one
    /// is capped at about 30 years rather than overflowing.
    public static func timeoutInterval(_ seconds: Double) -> TimeAmount {
        guard seconds.isFinite, seconds > 0 else { return .seconds(60) }
        return .nanoseconds(Int64((min(seconds, 1e9) * 1e9).rounded()))
    }
}

extension HTTPClient {
    /// Sends a serialized request through async-http-client and decodes the response.
    ///
    /// ```swift
    /// let upload = try HTTPRequestSerializer().multipartFormHTTPRequest(method: "POST", urlString: url) { form in
    ///     try form.appendPart(fileURL: file, name: "file")
    /// }
    /// let result = try await HTTPClient.shared.execute(upload, serializer: DecodableResponseSerializer(Receipt.self))
    /// result.response.status  // .ok
    /// ```
    ///
    /// - Parameters:
    ///   - request: the request to send; its method, target, header fields and body go out as
    ///     they are, fields in order.
    ///   - serializer: validates the response and decodes its body, knowing the request's method.
    ///   - timeout: how long the response head may take (URLSession's default, 60 seconds,
    ///     unless given); zero or less is ``/HTTPSerializationCore/TransportError/timedOut(url:seconds:)``
    ///     before anything is sent. The body is then read within the client's own read timeout.
    ///   - maximumResponseSize: bodies larger than this are refused while downloading.
    ///   - uploadProgress: called as bytes go out.
    ///   - downloadProgress: called as bytes come in.
    ///   - allowsRedirectedBodies: a request with a body whose response came from another URL is
    ///     an error unless this is true, as with the URLSession helpers.
    /// - Throws: ``/HTTPSerializationCore/TransportError`` when no response came,
    ///   ``/HTTPSerializationCore/TransportError/redirectedWithBody(url:to:)``, and the
    ///   serializer's errors.
    public func execute<Serializer: ResponseSerializer>(
        _ request: SerializedRequest, serializer: Serializer,
        timeout: TimeAmount = .seconds(60), maximumResponseSize: Int = 256 << 20,
        uploadProgress: (@Sendable (TransferProgress) -> Void)? = nil,
        downloadProgress: (@Sendable (TransferProgress) -> Void)? = nil,
        allowsRedirectedBodies: Bool = false
    ) async throws -> SerializedResponse<Serializer.Output> {
        let streamed = try await stream(request, timeout: timeout, uploadProgress: uploadProgress, downloadProgress: downloadProgress,
                                        allowsRedirectedBodies: allowsRedirectedBodies)
        var body = Data()
        for try await chunk in streamed.body {
            guard body.count + chunk.count <= maximumResponseSize else {
                throw ResponseSerializationError.responseSerializationFailed(
                    reason: "The response body exceeds \(maximumResponseSize) bytes.",
                    response: ResponseContext(response: streamed.response, data: nil, request: request.request))
            }
            chunk.withUnsafeBytes { body.append(contentsOf: $0) }
        }
        let context = ResponseContext(response: streamed.response, data: body, request: request.request)
        return try SerializedResponse.decoding(context, url: streamed.url, serializer: serializer)
    }

    /// Sends a serialized request through async-http-client and hands back the response as
    /// soon as its head arrives, with the body still to be read.
    ///
    /// For bodies read while they come: server-sent events, JSON Lines, huge arrays, large
    /// downloads. Decode them with a streaming serializer.
    ///
    /// A client whose configuration enables decompression (`HTTPClient.shared` does) asks for
    /// and undoes gzip and deflate itself, but leaves `Content-Encoding` in the head: decode
    /// nothing again. A client without it (`HTTPClient(eventLoopGroup:)`'s default) hands over
    /// the coded bytes, which `decodingContentEncoding(limits:)` of HTTPSerializationCompression
    /// undoes within its limits.
    ///
    /// ```swift
    /// let streamed = try await HTTPClient.shared.stream(request)
    /// for try await event in streamed.values(ServerSentEventsResponseSerializer()) {
    ///     print(event.data)
    /// }
    /// ```
    ///
    /// Stopping the iteration, or cancelling its task, closes the exchange.
    ///
    /// - Parameters:
    ///   - request: the request to send; its method, target, header fields and body go out as
    ///     they are, fields in order.
    ///   - timeout: how long the response head may take (URLSession's default, 60 seconds,
    ///     unless given); zero or less is ``/HTTPSerializationCore/TransportError/timedOut(url:seconds:)``
    ///     before anything is sent. The body may then take as long as it takes, within the
    ///     client's own read timeout.
    ///   - uploadProgress: called as bytes go out.
    ///   - downloadProgress: called as bytes come in.
    ///   - allowsRedirectedBodies: a request with a body whose response came from another URL is
    ///     an error unless this is true.
    /// - Throws: ``/HTTPSerializationCore/TransportError`` when no response came and
    ///   ``/HTTPSerializationCore/TransportError/redirectedWithBody(url:to:)``; reading the body
    ///   throws ``/HTTPSerializationCore/TransportError`` when the connection fails midway.
    public func stream(
        _ request: SerializedRequest, timeout: TimeAmount = .seconds(60),
        uploadProgress: (@Sendable (TransferProgress) -> Void)? = nil,
        downloadProgress: (@Sendable (TransferProgress) -> Void)? = nil,
        allowsRedirectedBodies: Bool = false
    ) async throws -> StreamedResponse<ResponseBodyChunks> {
        let clientRequest = try HTTPClientRequest(request, uploadProgress: uploadProgress)
        // async-http-client may still answer from a warm connection after a past deadline;
        // a limit that has already run out is the same timeout every time.
        guard timeout > .zero else {
            throw TransportError.timedOut(url: request.urlString, seconds: Double(timeout.nanoseconds) / 1e9)
        }
        let response: HTTPClientResponse
        do {
            response = try await execute(clientRequest, timeout: timeout)
        } catch {
            throw TransportError(asyncHTTPClientError: error, url: request.urlString, timeout: timeout) ?? error
        }
        // The URL the response came from, after any redirect, as URLSession reports it.
        let respondingURL = response.history.count > 1 ? response.url?.absoluteString : nil
        try request.checkNotRedirected(to: respondingURL, allowsRedirectedBodies: allowsRedirectedBodies)
        let head = HTTPResponse(response)
        let expected = head.headerFields[.contentLength].flatMap { Int64($0) }
        let body = ResponseBodyChunks(body: response.body, url: request.urlString, timeout: timeout, expectedLength: expected,
                                      progress: downloadProgress)
        return StreamedResponse(response: head, body: body, url: response.url ?? URL(string: request.urlString), request: request.request)
    }
}

/// The body of a response from ``/HTTPSerializationAsyncHTTPClient/AsyncHTTPClient/HTTPClient/stream(_:timeout:uploadProgress:downloadProgress:allowsRedirectedBodies:)``,
/// chunk by chunk as async-http-client receives it.
///
/// Its failures are ``/HTTPSerializationCore/TransportError``s, as the send's are; download
/// progress is reported as chunks are handed on.
public struct ResponseBodyChunks: AsyncSequence, Sendable {
    /// The bytes of one chunk, as received.
    public typealias Element = ByteBufferView

    let body: HTTPClientResponse.Body
    let url: String
    let timeout: TimeAmount
    let expectedLength: Int64?
    let progress: (@Sendable (TransferProgress) -> Void)?

    /// Starts reading; a body is read once.
    public func makeAsyncIterator() -> AsyncIterator {
        AsyncIterator(base: body.makeAsyncIterator(), chunks: self)
    }

    /// Hands on each chunk, counting what has arrived.
    public struct AsyncIterator: AsyncIteratorProtocol {
        var base: HTTPClientResponse.Body.AsyncIterator
        let chunks: ResponseBodyChunks
        var received: Int64 = 0

        /// The next chunk, nil after the last, or the transport's failure.
        public mutating func next() async throws -> ByteBufferView? {
            let chunk: ByteBuffer?
            do {
                chunk = try await base.next()
            } catch {
                throw TransportError(asyncHTTPClientError: error, url: chunks.url, timeout: chunks.timeout) ?? error
            }
            guard let chunk else { return nil }
            received += Int64(chunk.readableBytes)
            chunks.progress?(TransferProgress(completed: received, total: chunks.expectedLength))
            return chunk.readableBytesView
        }
    }
}
#else
#warning("HTTPSerializationAsyncHTTPClient is empty: enable the trait, .package(url: ..., from: ..., traits: [\"AsyncHTTPClient\"])")
#endif
