#if Vapor
import AsyncHTTPClient
import Foundation
import HTTPSerializationCore
import HTTPSerializationVapor
import ServerTestSupport
import Testing
import Vapor
import VaporTesting

/// Vapor routes that stream the package's writers: their bytes and headers, their pace, and
/// their end when the client leaves.
@Suite("Vapor: streamed responses from the package's writers")
struct VaporStreamTests {
    static let events = (0..<200).map { ServerSentEvent(event: $0 % 2 == 0 ? "tick" : nil, data: "line \($0)\nsecond line", id: String($0)) }
    static let records: [ParameterValue] = (0..<500).map { ["id": .int($0), "name": "record \($0)"] }

    /// Starts `app` on 127.0.0.1 at an ephemeral port, runs `body` with the port, and stops it.
    static func serving(_ app: Application, _ body: (Int) async throws -> Void) async throws {
        app.http.server.configuration.hostname = "127.0.0.1"
        app.http.server.configuration.port = 0
        try await app.server.start(address: nil)
        do {
            let port = try #require(app.http.server.shared.localAddress?.port)
            try await body(port)
        } catch {
            await app.server.shutdown()
            throw error
        }
        await app.server.shutdown()
    }

    /// Sends a request to the server at `port` and collects the answer. Not VaporTesting's live
    /// tester, nor `HTTPClient.shared`: a 30-second deadline or a 90-second read timeout is
    /// shorter than a starved ThreadSanitizer run can take; only the whole exchange is bounded.
    static func fetch(port: Int, _ path: String, method: HTTPMethod = .GET, headers: HTTPHeaders = [:],
                      body: ByteBuffer? = nil) async throws -> (status: HTTPResponseStatus, headers: HTTPHeaders, body: ByteBuffer) {
        var request = HTTPClientRequest(url: "http://127.0.0.1:\(port)\(path)")
        request.method = method
        request.headers = headers
        if let body { request.body = .bytes(body) }
        let client = HTTPClient(eventLoopGroupProvider: .singleton)
        do {
            let response = try await client.execute(request, timeout: .seconds(600))
            let collected = try await response.body.collect(upTo: 64 << 20)
            try await client.shutdown()
            return (response.status, response.headers, collected)
        } catch {
            try? await client.shutdown()
            throw error
        }
    }

    @Test("events, JSON Lines and array routes send the writers' bytes with their content types over a live server")
    func streamRoutes() async throws {
        try await withApp { app in
            app.get("events") { _ in Response.stream(ArrayValues(Self.events), writer: ServerSentEventWriter()) }
            app.get("records") { _ in
                Response.stream(ArrayValues(Self.records), writer: JSONStreamWriter<ParameterValue>(format: .lines), minimumChunkSize: 4096)
            }
            app.get("array") { _ in Response.stream(ArrayValues(Self.records), writer: JSONStreamWriter<ParameterValue>(format: .array)) }
            try await Self.serving(app) { port in
                let events = try await Self.fetch(port: port, "/events")
                #expect(events.headers.first(name: .contentType) == "text/event-stream")
                #expect(events.headers.first(name: .cacheControl) == "no-cache")
                #expect(Data(buffer: events.body) == (try ServerSentEventWriter().data(for: Self.events)))
                let read = try ServerSentEventsResponseSerializer().responseObject(
                    for: HTTPResponse(status: .ok, headerFields: [.contentType: "text/event-stream"]), data: Data(buffer: events.body))
                #expect(read.map(\.data) == Self.events.map(\.data))
                let lines = try await Self.fetch(port: port, "/records")
                #expect(lines.headers.first(name: .contentType) == "application/x-ndjson")
                #expect(Data(buffer: lines.body) == (try JSONStreamWriter<ParameterValue>(format: .lines).data(for: Self.records)))
                let array = try await Self.fetch(port: port, "/array")
                #expect(array.headers.first(name: .contentType) == "application/json")
                #expect(try ParameterValue(json: Data(buffer: array.body)) == .array(Self.records))
            }
        }
    }

    @Test("a client that stops reading stops the route's reading of its source, and reading again resumes it")
    func backPressure() async throws {
        let taken = EndlessEvents.Counter(), retaken = EndlessEvents.Counter()
        try await withApp { app in
            app.get("fast") { _ in Response.stream(EndlessBlocks(taken: taken), writer: BlockWriter()) }
            app.get("again") { _ in Response.stream(EndlessBlocks(taken: retaken), writer: BlockWriter()) }
            try await Self.serving(app) { port in
                // As for Hummingbird: the source settles once the socket and writer are full.
                let pacing = try await LoopbackClient.pacing(port: port, path: "/fast", taken: taken, retry: "/again", retaken: retaken)
                #expect(pacing.failure == nil)
            }
        }
    }

    @Test("a client that hangs up mid-stream ends the route's reading of an endless source")
    func clientGoesAway() async throws {
        let taken = EndlessEvents.Counter()
        try await withApp { app in
            app.get("forever") { _ in Response.stream(EndlessEvents(taken: taken), writer: ServerSentEventWriter()) }
            try await Self.serving(app) { port in
                let received = try await LoopbackClient.readThenHangUp(port: port, path: "/forever", bytes: 50_000)
                #expect(received >= 50_000)
                let settled = try await taken.settled()
                #expect(settled != nil, "the source was still being read after the client left (\(taken.value) values)")
            }
        }
    }
}

#endif
