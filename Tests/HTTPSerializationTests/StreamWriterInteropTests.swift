import Foundation
import HTTPSerialization
import HTTPTypes
import OpenAPIRuntime
import SeededGenerators
import Testing

/// The stream writers' bodies read by swift-openapi-runtime 1.13.4's readers, an independent
/// implementation, and by Foundation: seeded models whose strings hold CR, LF, CRLF, U+2028,
/// NUL and non-ASCII text, the bytes re-cut at seeded chunkings.
@Suite("Stream writers: bodies read back by independent readers")
struct StreamWriterInteropTests {
    struct Record: Codable, Equatable, Sendable {
        var id: Int
        var text: String
        var score: Double?
        var tags: [String]
    }

    static let pieces = ["a", " ", "\r", "\n", "\r\n", "\u{2028}", "\u{2029}", "\u{0}", "é東🙂", "\u{FEFF}", "\"", "\\", "/", "\t", ":"]

    static func text(_ random: inout SplitMix64, count: Int) -> String {
        (0..<count).map { _ in pieces[Int(random.below(UInt64(pieces.count)))] }.joined()
    }

    static func records(_ random: inout SplitMix64) -> [Record] {
        (0..<random.range(0, 12)).map { index in
            Record(id: index, text: text(&random, count: random.range(0, 10)),
                   score: random.below(3) == 0 ? nil : Double(random.range(-1000, 1000)) / 8,
                   tags: (0..<random.range(0, 3)).map { _ in text(&random, count: 2) })
        }
    }

    /// `bytes` re-cut at seeded sizes, as a network would deliver them.
    static func rechunked(_ bytes: [UInt8], _ random: inout SplitMix64) -> [ArraySlice<UInt8>] {
        var chunks: [ArraySlice<UInt8>] = []
        var start = 0
        while start < bytes.count {
            let end = min(bytes.count, start + random.range(1, 32))
            chunks.append(bytes[start..<end])
            start = end
        }
        return chunks
    }

    static func bytes<S: AsyncSequence>(_ chunks: S) async throws -> [UInt8] where S.Element == ArraySlice<UInt8> {
        var bytes: [UInt8] = []
        for try await chunk in chunks { bytes += chunk }
        return bytes
    }

    @Test("200 seeded JSON Lines bodies of Encodable models, read by asDecodedJSONLines, straight and re-chunked")
    func jsonLines() async throws {
        var random = SplitMix64(seed: 39)
        let writer = JSONStreamWriter<Record>(format: .lines)
        for round in 0..<200 {
            let records = Self.records(&random)
            // Straight: our chunks are the other reader's input.
            var straight: [Record] = []
            for try await record in writer.chunks(for: records.async).asDecodedJSONLines(of: Record.self) { straight.append(record) }
            #expect(straight == records, "round \(round)")
            let body = try await Self.bytes(writer.chunks(for: records.async, minimumChunkSize: Int(random.below(64))))
            #expect(!body.contains(0x0D) && body.filter { $0 == 0x0A }.count == records.count)
            var rechunked: [Record] = []
            for try await record in Self.rechunked(body, &random).async.asDecodedJSONLines(of: Record.self) { rechunked.append(record) }
            #expect(rechunked == records, "round \(round)")
        }
    }

    @Test("200 seeded JSON text sequences, read by asDecodedJSONSequence, re-chunked")
    func jsonSequences() async throws {
        var random = SplitMix64(seed: 40)
        let writer = JSONStreamWriter<Record>(format: .textSequence)
        for round in 0..<200 {
            let records = Self.records(&random)
            let body = try await Self.bytes(writer.chunks(for: records.async))
            var read: [Record] = []
            for try await record in Self.rechunked(body, &random).async.asDecodedJSONSequence(of: Record.self) { read.append(record) }
            #expect(read == records, "round \(round)")
        }
    }

    @Test("200 seeded arrays, gathered at seeded sizes, read whole by JSONDecoder and element by element by our reader")
    func arrays() async throws {
        var random = SplitMix64(seed: 41)
        let writer = JSONStreamWriter<Record>(format: .array)
        let head = HTTPResponse(status: .ok, headerFields: [.contentType: writer.contentType])
        for round in 0..<200 {
            let records = Self.records(&random)
            let body = try await Self.bytes(writer.chunks(for: records.async, minimumChunkSize: Int(random.below(128))))
            #expect(try JSONDecoder().decode([Record].self, from: Data(body)) == records, "round \(round)")
            var read: [Record] = []
            let reader = JSONStreamResponseSerializer(decoding: Record.self)
            for try await record in reader.values(for: head, body: Self.rechunked(body, &random).async) { read.append(record) }
            #expect(read == records, "round \(round)")
        }
    }

