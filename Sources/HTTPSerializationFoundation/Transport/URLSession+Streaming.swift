import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import HTTPSerializationCore
import HTTPTypes

extension URLSession {
    /// Sends a serialized request and hands back the response as soon as its head arrives,
    /// with the body still to be read: the same path as the async-http-client bridge's
    /// `stream(_:)`, through `URLSession`.
    ///
    /// For bodies read while they come: server-sent events, JSON Lines, huge arrays. URLSession
    /// undoes gzip and deflate itself, so the body is already decoded.
    ///
    /// ```swift
    /// let streamed = try await URLSession.shared.stream(for: request)
    /// for try await event in streamed.values(ServerSentEventsResponseSerializer()) {
    ///     print(event.data)
    /// }
    /// ```
    ///
    /// The exchange runs in a session of its own with this session's configuration (its
    /// timeouts, cookies, headers and proxy), so a delegate of this session is not asked.
    /// On Apple platforms the transfer pauses while more than 1 MiB waits unread, so memory
    /// stays bounded whatever the body's size. swift-corelibs-foundation (Linux) cannot pause a
    /// transfer without ending it, so there a reader slower than the network holds what it has
    /// not read yet: for huge bodies on Linux, the async-http-client bridge pauses the
    /// connection instead. Stopping the iteration, or cancelling its task, cancels the transfer.
    ///
    /// - Parameters:
    ///   - request: the request to send, as `URLRequest(_: SerializedRequest)` converts it.
    ///   - uploadProgress: called as the body goes out.
    ///   - allowsRedirectedBodies: a request with a body that gets redirected is an error unless this is true.
    /// - Throws: as ``response(for:serializer:uploadProgress:allowsRedirectedBodies:)-(SerializedRequest,_,_,_)``
    ///   before the body; reading the body throws ``/HTTPSerializationCore/TransportError`` when
    ///   the connection fails midway.
    public func stream(
        for request: SerializedRequest, uploadProgress: (@Sendable (TransferProgress) -> Void)? = nil,
        allowsRedirectedBodies: Bool = false
    ) async throws -> StreamedResponse<URLSessionBodyChunks> {
        try await stream(URLRequest(request), body: request.body, progress: uploadProgress, allowsRedirectedBodies: allowsRedirectedBodies)
    }

    /// Sends a `URLRequest` and hands back the response as soon as its head arrives, with the
    /// body still to be read; see ``stream(for:uploadProgress:allowsRedirectedBodies:)-(SerializedRequest,_,_)``.
    ///
    /// - Throws: as ``response(for:serializer:uploadProgress:allowsRedirectedBodies:)-(URLRequest,_,_,_)``
    ///   before the body; reading the body throws ``/HTTPSerializationCore/TransportError`` when
    ///   the connection fails midway.
    public func stream(
        for request: URLRequest, uploadProgress: (@Sendable (TransferProgress) -> Void)? = nil,
        allowsRedirectedBodies: Bool = false
    ) async throws -> StreamedResponse<URLSessionBodyChunks> {
        let body = try request.bodyForSending(request.serializationParts().body)
        return try await stream(request, body: body, progress: uploadProgress, allowsRedirectedBodies: allowsRedirectedBodies)
    }

    private func stream(
        _ head: URLRequest, body: RequestBody, progress: (@Sendable (TransferProgress) -> Void)?, allowsRedirectedBodies: Bool
    ) async throws -> StreamedResponse<URLSessionBodyChunks> {
        try head.validateForSending()
        let upload = try await UploadPlan(head, body: body)
        let reader = StreamingTaskReader(progress: progress, removesWhenDone: upload.temporaryFile)
        let session = URLSession(configuration: configuration, delegate: reader, delegateQueue: nil)
        let task: URLSessionDataTask
        if let file = upload.file {
            task = session.uploadTask(with: upload.request, fromFile: file)
        } else {
            task = session.dataTask(with: upload.request)
        }
        let response: URLResponse
        do {
            response = try await reader.start(task)
        } catch {
            throw TransportError(urlSessionError: error, request: upload.request) ?? error
        }
        try upload.request.checkNotRedirected(to: response, hasBody: !body.isEmpty && !allowsRedirectedBodies)
        let context = try ResponseContext.checked(response, data: nil, request: upload.request)
        guard let http = context.response else {
            reader.cancel()
            throw ResponseSerializationError.responseSerializationFailed(reason: "The response is not an HTTP response.", response: context)
        }
        return StreamedResponse(response: http, body: URLSessionBodyChunks(reader: reader, request: upload.request),
                                url: response.url, requestMethod: HTTPRequest.Method(upload.request.httpMethod ?? "GET"),
                                request: try? upload.request.serializationParts().request)
    }
}

/// The body of a response from `URLSession.stream(for:uploadProgress:allowsRedirectedBodies:)`,
/// chunk by chunk as URLSession receives it.
///
/// Its failures are ``/HTTPSerializationCore/TransportError``s, as the send's are. Dropping
/// it, or cancelling the task that reads it, cancels the transfer.
public struct URLSessionBodyChunks: AsyncSequence, Sendable {
    /// The bytes of one chunk, as received.
    public typealias Element = Data

    let lifetime: StreamedBodyLifetime
    let request: URLRequest

    init(reader: StreamingTaskReader, request: URLRequest) {
        lifetime = StreamedBodyLifetime(reader: reader)
        self.request = request
    }

    /// Starts reading; a body is read once.
    public func makeAsyncIterator() -> AsyncIterator {
        AsyncIterator(lifetime: lifetime, request: request)
    }

    /// Hands on each chunk as it arrives.
    public struct AsyncIterator: AsyncIteratorProtocol {
        let lifetime: StreamedBodyLifetime
        let request: URLRequest

        /// The next chunk, nil after the last, or the transport's failure.
        public mutating func next() async throws -> Data? {
            do {
                return try await lifetime.reader.nextChunk()
            } catch {
                if Task.isCancelled { throw CancellationError() }
                throw TransportError(urlSessionError: error, request: request) ?? error
            }
        }
    }
}
