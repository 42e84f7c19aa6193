#if Hummingbird
import HTTPSerializationCore
import HTTPSerializationHummingbird
import Hummingbird
import HummingbirdTesting
import Logging
import ServerTestSupport
import Testing

/// Event streams as browsers use them: every client gets every update from when it connected,
/// a reconnecting one resumes after its Last-Event-ID, a refused event ends the body cleanly
/// and is logged, and a fixed collection is refused before anything is sent.
@Suite("Hummingbird: event streams under real clients")
struct HummingbirdEventStreamTests {
    static func application(_ broadcast: StreamBroadcast<ServerSentEvent>, logger: Logger) -> some ApplicationProtocol {
        let router = Router(context: HTTPSerializationBasicRequestContext.self)
        router.get("/updates") { request, context in
            Response.stream(broadcast.subscribe(lastEventID: request.lastEventID), writer: ServerSentEventWriter(), logger: context.logger)
        }
        router.get("/refused") { _, context in
            Response.stream(ArrayValues(EventStreamFixtures.refusedMidway), writer: ServerSentEventWriter(), logger: context.logger)
        }
        router.get("/history") { _, context in
            try Response.stream(of: EventStreamFixtures.history, writer: ServerSentEventWriter(), logger: context.logger)
        }
        router.get("/refused-history") { _, context in
            try Response.stream(of: EventStreamFixtures.refusedMidway, writer: ServerSentEventWriter(), logger: context.logger)
        }
        return Application(router: router, logger: logger)
    }

    @Test("two clients at once each receive all 50 updates sent after they connected, and none sent before")
    func twoClientsEachGetEveryUpdate() async throws {
        let broadcast = StreamBroadcast<ServerSentEvent>()
        broadcast.send(ServerSentEvent(data: "before anyone came", id: "0"))
        try await Self.application(broadcast, logger: LogRecorder().logger()).test(.live) { client in
            let port = try #require(client.port)
            let answers = try await BroadcastClients.receive(clients: 2, port: port, path: "/updates", broadcast: broadcast, count: 50)
            for answer in answers {
                #expect(answer.endedCleanly)
                #expect(answer.header("Content-Type") == "text/event-stream")
                #expect(try await answer.events().map(\.id) == (1...50).map { String($0) })
            }
        }
    }

    @Test("a client that reconnects with Last-Event-ID: 3 receives 4, 5 and then the live 6")
    func reconnectResumesAfterLastEventID() async throws {
        let broadcast = StreamBroadcast<ServerSentEvent>(history: 10)
        try await Self.application(broadcast, logger: LogRecorder().logger()).test(.live) { client in
            let port = try #require(client.port)
            let answer = try await EventStreamFixtures.resume(port: port, path: "/updates", lastEventID: "3", broadcast: broadcast)
            #expect(try await answer.events().map(\.data) == ["update 4", "update 5", "update 6"])
        }
    }

    @Test("an event the writer refuses ends the body cleanly after the ones before it, and the refusal is logged")
    func refusalEndsCleanlyAndIsLogged() async throws {
        let recorder = LogRecorder()
        try await Self.application(StreamBroadcast(), logger: recorder.logger()).test(.live) { client in
            let port = try #require(client.port)
            let answer = try await LoopbackClient.streamedAnswer(port: port, path: "/refused")
            #expect(answer.status == 200)
            #expect(answer.endedCleanly, "the closing chunk came, so the client sees an end, not a cut")
            #expect(try await answer.events().map(\.data) == ["one", "two"])
            #expect(recorder.contains("error", "refused", "`id`"), "\(recorder.logged)")
        }
    }

    @Test("a fixed collection is one body with its Content-Length; one with a refused event is a 500 before anything is sent")
    func fixedCollections() async throws {
        let recorder = LogRecorder()
        try await Self.application(StreamBroadcast(), logger: recorder.logger()).test(.live) { client in
            let port = try #require(client.port)
            let history = try await LoopbackClient.streamedAnswer(port: port, path: "/history")
            #expect(history.status == 200 && history.endedCleanly)
            #expect(history.header("Content-Length") == String(history.body.count))
            #expect(try await history.events() == EventStreamFixtures.history)
            let refused = try await LoopbackClient.streamedAnswer(port: port, path: "/refused-history")
            #expect(refused.status == 500)
            #expect(try await refused.events().isEmpty)
            #expect(recorder.contains("error", "refused", "`id`"), "\(recorder.logged)")
        }
    }
}
#endif
