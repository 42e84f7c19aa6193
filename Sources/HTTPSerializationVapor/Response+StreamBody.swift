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
    /// ```swift
    /// app.get("events") { _ in
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
        _ values: Values, writer: Writer, status: HTTPResponseStatus = .ok, minimumChunkSize: Int = 0
    ) -> Response where Values.Element == Writer.Value {
        let headers = HTTPHeaders(writer.responseHeaderFields.map { ($0.name.rawName, $0.value) })
        let chunks = writer.chunks(for: values, minimumChunkSize: minimumChunkSize)
        return Response(status: status, headers: headers, body: Response.Body(managedAsyncStream: { body in
            for try await chunk in chunks {
                try await body.writeBuffer(ByteBuffer(bytes: chunk))
            }
        }))
    }
}
#endif
