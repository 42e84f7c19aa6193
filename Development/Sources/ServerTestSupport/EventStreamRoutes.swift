// The events the live event-stream tests of both frameworks serve, and the checks on what
// their clients received, so the two suites differ only in how they make the routes.
import HTTPSerializationCore

/// Events for the event-stream routes, and what a client of each should see.
public enum EventStreamFixtures {
    /// Two events, one whose `id` would forge a line, then one more that is never sent.
    public static let refusedMidway = [
        ServerSentEvent(data: "one", id: "1"),
        ServerSentEvent(data: "two", id: "2"),
        ServerSentEvent(data: "three", id: "3\nevent: forged"),
        ServerSentEvent(data: "four", id: "4"),
    ]

    /// A fixed collection of 20 events with ids 1 to 20.
    public static let history = (1...20).map { ServerSentEvent(event: "past", data: "event \($0)", id: String($0)) }

    /// Connects a client to `path` with `Last-Event-ID: lastEventID` while `broadcast` (which
    /// keeps history) holds events 1 to 5, sends event 6 once the client has subscribed, and
    /// returns what the client received.
    public static func resume(port: Int, path: String, lastEventID: String,
                              broadcast: StreamBroadcast<ServerSentEvent>) async throws -> StreamedAnswer {
        for id in 1...5 { broadcast.send(ServerSentEvent(data: "update \(id)", id: String(id))) }
        return try await withThrowingTaskGroup(of: StreamedAnswer.self) { group in
            group.addTask { try await LoopbackClient.streamedAnswer(port: port, path: path, headers: ["Last-Event-ID": lastEventID]) }
            try await BroadcastClients.waitFor(subscribers: 1, of: broadcast)
            broadcast.send(ServerSentEvent(data: "update 6", id: "6"))
            broadcast.finish()
            return try await group.next()!
        }
    }
}
