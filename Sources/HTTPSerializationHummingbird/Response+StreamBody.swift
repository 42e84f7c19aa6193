#if Hummingbird
public import Hummingbird
public import HTTPSerializationCore
public import Logging

extension Response {
    /// A response whose body `writer` writes from `values` as they come: server-sent events,
    /// JSON Lines, JSON text sequences or a JSON array.
    ///
    /// The body goes out as the client reads it: each chunk is written when Hummingbird's
    /// writer has taken the one before, so a slow client slows the source, and a client that
    /// goes away ends the write and stops reading the source. An event stream is sent with
    /// `Cache-Control: no-cache`.
    ///
    /// A value the writer refuses (an event `id` holding a line break, say) ends the body
    /// cleanly after the values before it, and the refusal is logged at error level: the
    /// client sees a complete response that stops early, and an `EventSource` reconnects
    /// after its retry delay, as after any end. A source that throws cuts the response.
    ///
    /// ```swift
    /// router.get("/events") { request, context in
    ///     Response.stream(updates.subscribe(lastEventID: request.lastEventID),
    ///                     writer: ServerSentEventWriter(), logger: context.logger)
    /// }
    /// ```
    ///
    /// - Parameters:
    ///   - values: the values to write, read as the body is sent.
    ///   - writer: how each value is written; its content type is the response's.
    ///   - status: the response's status; 200 by default.
    ///   - minimumChunkSize: values are gathered until a chunk holds this many bytes; 0 (the
    ///     default) sends each value as soon as it comes.
    ///   - logger: where a refusal is logged; the request context's, or by default a logger
    ///     labelled `HTTPSerialization`.
    public static func stream<Writer: StreamBodyWriter, Values: AsyncSequence & Sendable>(
        _ values: Values, writer: Writer, status: HTTPResponse.Status = .ok, minimumChunkSize: Int = 0,
        logger: Logger? = nil
    ) -> Response where Values.Element == Writer.Value {
        let chunks = writer.chunks(for: values, minimumChunkSize: minimumChunkSize)
        return Response(status: status, headers: writer.responseHeaderFields, body: ResponseBody { body in
            do {
                for try await chunk in chunks {
                    try await body.write(ByteBuffer(bytes: chunk))
                }
            } catch let refusal as StreamWritingError {
                StreamRefusal.log(refusal, contentType: writer.contentType, to: logger)
            }
            try await body.finish(nil)
        })
    }

    /// A response holding `values` written by `writer` whole, with its `Content-Length`: a
    /// fixed collection (the last day's events, an export) without an `AsyncStream` around it.
    ///
    /// Every value is written before anything is sent, so a value the writer refuses is
    /// logged at error level and thrown, and Hummingbird answers 500 instead of a body that
    /// stops early.
    ///
    /// ```swift
    /// router.get("/history") { _, context in
    ///     try Response.stream(of: recent, writer: ServerSentEventWriter(), logger: context.logger)
    /// }
    /// ```
    ///
    /// - Throws: ``/HTTPSerializationCore/StreamWritingError`` for the first value refused.
    public static func stream<Writer: StreamBodyWriter>(
        of values: some Sequence<Writer.Value>, writer: Writer, status: HTTPResponse.Status = .ok, logger: Logger? = nil
    ) throws -> Response {
        let bytes: [UInt8]
        do {
            bytes = try writer.bytes(for: values)
        } catch let refusal as StreamWritingError {
            StreamRefusal.log(refusal, contentType: writer.contentType, to: logger)
            throw refusal
        }
        var headers = writer.responseHeaderFields
        headers[.contentLength] = String(bytes.count)
        return Response(status: status, headers: headers, body: ResponseBody(byteBuffer: ByteBuffer(bytes: bytes)))
    }
}

extension Request {
    /// The `Last-Event-ID` field an `EventSource` sends when it reconnects: the `id` of the
    /// last event it received, for a route that resumes after it; nil on a first connection.
    ///
    /// ```swift
    /// updates.subscribe(lastEventID: request.lastEventID)
    /// ```
    public var lastEventID: String? {
        headers[.lastEventID]
    }
}

/// How the adapter reports a value a stream writer refused.
enum StreamRefusal {
    static func log(_ refusal: StreamWritingError, contentType: String, to logger: Logger?) {
        (logger ?? Logger(label: "HTTPSerialization")).error(
            "\(StreamWritingError.refusalLogMessage)", metadata: ["http.stream.content_type": "\(contentType)", "error": "\(refusal)"])
    }
}
#endif
