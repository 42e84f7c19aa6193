import Foundation
import HTTPSerialization
import OpenAPIRuntime
import SeededGenerators

/// Streamed bodies written from values: the §6 records as JSON Lines, and an event stream.
enum StreamWritingBenchmarks {
    /// Values already in memory, handed over one per `next()` with nothing else in the way, so
    /// both sides of a comparison pay the same for the source.
    struct Values<Value: Sendable>: AsyncSequence, Sendable {
        let values: [Value]
        struct AsyncIterator: AsyncIteratorProtocol {
            let values: [Value]
            var index = 0
            mutating func next() async -> Value? {
                guard index < values.count else { return nil }
                defer { index += 1 }
                return values[index]
            }
        }
        func makeAsyncIterator() -> AsyncIterator { AsyncIterator(values: values) }
    }

    static let chunkSize = 64 * 1024

    /// Our writer, gathering 64 KiB chunks; the bytes written.
    static func ourLines(_ records: Values<JSONBenchmarks.Record>) async -> Int {
        var total = 0
        do {
            for try await chunk in JSONStreamWriter<JSONBenchmarks.Record>(format: .lines).chunks(for: records, minimumChunkSize: chunkSize) {
                total += chunk.count
            }
        } catch {
            return -1
        }
        return total
    }

    /// The peer: `JSONEncoder` on each record plus a line feed, gathered into 64 KiB chunks.
    static func encoderLines(_ records: Values<JSONBenchmarks.Record>) async -> Int {
        let encoder = JSONEncoder()
        var total = 0
        var chunk: [UInt8] = []
        do {
            for await record in records {
                chunk += try encoder.encode(record)
                chunk.append(0x0A)
                if chunk.count >= chunkSize {
                    total += chunk.count
                    chunk = []
                }
            }
        } catch {
            return -1
        }
        return total + chunk.count
    }

    /// swift-openapi-runtime's JSON Lines writer (`JSONEncoder` inside, a chunk a line).
    static func openAPILines(_ records: Values<JSONBenchmarks.Record>) async -> Int {
        var total = 0
        do {
            for try await chunk in records.asEncodedJSONLines() { total += chunk.count }
        } catch {
            return -1
        }
        return total
    }

    @MainActor
    static func runLines(quick: Bool, runs: Int) {
        guard let all = try? JSONBodyDecoder().decode([JSONBenchmarks.Record].self, from: JSONBenchmarks.document(objects: quick ? 2_000 : 100_000)) else {
            check(false, "the §6 records did not decode")
            return
        }
        let records = Values(values: all)
        let expected = StreamingBenchmarks.blocking { await encoderLines(records) }
        check(StreamingBenchmarks.blocking { await ourLines(records) } == expected, "the JSON Lines writer wrote a different length from JSONEncoder's lines")
        let times = fastest(runs: runs, [
            { consume(StreamingBenchmarks.blocking { await encoderLines(records) }) },
            { consume(StreamingBenchmarks.blocking { await openAPILines(records) }) },
            { consume(StreamingBenchmarks.blocking { await ourLines(records) }) },
        ])
        let megabytes = Double(expected) / 1e6
        print("")
        print("JSON Lines written from \(all.count) §6 records, \(expected) bytes, in 64 KiB chunks")
        print("  JSONEncoder + line feed    \(format(megabytes / times[0])) MB/s, \(format(Double(all.count) / times[0] / 1e3)) k lines/s")
        print("  swift-openapi-runtime      \(format(megabytes / times[1])) MB/s, \(format(times[0] / times[1], 2))x")
        print("  JSONStreamWriter           \(format(megabytes / times[2])) MB/s, \(format(times[0] / times[2], 2))x   (target >= 3x)")
        recordRatio("jsonl-writing-vs-jsonencoder", times[0] / times[2], target: 3)
    }

    /// Seeded events: an id, a type, and JSON data, one in four with a line break in its data.
    static func events(count: Int) -> [HTTPSerializationCore.ServerSentEvent] {
        var random = SplitMix64(seed: 6)
        return (0..<count).map { index in
            var data = "{\"seq\":\(index),\"text\":\"\(random.str(10, 60))\"}"
            if random.below(4) == 0 { data += "\n{\"more\":\"\(random.str(4, 20))\"}" }
            return .init(event: index % 3 == 0 ? "delta" : "update", data: data, id: String(index))
        }
    }

    /// Our writer, a chunk an event as a live stream sends them; the bytes written.
    static func ourEvents(_ events: Values<HTTPSerializationCore.ServerSentEvent>) async -> Int {
        var total = 0
        do {
            for try await chunk in ServerSentEventWriter().chunks(for: events) { total += chunk.count }
        } catch {
            return -1
        }
        return total
    }

    /// The peer: formatting by hand, as a route does without a writer: the fields interpolated,
    /// the data's lines split at LF only and checked for nothing, a chunk an event.
    static func handEvents(_ events: Values<HTTPSerializationCore.ServerSentEvent>) async -> Int {
        var total = 0
        for await event in events {
            var text = ""
            if let name = event.event { text += "event: \(name)\n" }
            if let id = event.id { text += "id: \(id)\n" }
            for line in event.data.split(separator: "\n", omittingEmptySubsequences: false) { text += "data: \(line)\n" }
            text += "\n"
            let chunk = Array(text.utf8)[...]
            total += chunk.count
        }
        return total
    }

    @MainActor
    static func runEvents(quick: Bool, runs: Int) {
        let all = events(count: quick ? 2_000 : 100_000)
        let source = Values(values: all)
        let expected = StreamingBenchmarks.blocking { await handEvents(source) }
        check(StreamingBenchmarks.blocking { await ourEvents(source) } == expected, "the event writer wrote a different length from the hand formatter")
        let times = fastest(runs: runs, [
            { consume(StreamingBenchmarks.blocking { await handEvents(source) }) },
            { consume(StreamingBenchmarks.blocking { await ourEvents(source) }) },
        ])
        print("")
        print("Event stream written from \(all.count) events, \(expected) bytes, a chunk an event")
        print("  formatted by hand          \(format(Double(all.count) / times[0] / 1e3)) k events/s")
        print("  ServerSentEventWriter      \(format(Double(all.count) / times[1] / 1e3)) k events/s, \(format(times[0] / times[1], 2))x   (target >= 0.8x)")
        recordRatio("sse-writing-vs-hand-formatting", times[0] / times[1], target: 0.8)
    }
}
