import Foundation
import HTTPSerialization
import HTTPTypes
import OpenAPIRuntime
import SeededGenerators
import Testing

/// Our event-stream parser against swift-openapi-runtime 1.13.4's, an independent
/// implementation, on seeded streams, ours fed in seeded chunkings.
///
/// The streams keep clear of the points where that parser departs from the WHATWG standard,
/// which our own tests pin: it dispatches an event without data (even for a lone blank line),
/// skips a field without a colon (`data` alone adds an empty line), takes an id holding NUL,
/// accepts `retry: +5`, keeps a leading byte-order mark, and reports only an id set in the
/// event's own lines (the standard's id persists, so the oracle's ids are carried forward).
/// mattt/EventSource, which the issue named, does not build on Linux.
@Suite("Streaming: server-sent events against an independent parser")
struct ServerSentEventsDifferentialTests {
    static let head = HTTPResponse(status: .ok, headerFields: [.contentType: "text/event-stream"])

    /// A seeded stream of event blocks, each with at least one data line.
    static func stream(_ random: inout SplitMix64) -> [UInt8] {
        let words = ["a", "update", "x:y", " lead", "é東🙂", "", "ping", "a b  c", "\u{FEFF}mark"]
        func word() -> [UInt8] {
            if random.below(12) == 0 { return [0xFF, 0x61, 0xE2, 0x82] }  // invalid UTF-8
            return Array(words[Int(random.below(UInt64(words.count)))].utf8)
        }
        func end() -> [UInt8] { [[0x0A], [0x0D], [0x0D, 0x0A]][Int(random.below(3))] }
        var bytes: [UInt8] = []
        for _ in 0..<random.range(1, 8) {
            var lines: [[UInt8]] = [Array("data: ".utf8) + word()]
            for _ in 0..<random.range(0, 5) {
                switch random.below(8) {
                case 0: lines.append(Array(":".utf8) + word())
                case 1: lines.append(Array("event: ".utf8) + word())
                case 2: lines.append(Array("data:".utf8) + word())
                case 3: lines.append(Array("data:  ".utf8) + word())
                case 4: lines.append(Array("id: ".utf8) + word())
                case 5: lines.append(Array("retry: \(random.range(1, 99_999))".utf8))
                case 6: lines.append(Array("retry: ".utf8) + Array(["abc", "1.5", "", "9a", " 7"][Int(random.below(5))].utf8))
                default: lines.append(Array("unknown: ".utf8) + word())
                }
            }
            lines.shuffle(using: &random)
            for line in lines { bytes += line + end() }
            bytes += end()
        }
        return bytes + [0x0A, 0x0A]
    }

    /// The oracle's events in our shape: no event without data, an empty type is none, and
    /// ids carried forward.
    static func oracle(_ bytes: [UInt8]) async throws -> [HTTPSerializationCore.ServerSentEvent] {
        var events: [HTTPSerializationCore.ServerSentEvent] = []
        var lastID: String?
        for try await event in [ArraySlice(bytes)].async.asDecodedServerSentEvents() {
            if let id = event.id { lastID = id }
            guard let data = event.data else { continue }
            events.append(.init(event: event.event?.isEmpty == false ? event.event : nil, data: data, id: lastID,
                                retry: event.retry.map { Int($0) }))
        }
        return events
    }

    static func ours(_ bytes: [UInt8], _ random: inout SplitMix64) async throws -> [HTTPSerializationCore.ServerSentEvent] {
        var chunks: [[UInt8]] = []
        var start = 0
        while start < bytes.count {
            let size = random.range(1, 24)
            chunks.append(Array(bytes[start..<min(start + size, bytes.count)]))
            start += size
        }
        var events: [HTTPSerializationCore.ServerSentEvent] = []
        for try await event in ServerSentEventsResponseSerializer().values(for: head, body: chunks.async) { events.append(event) }
        return events
    }

    @Test("300 seeded streams, each in a seeded chunking, dispatch the events the other parser dispatches")
    func agreesWithAnIndependentParser() async throws {
        var random = SplitMix64(seed: 22)
        var events = 0
        for index in 0..<300 {
            let bytes = Self.stream(&random)
            let expected = try await Self.oracle(bytes)
            let got = try await Self.ours(bytes, &random)
            #expect(got == expected, "stream \(index): \(String(decoding: bytes, as: UTF8.self).debugDescription)")
            events += got.count
        }
        #expect(events > 600)
    }
}

@Suite("Streaming: server-sent events with JSON data")
struct ServerSentEventsJSONDataTests {
    struct Delta: Decodable, Equatable { var text: String }

    @Test("an event's JSON data decodes into a model; data that is not JSON is a DecodingError")
    func decodeData() throws {
        let events = try ServerSentEventsResponseSerializer().responseObject(
            for: ServerSentEventsDifferentialTests.head, data: Data("data: {\"text\":\ndata: \"hi\"}\n\ndata: [DONE]\n\n".utf8))
        #expect(events.count == 2)
        #expect(try events[0].decodeData(as: Delta.self) == Delta(text: "hi"))
        #expect(throws: DecodingError.self) { try events[1].decodeData(as: Delta.self) }
    }
}

extension Array where Element: Sendable {
    /// The elements as an async sequence, one at a time.
    var async: AsyncStream<Element> {
        AsyncStream { continuation in
            for element in self { continuation.yield(element) }
            continuation.finish()
        }
    }
}
