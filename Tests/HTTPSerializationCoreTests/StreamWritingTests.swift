#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import HTTPTypes
import Testing
@testable import HTTPSerializationCore

/// Values delivered one per `next()`, counting the pulls, and failing after `failingAfter` values if set.
struct ValueSource<Value: Sendable>: AsyncSequence, Sendable {
    struct SourceFailure: Error, Equatable {}

    let values: [Value]
    var failingAfter: Int?
    var pulls: PullCounter?

    struct AsyncIterator: AsyncIteratorProtocol {
        var remaining: ArraySlice<Value>
        var delivered = 0
        let failingAfter: Int?
        let pulls: PullCounter?
        mutating func next() async throws -> Value? {
            pulls?.count()
            if delivered == failingAfter { throw SourceFailure() }
            delivered += 1
            return remaining.popFirst()
        }
    }

    func makeAsyncIterator() -> AsyncIterator { AsyncIterator(remaining: values[...], failingAfter: failingAfter, pulls: pulls) }
}

/// Every chunk of `chunks`, and the error that ended them, if any.
func drain<S: AsyncSequence>(_ chunks: S) async -> (chunks: [[UInt8]], error: (any Error)?) where S.Element == ArraySlice<UInt8> {
    var collected: [[UInt8]] = []
    do {
        for try await chunk in chunks { collected.append(Array(chunk)) }
        return (collected, nil)
    } catch {
        return (collected, error)
    }
}

@Suite("Stream writers: server-sent events as the WHATWG parser reads them")
struct ServerSentEventWriterTests {
    static func text(_ events: [ServerSentEvent]) throws -> String {
        String(decoding: try ServerSentEventWriter().data(for: events), as: UTF8.self)
    }

