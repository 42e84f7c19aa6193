#if Vapor
public import HTTPSerializationCore
public import Vapor

extension Response {
    /// A response whose body `writer` writes from `values` as they come: server-sent events,
    /// JSON Lines, JSON text sequences or a JSON array.
    ///
    /// Each chunk is written when Vapor has sent the one before, so a slow client slows the
    /// source. A client that goes away fails the next write, which ends the body and the
    /// reading of the source; Vapor does not cancel the task, so a source waiting for its next
    /// value (an idle event feed) is left at the next value, or the next keep-alive comment.
    /// An event stream is sent with `Cache-Control: no-cache`.
    ///
    /// A value the writer refuses (an event `id` holding a line break, say) ends the body
    /// cleanly after the values before it, and the refusal is logged at error level: the
    /// client sees a complete response that stops early, and an `EventSource` reconnects
    /// after its retry delay, as after any end. A source that throws cuts the response.
    ///
    /// ```swift
    /// app.get("events") { request in
    ///     Response.stream(updates.subscribe(lastEventID: request.lastEventID),
    ///                     writer: ServerSentEventWriter(), logger: request.logger)
    /// }
    /// ```
    ///
    /// - Parameters:
    ///   - values: the values to write, read as the body is sent.
    ///   - writer: how each value is written; its content type is the response's.
    ///   - status: the response's status; 200 by default.
    ///   - minimumChunkSize: values are gathered until a chunk holds this many bytes; 0 (the
    ///     default) sends each value as soon as it comes.
    ///   - logger: where a refusal is logged; the request's, or by default a logger labelled
    ///     `HTTPSerialization`.
    public static func stream<Writer: StreamBodyWriter, Values: AsyncSequence & Sendable>(
        _ values: Values, writer: Writer, status: HTTPResponseStatus = .ok, minimumChunkSize: Int = 0,
        logger: Logger? = nil
    ) -> Response where Values.Element == Writer.Value {
        let chunks = writer.chunks(for: values, minimumChunkSize: minimumChunkSize)
        return Response(status: status, headers: headers(for: writer), body: Response.Body(managedAsyncStream: { body in
            do {
                for try await chunk in chunks {
                    try await body.writeBuffer(ByteBuffer(bytes: chunk))
                }
            } catch let refusal as StreamWritingError {
                logRefusal(refusal, contentType: writer.contentType, to: logger)
            }
        }))
    }

    /// A response holding `values` written by `writer` whole, with its `Content-Length`: a
    /// fixed collection (the last day's events, an export) without an `AsyncStream` around it.
    ///
    /// Every value is written before anything is sent, so a value the writer refuses is
    /// logged at error level and thrown, and Vapor answers 500 instead of a body that stops
    /// early.
    ///
    /// ```swift
    /// app.get("history") { request in
    ///     try Response.stream(of: recent, writer: ServerSentEventWriter(), logger: request.logger)
    /// }
    /// ```
    ///
    /// - Throws: ``/HTTPSerializationCore/StreamWritingError`` for the first value refused.
    public static func stream<Writer: StreamBodyWriter>(
        of values: some Sequence<Writer.Value>, writer: Writer, status: HTTPResponseStatus = .ok, logger: Logger? = nil
    ) throws -> Response {
        let bytes: [UInt8]
        do {
            bytes = try writer.bytes(for: values)
        } catch let refusal as StreamWritingError {
            logRefusal(refusal, contentType: writer.contentType, to: logger)
            throw refusal
        }
        return Response(status: status, headers: headers(for: writer), body: Response.Body(buffer: ByteBuffer(bytes: bytes)))
    }

    private static func headers(for writer: some StreamBodyWriter) -> HTTPHeaders {
        HTTPHeaders(writer.responseHeaderFields.map { ($0.name.rawName, $0.value) })
    }

    private static func logRefusal(_ refusal: StreamWritingError, contentType: String, to logger: Logger?) {
        (logger ?? Logger(label: "HTTPSerialization")).error(
            "\(StreamWritingError.refusalLogMessage)", metadata: ["http.stream.content_type": "\(contentType)", "error": "\(refusal)"])
    }
}

extension Request {
    /// The `Last-Event-ID` header an `EventSource` sends when it reconnects: the `id` of the
    /// last event it received, for a route that resumes after it; nil on a first connection.
    ///
    /// ```swift
    /// updates.subscribe(lastEventID: request.lastEventID)
    /// ```
    public var lastEventID: String? {
        headers.first(name: HTTPField.Name.lastEventID.rawName)
    }
}
#endif
