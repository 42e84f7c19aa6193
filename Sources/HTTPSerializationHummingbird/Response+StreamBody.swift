#if Hummingbird
public import Hummingbird
public import HTTPSerializationCore

extension Response {
    /// A response whose body `writer` writes from `values` as they come: server-sent events,
    /// JSON Lines, JSON text sequences or a JSON array.
    ///
    /// The body goes out as the client reads it: each chunk is written when Hummingbird's
    /// writer has taken the one before, so a slow client slows the source, and a client that
    /// goes away ends the write and stops reading the source. An event stream is sent with
    /// `Cache-Control: no-cache`.
    ///
    /// ```swift
    /// router.get("/events") { _, _ in
    ///     Response.stream(updates, writer: ServerSentEventWriter())
    /// }
    /// ```
    ///
    /// - Parameters:
    ///   - values: the values to write, read as the body is sent.
    ///   - writer: how each value is written; its content type is the response's.
    ///   - status: the response's status; 200 by default.
    ///   - minimumChunkSize: values are gathered until a chunk holds this many bytes; 0 (the
    ///     default) sends each value as soon as it comes.
    public static func stream<Writer: StreamBodyWriter, Values: AsyncSequence & Sendable>(
        _ values: Values, writer: Writer, status: HTTPResponse.Status = .ok, minimumChunkSize: Int = 0
    ) -> Response where Values.Element == Writer.Value {
        let chunks = writer.chunks(for: values, minimumChunkSize: minimumChunkSize)
        return Response(status: status, headers: writer.responseHeaderFields, body: ResponseBody { body in
            for try await chunk in chunks {
                try await body.write(ByteBuffer(bytes: chunk))
            }
            try await body.finish(nil)
        })
    }
}
#endif