    @Test("fields are written with one space after the colon, data split at CR, LF and CRLF into data lines")
    func format() throws {
        #expect(try Self.text([ServerSentEvent(event: "update", data: "a\r\nb\rc\nd", id: "7", retry: 1500)])
            == "event: update\nid: 7\nretry: 1500\ndata: a\ndata: b\ndata: c\ndata: d\n\n")
        // Empty data is one empty data line, so the event is still dispatched; a trailing line
        // break is an empty last line; an empty event name is the default type, not written.
        #expect(try Self.text([ServerSentEvent(event: "", data: ""), ServerSentEvent(data: "x\n")])
            == "data: \n\ndata: x\ndata: \n\n")
        let messages: [ServerSentEventMessage] = [.comment("keep-alive"), .comment("two\nlines"), .event(ServerSentEvent(data: " lead"))]
        #expect(String(decoding: try ServerSentEventWriter().data(for: messages), as: UTF8.self)
            == ": keep-alive\n: two\n: lines\ndata:  lead\n\n")
    }

    @Test("an event or id with a line break, an id with NUL and a negative retry are refused with where and why, and nothing of them is written")
    func refusals() async throws {
        let bad: [(ServerSentEvent, String)] = [
            (ServerSentEvent(event: "a\nevent: forged", data: "x"), "event"),
            (ServerSentEvent(event: "a\r", data: "x"), "event"),
            (ServerSentEvent(data: "x", id: "1\r\ndata: forged"), "id"),
            (ServerSentEvent(data: "x", id: "a\u{0}b"), "id"),
            (ServerSentEvent(data: "x", retry: -1), "retry"),
        ]
        for (event, field) in bad {
            let source = ValueSource(values: [ServerSentEvent(data: "ok"), event, ServerSentEvent(data: "never")])
            let (chunks, error) = await drain(ServerSentEventWriter().chunks(for: source, minimumChunkSize: 1 << 20))
            // The gathered chunk before the refusal is delivered whole, without any of the refused event.
            #expect(chunks == [Array("data: ok\n\n".utf8)], "\(event)")
            guard case .invalidEventField(2, let named, _)? = error as? StreamWritingError else {
                Issue.record("\(event): \(String(describing: error))")
                continue
            }
            #expect(named == field)
        }
        #expect(throws: StreamWritingError.self) { try Self.text([ServerSentEvent(data: "x", id: "\n")]) }
    }

    /// `text` with each CRLF and CR as LF.
    static func lineEndsAsLF(_ text: String) -> String {
        var bytes: [UInt8] = []
        var previous: UInt8 = 0
        for byte in text.utf8 {
            if byte == 0x0A, previous == 0x0D {
                previous = byte
                continue
            }
            bytes.append(byte == 0x0D ? 0x0A : byte)
            previous = byte
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    @Test("seeded events with CR, LF, CRLF, U+2028, NUL, marks and non-ASCII text read back by our reader at seeded chunkings")
    func roundTrip() async throws {
        var random = SplitMix(state: 39)
        let pieces = ["a", " ", "\r", "\n", "\r\n", "\u{2028}", "\u{0}", "é東🙂", "\u{FEFF}", ":", "data: x", "", "\n\n"]
        func text(_ count: Int, allowingBreaks: Bool) -> String {
            var string = ""
            for _ in 0..<count {
                let piece = pieces[Int(random.next() % UInt64(pieces.count))]
                if !allowingBreaks, piece.contains(where: \.isNewline) || piece.unicodeScalars.contains("\u{0}") { continue }
                string += piece
            }
            return string
        }
        for round in 0..<200 {
            var events: [ServerSentEvent] = []
            for _ in 0..<(1 + random.next() % 6) {
                events.append(ServerSentEvent(
                    event: random.next() % 3 == 0 ? text(3, allowingBreaks: false) : nil,
                    data: text(Int(random.next() % 8), allowingBreaks: true),
                    id: random.next() % 3 == 0 ? text(2, allowingBreaks: false) : nil,
                    retry: random.next() % 5 == 0 ? Int(random.next() % 100_000) : nil))
            }
            let bytes = Array(try ServerSentEventWriter().data(for: events))
            #expect(bytes.starts(with: [0xEF, 0xBB, 0xBF]) == false)
            let size = 1 + Int(random.next() % 16)
            let read = try await StreamingServerSentEventsTests.events(bytes, chunkSize: size)
            // What the format carries: line breaks as LF, an empty type as none, and the id persisting.
            var expected: [ServerSentEvent] = []
            var lastID: String?
            for event in events {
                if let id = event.id { lastID = id }
                let data = Self.lineEndsAsLF(event.data)
                expected.append(ServerSentEvent(event: event.event?.isEmpty == false ? event.event : nil, data: data, id: lastID, retry: event.retry))
            }
            #expect(read == expected, "round \(round), chunk size \(size): \(String(decoding: bytes, as: UTF8.self).debugDescription)")
        }
    }
}

@Suite("Stream writers: JSON Lines, text sequences and arrays")
struct JSONStreamWriterTests {
    static let values: [ParameterValue] = [
        ["id": 1, "name": "a\nb\r\u{2028}"], "just a string", 2.5, nil, ["nested": ["deep": [true, false]]], [], [:],
        ["text": "caf\u{E9} 東京 \u{0} /"],
    ]

    @Test("each format frames values right, an array's commas and brackets for any count including none")
    func framing() throws {
        let lines = JSONStreamWriter<ParameterValue>(format: .lines)
        #expect(String(decoding: try lines.data(for: [1, "a\nb"] as [ParameterValue]), as: UTF8.self) == "1\n\"a\\nb\"\n")
        #expect(lines.contentType == "application/x-ndjson")
        let sequence = JSONStreamWriter<ParameterValue>(format: .textSequence)
        #expect(Array(try sequence.data(for: [1, [2]] as [ParameterValue])) == [0x1E, 0x31, 0x0A, 0x1E, 0x5B, 0x32, 0x5D, 0x0A])
        #expect(sequence.contentType == "application/json-seq")
        let array = JSONStreamWriter<ParameterValue>(format: .array)
        #expect(String(decoding: try array.data(for: [] as [ParameterValue]), as: UTF8.self) == "[]")
        #expect(String(decoding: try array.data(for: [1] as [ParameterValue]), as: UTF8.self) == "[1]")
        #expect(String(decoding: try array.data(for: [1, nil, "x"] as [ParameterValue]), as: UTF8.self) == #"[1,null,"x"]"#)
        // Pretty printing would put line breaks inside a line: it is ignored.
        let sorted = JSONStreamWriter<ParameterValue>(format: .lines, options: [.prettyPrinted, .sortedKeys])
        #expect(String(decoding: try sorted.data(for: [["b": 1, "a": [1, 2]]]), as: UTF8.self) == "{\"a\":[1,2],\"b\":1}\n")
    }

    @Test("each format's body reads back through the package's reader at every chunk size, async chunks as the whole body")
    func roundTrip() async throws {
        for format in [JSONStreamWriter<ParameterValue>.Format.lines, .textSequence, .array] {
            let writer = JSONStreamWriter<ParameterValue>(format: format)
            let whole = Array(try writer.data(for: Self.values))
            for gathering in [0, 7, 1 << 20] {
                let (chunks, error) = await drain(writer.chunks(for: ValueSource(values: Self.values), minimumChunkSize: gathering))
                #expect(error == nil)
                #expect(Array(chunks.joined()) == whole)
                if gathering == 0 { #expect(chunks.count == Self.values.count + (format == .array ? 1 : 0)) }
                if gathering == 1 << 20 { #expect(chunks.count == 1) }
            }
            var reader = JSONStreamResponseSerializer()
            reader.format = format == .lines ? .lines : format == .array ? .array : .textSequence
            for size in 1...whole.count {
                let read = try await StreamingJSONLinesTests.collect(reader, ChunkedBody(whole, chunkSize: size))
                #expect(read == Self.values, "\(format) at chunk size \(size)")
            }
        }
    }

    @Test("the source is read no faster than the consumer takes chunks")
    func backPressure() async throws {
        let pulls = PullCounter()
        let source = ValueSource(values: Array(repeating: ParameterValue.string("x"), count: 100), pulls: pulls)
        var iterator = JSONStreamWriter<ParameterValue>(format: .lines).chunks(for: source).makeAsyncIterator()
        for taken in 1...5 {
            #expect(try await iterator.next() == Array("\"x\"\n".utf8)[...])
            #expect(pulls.value == taken)
        }
        // Gathering reads only as many values as the chunk needs: 4 bytes each, 10 for 40 bytes.
        let gatheredPulls = PullCounter()
        let gathered = ValueSource(values: Array(repeating: ParameterValue.string("x"), count: 100), pulls: gatheredPulls)
        var gatheredIterator = JSONStreamWriter<ParameterValue>(format: .lines).chunks(for: gathered, minimumChunkSize: 40).makeAsyncIterator()
        #expect(try await gatheredIterator.next()?.count == 40)
        #expect(gatheredPulls.value == 10)
    }

    @Test("a failing source ends the body with its error after what was written; an array is left open so readers see it truncated")
    func sourceFailure() async throws {
        let writer = JSONStreamWriter<ParameterValue>(format: .array)
        let (chunks, error) = await drain(writer.chunks(for: ValueSource(values: [1, 2, 3], failingAfter: 2)))
        #expect(error as? ValueSource<ParameterValue>.SourceFailure != nil)
        #expect(chunks == [Array("[1".utf8), Array(",2".utf8)])
        var reader = JSONStreamResponseSerializer()
        reader.format = .array
        await #expect(throws: StreamingResponseError.self) {
            _ = try await StreamingJSONLinesTests.collect(reader, ChunkedBody(chunks))
        }
        // Gathered: the values before the failure come as one chunk, then the error.
        let gathered = await drain(writer.chunks(for: ValueSource(values: [1, 2, 3], failingAfter: 2), minimumChunkSize: 1 << 10))
        #expect(gathered.chunks == [Array("[1,2".utf8)] && gathered.error is ValueSource<ParameterValue>.SourceFailure)
        // A source that fails at once leaves nothing but the bracket.
        let immediate = await drain(writer.chunks(for: ValueSource(values: [1], failingAfter: 0)))
        #expect(immediate.chunks == [Array("[".utf8)] && immediate.error is ValueSource<ParameterValue>.SourceFailure)
    }

    @Test("a value the writer refuses ends the body with StreamWritingError naming it, after the values before it")
    func refusedValue() async throws {
        let writer = JSONStreamWriter<ParameterValue>(format: .lines, maximumDepth: 3)
        let source = ValueSource(values: [1, ParameterValue.double(.nan), 3])
        let (chunks, error) = await drain(writer.chunks(for: source, minimumChunkSize: 100))
        #expect(chunks == [Array("1\n".utf8)])
        guard case .unencodableValue(2, let underlying)? = error as? StreamWritingError else {
            Issue.record("got \(String(describing: error))")
            return
        }
        #expect(underlying.error is RequestSerializationError)
        #expect(throws: StreamWritingError.self) { try writer.data(for: [[[[[1]]]]] as [ParameterValue]) }
    }
}
