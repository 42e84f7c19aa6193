#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Writes values one after another as the bytes of one streamed body: server-sent events,
/// JSON Lines, JSON text sequences, or a JSON array written element by element.
///
/// The writing half of ``StreamingResponseSerializer``: a server streams what the package's
/// clients read, and a client streams request bodies (bulk uploads) the same way. A writer
/// says how one value looks on the wire; ``chunks(for:minimumChunkSize:)`` turns an
/// `AsyncSequence` of values into the body's chunks, and ``data(for:)`` writes a whole body.
///
/// ```swift
/// let body = JSONStreamWriter(format: .lines).chunks(for: records)
/// for try await chunk in body { try await send(chunk) }
/// ```
///
/// A writer of your own (CSV, say) gets the chunking, back-pressure and error handling by
/// conforming.
public protocol StreamBodyWriter: Sendable {
    /// The values the body is written from.
    associatedtype Value

    /// The body's media type, for its `Content-Type` field.
    var contentType: String { get }

    /// Appends what comes before the first value (an array's `[`); nothing by default.
    func writeStart(into bytes: inout [UInt8])

    /// Appends `value`, the body's value number `index` (counting from 1).
    ///
    /// - Throws: ``StreamWritingError`` for a value the format cannot carry; what it appended
    ///   before throwing is taken back, so the body stays well-formed up to the value before.
    func write(_ value: Value, index: Int, into bytes: inout [UInt8]) throws

    /// Appends what comes after the last of `count` values (an array's `]`); nothing by default.
    func writeEnd(count: Int, into bytes: inout [UInt8])
}

extension StreamBodyWriter {
    /// Nothing comes before the first value.
    public func writeStart(into bytes: inout [UInt8]) {}

    /// Nothing comes after the last value.
    public func writeEnd(count: Int, into bytes: inout [UInt8]) {}

    /// The whole body written from `values`, for bodies small enough to hold (a test, a short
    /// export, a request body sent at once).
    ///
    /// - Throws: ``StreamWritingError`` for the first value the format cannot carry.
    public func data(for values: some Sequence<Value>) throws -> Data {
        Data(try bytes(for: values))
    }

    /// The whole body written from `values`, as bytes.
    package func bytes(for values: some Sequence<Value>) throws -> [UInt8] {
        var bytes: [UInt8] = []
        writeStart(into: &bytes)
        var count = 0
        for value in values {
            count += 1
            try write(value, index: count, into: &bytes)
        }
        writeEnd(count: count, into: &bytes)
        return bytes
    }

    /// The body written from `values` as they arrive, as an `AsyncSequence` of byte chunks.
    ///
    /// Each chunk is written when the consumer asks for it, so the source is read no faster
    /// than the body is sent and nothing waits in memory but the chunk in hand. By default a
    /// chunk is one value, sent as soon as the source delivers it (events, live updates); with
    /// `minimumChunkSize`, values are gathered until a chunk holds that many bytes or the
    /// source ends, for bulk exports where fewer, larger writes are cheaper.
    ///
    /// When the source throws, the chunks already written are delivered and the sequence ends
    /// with the source's error; a value the writer refuses ends it the same way with a
    /// ``StreamWritingError``. Nothing more is written after either, so an array's closing `]`
    /// is missing and a reader reports the body truncated rather than complete.
    ///
    /// ```swift
    /// let chunks = ServerSentEventWriter().chunks(for: events)
    /// ```
    public func chunks<Source: AsyncSequence>(
        for values: Source, minimumChunkSize: Int = 0
    ) -> StreamBodyChunks<Self, Source> where Source.Element == Value {
        StreamBodyChunks(writer: self, source: values, minimumChunkSize: minimumChunkSize)
    }

    /// A request body written from `values` as it is sent, chunked: bulk uploads such as a
    /// search engine's JSON Lines bulk API, without holding the batch.
    ///
    /// Each send iterates `values` again (a retry, a 307 or 308 redirect), so pass a source
    /// that can be iterated more than once when the request may be sent again.
    ///
    /// ```swift
    /// let writer = JSONStreamWriter<Document>(format: .lines)
    /// let request = try HTTPRequestSerializer().httpRequest(
    ///     method: "POST", urlString: "https://search.example.com/_bulk",
    ///     body: writer.requestBody(for: documents, minimumChunkSize: 64 * 1024), contentType: writer.contentType)
    /// ```
    public func requestBody<Source: AsyncSequence & Sendable>(
        for values: Source, minimumChunkSize: Int = 0
    ) -> RequestBody where Source.Element == Value {
        .stream(RequestBodyStream(chunks: chunks(for: values, minimumChunkSize: minimumChunkSize)))
    }
}
