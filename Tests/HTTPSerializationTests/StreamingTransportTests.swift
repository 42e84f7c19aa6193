import AsyncHTTPClient
import EchoServer
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
#if canImport(Glibc)
import Glibc
#endif
import HTTPTypes
import NIOCore
import Testing
import HTTPSerialization
import HTTPSerializationAsyncHTTPClient

/// Streamed responses end to end: a real loopback server writing in awkward pieces with
/// pauses, read through each transport into the streaming serializers.
@Suite("Streaming responses over a real connection")
struct StreamingTransportTests {
    struct Record: Decodable, Equatable {
        var id: Int
        var name: String
        var score: Double
        var tags: [String]
    }

    struct Element: Decodable {
        var id: Int
        var active: Bool
    }

    static func withServer(_ body: (EchoServer, HTTPClient) async throws -> Void) async throws {
        try await AsyncHTTPClientBridgeTests.withServer(body)
    }

    static func get(_ server: EchoServer, _ target: String, fields: HTTPFields = [:]) -> SerializedRequest {
        SerializedRequest(request: HTTPRequest(method: .get, scheme: "http", authority: "127.0.0.1:\(server.port)", path: target,
                                               headerFields: fields))
    }

    /// Reads the events of a body that never ends in a task, cancels the task, and returns
    /// the error that stopped it (nil, recorded as an issue, if the body ended by itself).
    static func errorAfterCancelling<Body: AsyncSequence & Sendable>(_ streamed: StreamedResponse<Body>) async -> (any Error)? {
        let reader = Task {
            var count = 0
            for try await _ in streamed.values(ServerSentEventsResponseSerializer()) { count += 1 }
            return count
        }
        try? await Task.sleep(for: .milliseconds(50))
        reader.cancel()
        switch await withTimeLimitResult(seconds: 30, { try await reader.value }) {
        case .success(let count):
            Issue.record("the body ended by itself after \(count) events")
            return nil
        case .failure(let error):
            return error
        }
    }

    /// What the whole-body serializer makes of the bytes the route sends.
    static func expectedEvents(count: Int) throws -> [ServerSentEvent] {
        let head = HTTPResponse(status: .ok, headerFields: [.contentType: "text/event-stream"])
        return try ServerSentEventsResponseSerializer().responseObject(for: ResponseContext(response: head, data: StreamingRoutes.serverSentEventsBody(count: count)))
    }

    @Test("async-http-client: events written in 1-61 byte pieces with pauses decode as the whole body does")
    func bridgeEventsMatchWholeBody() async throws {
        try await Self.withServer { server, client in
            let streamed = try await client.stream(Self.get(server, "/sse?count=300&pause=1"))
            #expect(streamed.response.status == .ok)
            #expect(streamed.response.headerFields[.contentLength] == nil)
            var events: [ServerSentEvent] = []
            for try await event in streamed.values(ServerSentEventsResponseSerializer()) { events.append(event) }
            #expect(events.count == 300)
            #expect(events == (try Self.expectedEvents(count: 300)))
            // The split JSON came back joined with LF, and decodes.
            struct Payload: Decodable { var n: Int; var text: String }
            #expect(try events[4].decodeData(as: Payload.self).n == 4)
            #expect(events[1].type == "update" && events[2].type == "message")
            #expect(events[13].retry == 1013)
        }
    }

    @Test("async-http-client: NDJSON into Decodable records, CRLF and blank lines included")
    func bridgeJSONLinesDecode() async throws {
        try await Self.withServer { server, client in
            let streamed = try await client.stream(Self.get(server, "/ndjson?count=500&pause=0"))
            var records: [Record] = []
            for try await record in streamed.values(JSONStreamResponseSerializer(decoding: Record.self)) { records.append(record) }
            #expect(records.map(\.id) == Array(0..<500))
            #expect(records[1] == Record(id: 1, name: "record 1 caf\u{E9} cr\u{E8}me", score: 0.25, tags: ["t1"]))
            #expect(records[5].name == #"record 5 quote " and \"#)
        }
    }

    @Test("async-http-client: a large array decodes element by element, gzipped or not")
    func bridgeArrayDecodesPlainAndCompressed() async throws {
        try await Self.withServer { server, client in
            let plain = try await client.stream(Self.get(server, "/json-array?count=40000"))
            var ids: [Int] = []
            for try await element in plain.values(JSONStreamResponseSerializer(decoding: Element.self)) { ids.append(element.id) }
            #expect(ids == Array(0..<40000))

            for coding in ["gzip", "deflate"] {
                let coded = try await client.stream(Self.get(server, "/json-array?count=40000&compress=1", fields: [.acceptEncoding: coding]))
                #expect(coded.response.headerFields[.contentEncoding] == coding)
                let decoded = try coded.decodingContentEncoding()
                #expect(decoded.response.headerFields[.contentEncoding] == nil)
                var count = 0
                var allActiveRight = true
                for try await element in decoded.values(JSONStreamResponseSerializer(decoding: Element.self)) {
                    allActiveRight = allActiveRight && element.active == (element.id % 2 == 0) && element.id == count
                    count += 1
                }
                #expect(count == 40000)
                #expect(allActiveRight)
            }
        }
    }

