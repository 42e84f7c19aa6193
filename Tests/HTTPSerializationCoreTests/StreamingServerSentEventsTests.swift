#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import HTTPTypes
import Testing
@testable import HTTPSerializationCore

@Suite("Streaming: server-sent events, the WHATWG event-stream interpretation")
struct StreamingServerSentEventsTests {
    static let head = HTTPResponse(status: .ok, headerFields: [.contentType: "text/event-stream; charset=utf-8"])

    static func events(_ bytes: [UInt8], chunkSize: Int? = nil, _ serializer: ServerSentEventsResponseSerializer = .init()) async throws -> [ServerSentEvent] {
        var events: [ServerSentEvent] = []
        let body = ChunkedBody(bytes, chunkSize: chunkSize ?? max(bytes.count, 1))
        for try await event in serializer.values(for: head, body: body) { events.append(event) }
        return events
    }

    static func events(_ text: String, chunkSize: Int? = nil) async throws -> [ServerSentEvent] {
        try await events(Array(text.utf8), chunkSize: chunkSize)
    }

    @Test("fields, comments, multi-line data, a persisting id and the default type, at every chunking")
    func standardStream() async throws {
        let text = ": a comment\r\nevent: update\ndata: first\ndata:  second\rid: 7\n\n"
            + "data\n\ndata:third\nevent\n\n" + "id\ndata: after an empty id\n\n" + "data: dropped at the end"
        let expected = [
            ServerSentEvent(event: "update", data: "first\n second", id: "7"),
            ServerSentEvent(data: "", id: "7"),
            ServerSentEvent(data: "third", id: "7"),
            ServerSentEvent(data: "after an empty id", id: ""),
        ]
        for size in 1...text.utf8.count {
            #expect(try await Self.events(text, chunkSize: size) == expected, "chunk size \(size)")
        }
        #expect(expected[1].type == "message" && expected[0].type == "update")
    }

    @Test("retry takes digits only; an id holding NUL is ignored; an event without data is not dispatched and resets the type")
    func fieldRules() async throws {
        let events = try await Self.events(
            "retry: 0\ndata: a\n\nretry: +5\ndata: b\n\nretry: 5a\nretry:\ndata: c\n\nid: x\u{0}y\ndata: d\n\nevent: lost\nid: 9\n\ndata: e\n\n")
        #expect(events == [
            ServerSentEvent(data: "a", retry: 0), ServerSentEvent(data: "b"), ServerSentEvent(data: "c"),
            ServerSentEvent(data: "d"), ServerSentEvent(data: "e", id: "9"),
        ])
    }

    @Test("a byte-order mark is dropped only at the very start, even split across chunks; invalid UTF-8 is replaced")
    func encoding() async throws {
        let bytes: [UInt8] = [0xEF, 0xBB, 0xBF] + Array("data: \u{FEFF}x\n".utf8) + [0x64, 0x61, 0x74, 0x61, 0x3A, 0xFF, 0xE2, 0x82, 0x0A, 0x0A]
        for size in 1...bytes.count {
            #expect(try await Self.events(bytes, chunkSize: size) == [ServerSentEvent(data: "\u{FEFF}x\n\u{FFFD}\u{FFFD}")], "chunk size \(size)")
        }
        // Two bytes of a mark and no more are text, not a mark.
        #expect(try await Self.events([0xEF, 0xBB, 0x0A, 0x0A] + Array("data: y\n\n".utf8), chunkSize: 1) == [ServerSentEvent(data: "y")])
    }

    @Test("a line or an event past its limit is a typed error, after the events before it")
    func limits() async throws {
        var serializer = ServerSentEventsResponseSerializer()
        serializer.maximumLineLength = 32
        serializer.maximumEventSize = 20
        var seen: [ServerSentEvent] = []
        do {
            for try await event in serializer.values(for: Self.head, body: ChunkedBody(Array(("data: ok\n\n: " + String(repeating: "c", count: 100)).utf8), chunkSize: 3)) {
                seen.append(event)
            }
            Issue.record("no error")
        } catch let error as StreamingResponseError {
            #expect(error == .lineTooLong(line: 3, limit: 32))
        }
        #expect(seen == [ServerSentEvent(data: "ok")])
        await #expect(throws: StreamingResponseError.eventTooLarge(limit: 20)) {
            _ = try await Self.events(Array("data: 0123456789\ndata: 0123456789\n\n".utf8), chunkSize: 4, serializer)
        }
        #expect(try await Self.events(Array("data: 0123456789\ndata: 012345678\n\n".utf8), chunkSize: 4, serializer).count == 1)
    }

    @Test("as a whole-body serializer it gives every dispatched event; another content type is refused")
    func wholeBody() throws {
        let serializer = ServerSentEventsResponseSerializer()
        #expect(try serializer.responseObject(for: Self.head, data: Data("data: 1\n\ndata: 2\n\n".utf8)).map(\.data) == ["1", "2"])
        let json = HTTPResponse(status: .ok, headerFields: [.contentType: "application/json"])
        #expect(throws: ResponseSerializationError.self) { try serializer.responseObject(for: json, data: Data("data: 1\n\n".utf8)) }
    }
}
