#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import HTTPTypes

/// Reads a `text/event-stream` body (server-sent events) into ``ServerSentEvent``s as they are
/// dispatched.
///
/// For model APIs that stream completions, notification feeds, and anything a browser's
/// `EventSource` reads: the WHATWG HTML standard's interpretation point by point (a leading
/// byte-order mark dropped, invalid UTF-8 replaced, CR, LF and CRLF line ends, comments,
/// fields without a colon, `id` ignored when it holds NUL, `retry` digits only, dispatch on a
/// blank line, and an event the body leaves unfinished never dispatched), with limits on a
/// line and an event so a hostile stream cannot grow memory.
///
/// ```swift
/// let events = ServerSentEventsResponseSerializer()
/// for try await event in events.values(for: head, body: response.body.map(\.readableBytesView)) {
///     print(event.type, event.data)
/// }
/// ```
///
/// With `HTTPSerializationCodable`, `event.decodeData(as:)` reads an event's JSON data into a
/// `Decodable` model.
@dynamicMemberLookup
public struct ServerSentEventsResponseSerializer: StreamingResponseSerializer, HTTPResponseSerializerComposing {
    /// Status codes 200–299 and `text/event-stream`.
    public var base = HTTPResponseSerializer(acceptableContentTypes: ["text/event-stream"])
    /// The longest line read, in bytes; a longer one is
    /// ``StreamingResponseError/lineTooLong(line:limit:)``.
    public var maximumLineLength = 1 << 20
    /// The most bytes of `data` one event may gather; more is
    /// ``StreamingResponseError/eventTooLarge(limit:)``.
    public var maximumEventSize = 16 << 20

    /// A serializer with the standard's rules and the default limits.
    public init() {}

    /// A decoder for one response's body.
    public func makeBodyDecoder(for response: HTTPResponse) throws -> ServerSentEventDecoder {
        ServerSentEventDecoder(maximumLineLength: maximumLineLength, maximumEventSize: maximumEventSize)
    }

    /// Validates, then reads every event of the body in hand.
    public func responseObject(for response: ResponseContext) throws -> [ServerSentEvent] {
        try allValues(in: response)
    }
}

/// The event-stream interpretation as a push parser: lines in, dispatched events out.
public struct ServerSentEventDecoder: StreamingBodyDecoder {
    private var splitter: LineSplitter
    private let maximumEventSize: Int
    /// The first bytes, held until they show whether the stream starts with a byte-order mark.
    private var start: [UInt8]? = []
    private var eventType = ""
    private var data: [UInt8] = []
    private var hasData = false
    private var lastEventID: String?
    private var retry: Int?

    init(maximumLineLength: Int, maximumEventSize: Int) {
        splitter = LineSplitter(terminator: .anyLineEnd, maximumLength: maximumLineLength)
        self.maximumEventSize = max(maximumEventSize, 1)
    }

    /// The reconnection time the last `retry` field set, in milliseconds, if any.
    public private(set) var reconnectionTime: Int?

    /// Reads every line `bytes` completes and dispatches the events they end.
    public mutating func decode(_ bytes: Span<UInt8>, into values: inout [ServerSentEvent]) throws {
        try bytes.withUnsafeBufferPointer { bytes in try decode(buffer: bytes, into: &values) }
    }

    private mutating func decode(buffer bytes: UnsafeBufferPointer<UInt8>, into values: inout [ServerSentEvent]) throws {
        guard var held = start else { return try split(bytes, into: &values) }
        // Only the stream's first bytes may be a byte-order mark (EF BB BF).
        let mark: [UInt8] = [0xEF, 0xBB, 0xBF]
        var used = 0
        while held.count < 3, used < bytes.count {
            held.append(bytes[used])
            used += 1
            if held != Array(mark.prefix(held.count)) { break }
        }
        guard held.count == 3 || held != Array(mark.prefix(held.count)) else {
            start = held
            return
        }
        start = nil
        if held != mark { try held.withUnsafeBufferPointer { try split($0, into: &values) } }
        try split(UnsafeBufferPointer(rebasing: bytes[used...]), into: &values)
    }

    /// The body ended: an event it left unfinished is dropped, as the standard says.
    public mutating func finish(into values: inout [ServerSentEvent]) throws {
        start = nil
        _ = splitter.takeUnterminated()
    }

    private mutating func split(_ bytes: UnsafeBufferPointer<UInt8>, into values: inout [ServerSentEvent]) throws {
        // The splitter runs while the lines it hands over change the event state: it is moved
        // out meanwhile (a placeholder stands in), so neither is copied.
        var splitter = self.splitter
        self.splitter = LineSplitter(terminator: .anyLineEnd, maximumLength: 1)
        defer { self.splitter = splitter }
        try splitter.split(bytes) { line, _ in try process(line, into: &values) }
    }

    private mutating func process(_ line: UnsafeBufferPointer<UInt8>, into values: inout [ServerSentEvent]) throws {
        guard let first = line.first else { return dispatch(into: &values) }
        if first == UInt8(ascii: ":") { return }
        let colon = line.firstIndex(of: UInt8(ascii: ":"))
        let name = UnsafeBufferPointer(rebasing: line[..<(colon ?? line.count)])
        var valueStart = colon.map { $0 + 1 } ?? line.count
        if valueStart < line.count, line[valueStart] == UInt8(ascii: " ") { valueStart += 1 }
        let value = UnsafeBufferPointer(rebasing: line[valueStart...])
        if name.elementsEqual("data".utf8) {
            let size = data.count + (hasData ? 1 : 0) + value.count
            guard size <= maximumEventSize else { throw StreamingResponseError.eventTooLarge(limit: maximumEventSize) }
            if hasData { data.append(0x0A) }
            data.append(contentsOf: value)
            hasData = true
        } else if name.elementsEqual("event".utf8) {
            eventType = String(decoding: value, as: UTF8.self)
        } else if name.elementsEqual("id".utf8) {
            if !value.contains(0) { lastEventID = String(decoding: value, as: UTF8.self) }
        } else if name.elementsEqual("retry".utf8) {
            // Digits only; a number too large for `Int` is ignored like any other bad value.
            if !value.isEmpty, value.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }),
               let milliseconds = Int(String(decoding: value, as: UTF8.self)) {
                retry = milliseconds
                reconnectionTime = milliseconds
            }
        }
    }

    private mutating func dispatch(into values: inout [ServerSentEvent]) {
        defer {
            eventType = ""
            data.removeAll(keepingCapacity: data.capacity <= 1 << 16)
            hasData = false
            retry = nil
        }
        // No data line since the last blank line: nothing is dispatched, and the type is reset.
        guard hasData else { return }
        values.append(ServerSentEvent(
            event: eventType.isEmpty ? nil : eventType, data: String(decoding: data, as: UTF8.self), id: lastEventID, retry: retry))
    }
}