    @Test("async-http-client: gzipped events flushed piece by piece decode as the plain ones")
    func bridgeCompressedEvents() async throws {
        try await Self.withServer { server, client in
            let coded = try await client.stream(Self.get(server, "/sse?count=120&compress=1", fields: [.acceptEncoding: "gzip"]))
            #expect(coded.response.headerFields[.contentEncoding] == "gzip")
            var events: [ServerSentEvent] = []
            for try await event in try coded.decodingContentEncoding().values(ServerSentEventsResponseSerializer()) { events.append(event) }
            #expect(events == (try Self.expectedEvents(count: 120)))
        }
    }

    @Test("async-http-client: an event arrives while the connection stays open, and stopping closes it")
    func bridgeDeliversBeforeTheBodyEnds() async throws {
        try await Self.withServer { server, client in
            // The server never ends this body: only a value handed on before the end can be read.
            let first = try await withTimeLimit(seconds: 30) {
                let streamed = try await client.stream(Self.get(server, "/sse?count=2&hold=1"))
                var seen: [ServerSentEvent] = []
                for try await event in streamed.values(ServerSentEventsResponseSerializer()) {
                    seen.append(event)
                    if seen.count == 2 { break }
                }
                return seen
            }
            #expect(first.map(\.id) == ["0", "1"])
            // The client is still usable after dropping a stream midway.
            let after = try await client.execute(Self.get(server, "/json"), serializer: JSONResponseSerializer())
            #expect(after.response.status == .ok)
        }
    }

    @Test("async-http-client: cancelling the reading task stops a body that never ends")
    func bridgeCancellationStopsReading() async throws {
        try await Self.withServer { server, client in
            let streamed = try await client.stream(Self.get(server, "/sse?count=1&hold=1"))
            let error = await Self.errorAfterCancelling(streamed)
            #expect(error is CancellationError || (error as? HTTPClientError) == .cancelled, "\(String(describing: error))")
        }
    }

    @Test("async-http-client: a refused status is thrown with the server's body before any value")
    func bridgeStatusFailureCarriesBody() async throws {
        try await Self.withServer { server, client in
            let streamed = try await client.stream(Self.get(server, "/status/503"))
            await #expect {
                for try await _ in streamed.values(JSONStreamResponseSerializer()) {}
            } throws: { error in
                guard case ResponseSerializationError.unacceptableStatusCode(_, let response, _) = error else { return false }
                return response.data.map { String(decoding: $0, as: UTF8.self).contains("status 503") } ?? false
            }
        }
    }

    @Test("async-http-client: a connection closed mid-body ends the events with TransportError.connectionLost")
    func bridgeConnectionLostMidBody() async throws {
        try await Self.withServer { server, client in
            let streamed = try await client.stream(Self.get(server, "/sse?count=10&abort=1"))
            var ids: [String?] = []
            let error = await #expect(throws: TransportError.self) {
                for try await event in streamed.values(ServerSentEventsResponseSerializer()) { ids.append(event.id) }
            }
            // async-http-client drops the parts it had buffered but not yet handed on when the
            // connection fails, so only a prefix of the ten is certain.
            #expect(ids == (0..<ids.count).map { String($0) } && ids.count <= 10)
            #expect(error == .connectionLost(url: "http://127.0.0.1:\(server.port)/sse?count=10&abort=1"))
        }
    }

    @Test("async-http-client: the whole-body execute reads the streamed routes too")
    func bridgeExecuteReadsStreamedBody() async throws {
        try await Self.withServer { server, client in
            let result = try await client.execute(Self.get(server, "/sse?count=40"), serializer: ServerSentEventsResponseSerializer())
            #expect(result.output == (try Self.expectedEvents(count: 40)))
            #expect(result.data == StreamingRoutes.serverSentEventsBody(count: 40))
        }
    }
}

extension StreamingTransportTests {
    static func url(_ server: EchoServer, _ target: String) -> URLRequest {
        URLRequest(url: URL(string: "http://127.0.0.1:\(server.port)\(target)")!)
    }

    @Test("URLSession: events written in awkward pieces with pauses decode as the whole body does")
    func urlSessionEventsMatchWholeBody() async throws {
        let server = try await EchoServer.start()
        defer { Task { try? await server.stop() } }
        let streamed = try await URLSession.shared.stream(for: Self.url(server, "/sse?count=200&pause=1"))
        #expect(streamed.response.status == .ok)
        #expect(streamed.requestMethod == .get)
        var events: [ServerSentEvent] = []
        for try await event in streamed.values(ServerSentEventsResponseSerializer()) { events.append(event) }
        #expect(events == (try Self.expectedEvents(count: 200)))
    }

