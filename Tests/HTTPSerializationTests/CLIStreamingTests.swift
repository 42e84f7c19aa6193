import EchoServer
import Foundation
import HTTPSerCLI
import HTTPSerialization
import Testing

/// `httpser --events` and `--stream` against the echo server's streamed routes.
@Suite("httpser --events and --stream")
struct CLIStreamingTests {
    @Test("--events prints one JSON object a line: event, data, id, retry in that order, absent fields left out")
    func eventsAsJSONLines() async throws {
        let server = try await EchoServer.start()
        defer { Task { try? await server.stop() } }
        let (code, output) = try await runHTTPSer(["--events", "\(server.baseURL.absoluteString)/sse?count=40"])
        #expect(code == 0, "\(output.errors)")
        let lines = output.outputText.split(separator: "\n", omittingEmptySubsequences: false).dropLast()
        let head = HTTPResponse(status: .ok, headerFields: [.contentType: "text/event-stream"])
        let expected = try ServerSentEventsResponseSerializer().responseObject(
            for: ResponseContext(response: head, data: StreamingRoutes.serverSentEventsBody(count: 40)))
        #expect(lines.count == expected.count)
        #expect(lines.first == #"{"data":"{\"n\":0,\"text\":\"plain\"}","id":"0"}"#)
        #expect(lines.dropFirst(3).first == #"{"event":"update","data":"{\"n\":3,\"text\":\"\#u{65E5}\#u{672C}\#u{8A9E}\"}","id":"3","retry":1003}"#)
        // The multi-line data of event 4 comes back joined with a newline, escaped.
        #expect(lines.dropFirst(4).first == #"{"data":"{\"n\":4,\n\"text\":\"rocket \#u{1F680}\"}","id":"4"}"#)
        for (line, event) in zip(lines, expected) {
            let object = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
            #expect(object["data"] as? String == event.data)
            #expect(object["id"] as? String == event.id)
            #expect(object["event"] as? String == event.event)
            #expect(object["retry"] as? Int == event.retry)
        }
    }

    @Test("--events refuses a response that is not an event stream, before reading it")
    func eventsRefusesOtherContentTypes() async throws {
        let server = try await EchoServer.start()
        defer { Task { try? await server.stop() } }
        let (code, output) = try await runHTTPSer(["--events", "\(server.baseURL.absoluteString)/json"])
        #expect(code == 1)
        #expect(output.outputText.isEmpty)
        #expect(output.errors.contains("application/json"), "\(output.errors)")
    }

    @Test("--stream writes the body as it came even where it would be formatted")
    func streamWritesBytesAsReceived() async throws {
        let server = try await EchoServer.start()
        defer { Task { try? await server.stop() } }
        let (code, output) = try await runHTTPSer(["-S", "--pretty=all", "-b", "\(server.baseURL.absoluteString)/json-array?count=3000"])
        #expect(code == 0, "\(output.errors)")
        #expect(output.output == StreamingRoutes.jsonArrayBody(count: 3000))

        let (_, formatted) = try await runHTTPSer(["--pretty=all", "-b", "\(server.baseURL.absoluteString)/json-array?count=3"])
        #expect(formatted.output != StreamingRoutes.jsonArrayBody(count: 3), "without --stream the body is formatted")
    }
}
