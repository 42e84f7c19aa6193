/// What a server-sent event stream carries: an event, or a comment (a keep-alive).
public enum ServerSentEventMessage: Sendable, Hashable {
    /// An event, dispatched to the client.
    case event(ServerSentEvent)
    /// A comment line, which clients skip: sent to keep idle connections and proxies open.
    case comment(String)
}

/// Writes events as a `text/event-stream` body, as the WHATWG HTML standard's parser reads it.
///
/// Data holding line breaks goes out as one `data:` line per line, so the client's event has
/// the same data with each line break (CR, LF or CRLF) read as LF, which is all the format can
/// carry. A field that would forge a line is refused with
/// ``StreamWritingError/invalidEventField(index:field:reason:)``, never written: an `event`
/// or `id` holding CR or LF, an `id` holding NUL, a negative `retry`. Every field is written
/// with one space after its colon, which readers drop, so a value's own leading space
/// survives; the body never starts with a byte-order mark.
///
/// ```swift
/// let body = ServerSentEventWriter().chunks(for: updates)   // an AsyncSequence of ServerSentEvent
/// ```
public struct ServerSentEventWriter<Value>: StreamBodyWriter {
    /// `text/event-stream`.
    public var contentType: String { "text/event-stream" }

    private let message: @Sendable (Value) throws -> ServerSentEventMessage

    /// A writer whose messages `message` makes from each value: events made from models, say.
    ///
    /// ```swift
    /// let writer = ServerSentEventWriter<Quote> { quote in
    ///     .event(ServerSentEvent(event: "quote", data: "\(quote.symbol) \(quote.price)"))
    /// }
    /// ```
    public init(_ message: @escaping @Sendable (Value) throws -> ServerSentEventMessage) {
        self.message = message
    }

    /// Appends `value`'s event or comment, ending with its blank line (an event) or line end (a comment).
    public func write(_ value: Value, index: Int, into bytes: inout [UInt8]) throws {
        let message: ServerSentEventMessage
        do {
            message = try self.message(value)
        } catch let error as StreamWritingError {
            throw error
        } catch {
            throw StreamWritingError.unencodableValue(index: index, underlying: UnderlyingError(error))
        }
        switch message {
        case .event(let event):
            try Self.write(event, index: index, into: &bytes)
        case .comment(let text):
            Self.writeLines(of: text, prefix: ": ", into: &bytes)
        }
    }

    static func write(_ event: ServerSentEvent, index: Int, into bytes: inout [UInt8]) throws {
        func refuse(_ field: String, _ reason: String) -> StreamWritingError {
            .invalidEventField(index: index, field: field, reason: reason)
        }
        if let name = event.event, !name.isEmpty {
            if name.utf8.contains(where: { $0 == 0x0A || $0 == 0x0D }) { throw refuse("event", "holds a line break") }
        }
        if let id = event.id {
            if id.utf8.contains(where: { $0 == 0x0A || $0 == 0x0D }) { throw refuse("id", "holds a line break") }
            if id.utf8.contains(0) { throw refuse("id", "holds NUL, which makes readers ignore it") }
        }
        if let retry = event.retry, retry < 0 { throw refuse("retry", "is negative (\(retry))") }
        if let name = event.event, !name.isEmpty { field("event", name, into: &bytes) }
        if let id = event.id { field("id", id, into: &bytes) }
        if let retry = event.retry { field("retry", String(retry), into: &bytes) }
        writeLines(of: event.data, prefix: "data: ", into: &bytes)
        bytes.append(0x0A)
    }

    /// `name: value` and a line end; `value` holds no line break.
    private static func field(_ name: StaticString, _ value: String, into bytes: inout [UInt8]) {
        name.withUTF8Buffer { bytes.append(contentsOf: $0) }
        bytes.append(0x3A)
        bytes.append(0x20)
        bytes.append(contentsOf: value.utf8)
        bytes.append(0x0A)
    }

    /// `prefix` and a line of `text` for each of its lines, split at CR, LF and CRLF: every
    /// line of data is its own `data:` line, and every line of a comment its own comment. An
    /// empty text is one empty line, so an event with empty data is still dispatched.
    private static func writeLines(of text: String, prefix: StaticString, into bytes: inout [UInt8]) {
        func startLine(_ bytes: inout [UInt8]) {
            prefix.withUTF8Buffer { bytes.append(contentsOf: $0) }
        }
        var text = text
        text.withUTF8 { utf8 in
            bytes.reserveCapacity(bytes.count + utf8.count + 8)
            startLine(&bytes)
            var start = 0
            var index = 0
            while index < utf8.count {
                let byte = utf8[index]
                guard byte == 0x0A || byte == 0x0D else {
                    index += 1
                    continue
                }
                bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[start..<index]))
                bytes.append(0x0A)
                index += byte == 0x0D && index + 1 < utf8.count && utf8[index + 1] == 0x0A ? 2 : 1
                start = index
                startLine(&bytes)
            }
            bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[start..<utf8.count]))
            bytes.append(0x0A)
        }
    }
}

extension ServerSentEventWriter where Value == ServerSentEvent {
    /// A writer of events.
    public init() {
        self.init { .event($0) }
    }
}

extension ServerSentEventWriter where Value == ServerSentEventMessage {
    /// A writer of events and comments (keep-alives).
    public init() {
        self.init { $0 }
    }
}
