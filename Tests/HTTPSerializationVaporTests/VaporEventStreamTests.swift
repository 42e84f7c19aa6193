#if Vapor
import HTTPSerializationCore
import HTTPSerializationVapor
import ServerTestSupport
import Testing
import Vapor
import VaporTesting

/// Event streams as browsers use them: every client gets every update from when it connected,
/// a reconnecting one resumes after its Last-Event-ID, a refused event ends the body cleanly
/// and is logged, and a fixed collection is refused before anything is sent.
@Suite("Vapor: event streams under real clients")
struct VaporEventStreamTests {
    static func configure(_ broadcast: StreamBroadcast<ServerSentEvent>, logger: Logger) -> @Sendable (Application) async throws -> Void {
        { app in
            app.logger = logger
            app.get("updates") { request in
                Response.stream(broadcast.subscribe(lastEventID: request.lastEventID), writer: ServerSentEventWriter(), logger: request.logger)
            }
            app.get("refused") { request in
                Response.stream(ArrayValues(EventStreamFixtures.refusedMidway), writer: ServerSentEventWriter(), logger: request.logger)
            }
            app.get("history") { request in
                try Response.stream(of: EventStreamFixtures.history, writer: ServerSentEventWriter(), logger: request.logger)
            }
            app.get("refused-history") { request in
                try Response.stream(of: EventStreamFixtures.refusedMidway, writer: ServerSentEventWriter(), logger: request.logger)
            }
        }
    }

    @Test("two clients at once each receive all 50 updates sent after they connected, and none sent before")
    func twoClientsEachGetEveryUpdate() async throws {
        let broadcast = StreamBroadcast<ServerSentEvent>()
        broadcast.send(ServerSentEvent(data: "before anyone came", id: "0"))
        try await withApp(configure: Self.configure(broadcast, logger: LogRecorder().logger())) { app in
            try await VaporStreamTests.serving(app) { port in
                let answers = try await BroadcastClients.receive(clients: 2, port: port, path: "/updates", broadcast: broadcast, count: 50)
                for answer in answers {
                    #expect(answer.endedCleanly)
                    #expect(answer.header("Content-Type") == "text/event-stream")
                    #expect(try await answer.events().map(\.id) == (1...50).map { String($0) })
                }
            }
        }
    }

    @Test("a client that reconnects with Last-Event-ID: 3 receives 4, 5 and then the live 6")
    func reconnectResumesAfterLastEventID() async throws {
        let broadcast = StreamBroadcast<ServerSentEvent>(history: 10)
        try await withApp(configure: Self.configure(broadcast, logger: LogRecorder().logger())) { app in
            try await VaporStreamTests.serving(app) { port in
                let answer = try await EventStreamFixtures.resume(port: port, path: "/updates", lastEventID: "3", broadcast: broadcast)
                #expect(try await answer.events().map(\.data) == ["update 4", "update 5", "update 6"])
            }
        }
    }

    @Test("an event the writer refuses ends the body cleanly after the ones before it, and the refusal is logged")
    func refusalEndsCleanlyAndIsLogged() async throws {
        let recorder = LogRecorder()
        try await withApp(configure: Self.configure(StreamBroadcast(), logger: recorder.logger())) { app in
            try await VaporStreamTests.serving(app) { port in
                let answer = try await LoopbackClient.streamedAnswer(port: port, path: "/refused")
                #expect(answer.status == 200)
                #expect(answer.endedCleanly, "the closing chunk came, so the client sees an end, not a cut")
                #expect(try await answer.events().map(\.data) == ["one", "two"])
                #expect(recorder.contains("error", "refused", "`id`"), "\(recorder.logged)")
            }
        }
    }

    @Test("a fixed collection is one body with its Content-Length; one with a refused event is a 500 before anything is sent")
    func fixedCollections() async throws {
        let recorder = LogRecorder()
        try await withApp(configure: Self.configure(StreamBroadcast(), logger: recorder.logger())) { app in
            try await VaporStreamTests.serving(app) { port in
                let history = try await LoopbackClient.streamedAnswer(port: port, path: "/history")
                #expect(history.status == 200 && history.endedCleanly)
                #expect(history.header("Content-Length") == String(history.body.count))
                #expect(try await history.events() == EventStreamFixtures.history)
                let refused = try await LoopbackClient.streamedAnswer(port: port, path: "/refused-history")
                #expect(refused.status == 500)
                #expect(recorder.contains("error", "refused", "`id`"), "\(recorder.logged)")
            }
        }
    }
}
#endif