    @Test("300 seeded event streams read by asDecodedServerSentEvents as written, line breaks as LF")
    func serverSentEvents() async throws {
        var random = SplitMix64(seed: 42)
        func field(_ random: inout SplitMix64) -> String {
            Self.text(&random, count: random.range(1, 4)).filter { !$0.isNewline && $0 != "\u{0}" }
        }
        for round in 0..<300 {
            var events: [HTTPSerializationCore.ServerSentEvent] = []
            for _ in 0..<random.range(1, 6) {
                let name = random.below(3) == 0 ? field(&random) : nil
                events.append(.init(event: name?.isEmpty == true ? nil : name, data: Self.text(&random, count: random.range(0, 8)),
                                    id: random.below(3) == 0 ? field(&random) : nil,
                                    retry: random.below(4) == 0 ? random.range(0, 100_000) : nil))
            }
            let body = try await Self.bytes(ServerSentEventWriter().chunks(for: events.async))
            var read: [OpenAPIRuntime.ServerSentEvent] = []
            for try await event in Self.rechunked(body, &random).async.asDecodedServerSentEvents() { read.append(event) }
            let expected = events.map { event in
                OpenAPIRuntime.ServerSentEvent(
                    id: event.id, event: event.event,
                    data: event.data.replacingOccurrences(of: "\r\n", with: "\n").replacingOccurrences(of: "\r", with: "\n"),
                    retry: event.retry.map { Int64($0) })
            }
            #expect(read == expected, "round \(round): \(String(decoding: body, as: UTF8.self).debugDescription)")
        }
    }

    @Test("an event's data encoded from a model reads back with decodeData, one data line however the model's strings break")
    func encodedEventData() throws {
        let record = Record(id: 1, text: "two\nlines\r\n", score: 0.5, tags: ["\u{2028}"])
        let event = try HTTPSerializationCore.ServerSentEvent(event: "record", encoding: record, id: "1")
        let body = try ServerSentEventWriter().data(for: [event])
        #expect(String(decoding: body, as: UTF8.self).components(separatedBy: "\n").filter { $0.hasPrefix("data:") }.count == 1)
        let read = try ServerSentEventsResponseSerializer().responseObject(
            for: HTTPResponse(status: .ok, headerFields: [.contentType: "text/event-stream"]), data: body)
        #expect(try read.map { try $0.decodeData(as: Record.self) } == [record])
    }

    @Test("[String: Any] graphs written as lines read back by JSONSerialization; a value JSON cannot carry is refused by index")
    func foundationGraphs() throws {
        let graphs: [Any] = [["a": 1, "b": [true, NSNull()], "c": "x\ny"] as [String: Any], [1.5, "é"] as [Any], "bare"]
        let body = try JSONStreamWriter<Any>(format: .lines, options: .sortedKeys).data(for: graphs)
        let lines = body.split(separator: 0x0A).map { try? JSONSerialization.jsonObject(with: Data($0), options: .fragmentsAllowed) }
        #expect(lines.count == 3)
        #expect((lines[0] as? NSDictionary) == (graphs[0] as? NSDictionary))
        #expect((lines[1] as? NSArray) == (graphs[1] as? NSArray))
        #expect(lines[2] as? String == "bare")
        #expect(String(decoding: body.prefix(28), as: UTF8.self) == #"{"a":1,"b":[true,null],"c":""#)
        #expect(throws: StreamWritingError.self) { try JSONStreamWriter<Any>().data(for: [1, Date()] as [Any]) }
        do {
            _ = try JSONStreamWriter<Any>().data(for: [1, Date()] as [Any])
        } catch let error as StreamWritingError {
            guard case .unencodableValue(index: 2, _) = error else { Issue.record("got \(error)"); return }
        }
    }

    @Test("a JSON Lines body from an Encodable model keeps the encoder's strategies and drops pretty printing")
    func encoderStrategies() throws {
        struct Stamp: Encodable { var createdAt: Date; var userID: Int }
        var encoder = JSONBodyEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        encoder.keyEncodingStrategy = .convertToSnakeCase
        encoder.dateEncodingStrategy = .secondsSince1970
        let body = try JSONStreamWriter<Stamp>(format: .lines, encoder: encoder).data(for: [Stamp(createdAt: Date(timeIntervalSince1970: 5), userID: 2)])
        #expect(String(decoding: body, as: UTF8.self) == "{\"created_at\":5,\"user_id\":2}\n")
    }
}
