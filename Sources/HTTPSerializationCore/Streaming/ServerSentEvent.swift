import HTTPTypes

/// One event of a `text/event-stream` body, as the WHATWG HTML standard's event-stream
/// interpretation dispatches it.
///
/// ```swift
/// for try await event in ServerSentEventsResponseSerializer().values(for: head, body: chunks) {
///     if event.type == "completion" { print(event.data) }
/// }
/// ```
public struct ServerSentEvent: Sendable, Hashable, Codable {
    /// The `event` field, nil when the event had none (or an empty one): a `message`.
    public var event: String?
    /// The `data` lines, joined with LF.
    public var data: String
    /// The last event ID at dispatch: from this event's `id` field or an earlier one (it
    /// persists across events, for `Last-Event-ID`); nil while no `id` field has been seen.
    public var id: String?
    /// The reconnection time in milliseconds a `retry` field among this event's lines set, if
    /// any (the stream keeps the last one as its reconnection time).
    public var retry: Int?

    /// An event with the given fields.
    public init(event: String? = nil, data: String, id: String? = nil, retry: Int? = nil) {
        self.event = event
        self.data = data
        self.id = id
        self.retry = retry
    }

    /// The event type a browser's `EventSource` would dispatch: ``event``, or `message`.
    public var type: String { event ?? "message" }
}

extension HTTPField.Name {
    /// `Last-Event-ID`, which an `EventSource` sends when it reconnects.
    package static var lastEventID: HTTPField.Name { HTTPField.Name("Last-Event-ID")! }
}