    @Test("URLSession: a large array read slowly arrives whole and in order")
    func urlSessionLargeArrayWithSlowReader() async throws {
        let server = try await EchoServer.start()
        defer { Task { try? await server.stop() } }
        let serialized = try HTTPRequestSerializer().httpRequest(method: .get, url: URL(string: "http://127.0.0.1:\(server.port)/json-array?count=150000")!)
        let streamed = try await URLSession.shared.stream(for: serialized)
        var next = 0
        var inOrder = true
        for try await element in streamed.values(JSONStreamResponseSerializer(decoding: Element.self)) {
            inOrder = inOrder && element.id == next
            next += 1
            // A reader slower than loopback, so more than the pause threshold arrives unread.
            if next % 20000 == 0 { try await Task.sleep(for: .milliseconds(30)) }
        }
        #expect(next == 150000)
        #expect(inOrder)
    }

    @Test("URLSession: a gzipped body arrives decoded, as URLSession undoes content codings itself")
    func urlSessionDecodesGzipItself() async throws {
        let server = try await EchoServer.start()
        defer { Task { try? await server.stop() } }
        var request = Self.url(server, "/ndjson?count=300&compress=1&pause=0")
        request.setValue("gzip", forHTTPHeaderField: "Accept-Encoding")
        let streamed = try await URLSession.shared.stream(for: request)
        var ids: [Int] = []
        for try await record in streamed.values(JSONStreamResponseSerializer(decoding: Record.self)) { ids.append(record.id) }
        #expect(ids == Array(0..<300))
    }

    @Test("URLSession: an event arrives while the connection stays open, and dropping the body ends the exchange")
    func urlSessionDeliversBeforeTheBodyEnds() async throws {
        let server = try await EchoServer.start()
        defer { Task { try? await server.stop() } }
        let ids = try await withTimeLimit(seconds: 30) {
            let streamed = try await URLSession.shared.stream(for: Self.url(server, "/sse?count=3&hold=1"))
            var ids: [String?] = []
            for try await event in streamed.values(ServerSentEventsResponseSerializer()) {
                ids.append(event.id)
                if ids.count == 3 { break }
            }
            return ids
        }
        #expect(ids == ["0", "1", "2"])
    }

    @Test("URLSession: cancelling the reading task stops a body that never ends")
    func urlSessionCancellationStopsReading() async throws {
        let server = try await EchoServer.start()
        defer { Task { try? await server.stop() } }
        var request = Self.url(server, "/sse?count=1&hold=1")
        // Longer than any stall of the test's own task (a ThreadSanitizer run on two cores has
        // held it past the default 60 s), so only the cancel can end this body.
        request.timeoutInterval = 900
        let streamed = try await URLSession.shared.stream(for: request)
        let error = await Self.errorAfterCancelling(streamed)
        #expect(error is CancellationError, "\(String(describing: error))")
    }

    @Test("URLSession: a connection closed mid-body delivers the records before it, then a TransportError")
    func urlSessionConnectionLostMidBody() async throws {
        let server = try await EchoServer.start()
        defer { Task { try? await server.stop() } }
        let streamed = try await URLSession.shared.stream(for: Self.url(server, "/ndjson?count=10&abort=1&pause=0"))
        var records = 0
        let error = await #expect(throws: TransportError.self) {
            for try await _ in streamed.values(JSONStreamResponseSerializer()) { records += 1 }
        }
        #expect(records == 10)
        if case .connectionLost? = error {} else if case .failed? = error {} else { Issue.record("\(String(describing: error))") }
    }

    @Test("URLSession: a form goes out and the streamed answer comes back; a refused port is a TransportError")
    func urlSessionUploadsAndFails() async throws {
        let server = try await EchoServer.start()
        defer { Task { try? await server.stop() } }
        let form = try HTTPRequestSerializer().multipartFormHTTPRequest(method: "POST", urlString: "http://127.0.0.1:\(server.port)/ndjson?count=10") { form in
            try form.appendPart(formData: Data("value".utf8), name: "field")
        }
        let streamed = try await URLSession.shared.stream(for: form)
        var count = 0
        for try await _ in streamed.values(JSONStreamResponseSerializer()) { count += 1 }
        #expect(count == 10)

        let refused = try LoopbackListener(listens: false)
        defer { _ = close(refused.descriptor) }
        await #expect(throws: TransportError.self) {
            _ = try await URLSession.shared.stream(for: URLRequest(url: URL(string: "http://127.0.0.1:\(refused.port)/sse")!))
        }
    }
}

/// Runs `body`, failing instead of hanging when it takes longer than `seconds`: a bound on a
/// test that would otherwise wait forever, not a measurement.
func withTimeLimit<T: Sendable>(seconds: Int, _ body: @escaping @Sendable () async throws -> T) async throws -> T {
    try await withTimeLimitResult(seconds: seconds, body).get()
}

func withTimeLimitResult<T: Sendable>(seconds: Int, _ body: @escaping @Sendable () async throws -> T) async -> Result<T, any Error> {
    await withTaskGroup(of: Result<T, any Error>?.self) { group in
        group.addTask {
            do { return .success(try await body()) } catch { return .failure(error) }
        }
        group.addTask {
            try? await Task.sleep(for: .seconds(seconds))
            return nil
        }
        defer { group.cancelAll() }
        while let result = await group.next() {
            if let result { return result }
            Issue.record("still running after \(seconds) s")
            return .failure(CancellationError())
        }
        return .failure(CancellationError())
    }
}
