import Foundation
import HTTPSerialization
import HTTPTypes
import OpenAPIRuntime
import SeededGenerators

/// Streamed responses: the §6 records as NDJSON, one a line, decoded as the chunks arrive.
enum StreamingBenchmarks {
    /// The §6 records, each written back by `JSONBodyEncoder` on a line of its own.
    static func ndjson(records count: Int) -> Data? {
        guard let records = try? JSONBodyDecoder().decode([JSONBenchmarks.Record].self, from: JSONBenchmarks.document(objects: count)) else {
            return nil
        }
        var body = Data()
        for record in records {
            guard let line = try? JSONBodyEncoder().encode(record) else { return nil }
            body.append(line)
            body.append(0x0A)
        }
        return body
    }

    /// Our streaming decoder fed 64 KiB chunks, as a transport hands them over.
    static func decodeInChunks(_ body: Data, with serializer: JSONStreamResponseSerializer<JSONBenchmarks.Record>) -> Int {
        let head = HTTPResponse(status: .ok, headerFields: [.contentType: "application/x-ndjson"])
        guard var decoder = try? serializer.makeBodyDecoder(for: head) else { return -1 }
        var values: [JSONBenchmarks.Record] = []
        var count = 0
        let ok = body.withUnsafeBytes { raw -> Bool in
            let bytes = raw.bindMemory(to: UInt8.self)
            var start = 0
            do {
                while start < bytes.count {
                    let end = min(start + 65_536, bytes.count)
                    try decoder.decode(Span(_unsafeElements: UnsafeBufferPointer(rebasing: bytes[start..<end])), into: &values)
                    count += values.count
                    values.removeAll(keepingCapacity: true)
                    start = end
                }
                try decoder.finish(into: &values)
                return true
            } catch {
                return false
            }
        }
        return ok ? count + values.count : -1
    }

    /// The peer: `JSONDecoder` on each line, split at its line feed.
    static func decodeLines(_ body: Data) -> Int {
        let decoder = JSONDecoder()
        var count = 0
        var start = body.startIndex
        while start < body.endIndex {
            let end = body[start...].firstIndex(of: 0x0A) ?? body.endIndex
            if end > start, (try? decoder.decode(JSONBenchmarks.Record.self, from: body[start..<end])) != nil { count += 1 }
            start = end + 1
        }
        return count
    }

    /// A seeded event stream: `id`, `event` and JSON `data` lines, some events with two data
    /// lines, a comment every 16th, LF line ends.
    static func eventStream(events: Int) -> [UInt8] {
        var random = SplitMix64(seed: 5)
        var text = ""
        text.reserveCapacity(events * 110)
        for index in 0..<events {
            if index % 16 == 0 { text += ": keep-alive \(index)\n" }
            text += "id: \(index)\nevent: \(index % 3 == 0 ? "delta" : "update")\n"
            text += "data: {\"seq\":\(index),\"text\":\"\(random.str(10, 60))\"}\n"
            if random.below(4) == 0 { text += "data: {\"more\":\"\(random.str(4, 20))\"}\n" }
            text += "\n"
        }
        return Array(text.utf8)
    }

    /// A body already in memory, handed over in 64 KiB slices as a transport would.
    struct Slices: AsyncSequence, Sendable {
        let slices: [ArraySlice<UInt8>]
        init(_ bytes: [UInt8]) {
            slices = stride(from: 0, to: bytes.count, by: 65_536).map { bytes[$0..<Swift.min($0 + 65_536, bytes.count)] }
        }
        struct AsyncIterator: AsyncIteratorProtocol {
            var index = 0
            let slices: [ArraySlice<UInt8>]
            mutating func next() async -> ArraySlice<UInt8>? {
                guard index < slices.count else { return nil }
                defer { index += 1 }
                return slices[index]
            }
        }
        func makeAsyncIterator() -> AsyncIterator { AsyncIterator(slices: slices) }
    }

    /// Runs `body` to its end from synchronous code.
    static func blocking<Result: Sendable>(_ body: @escaping @Sendable () async -> Result) -> Result {
        let done = DispatchSemaphore(value: 0)
        let box = ResultBox<Result>()
        Task.detached {
            box.value = await body()
            done.signal()
        }
        done.wait()
        return box.value!
    }

    /// Carries a task's result to the thread that waited for it.
    final class ResultBox<Value: Sendable>: @unchecked Sendable {
        // Written once by the task before it signals, read once after the wait returns.
        var value: Value?
    }

    static func ourEvents(_ body: Slices) async -> Int {
        let head = HTTPResponse(status: .ok, headerFields: [.contentType: "text/event-stream"])
        var count = 0
        do {
            for try await event in ServerSentEventsResponseSerializer().values(for: head, body: body) { count += event.data.isEmpty ? 0 : 1 }
        } catch {
            return -1
        }
        return count
    }

    static func peerEvents(_ body: Slices) async -> Int {
        var count = 0
        do {
            for try await event in body.asDecodedServerSentEvents() { count += (event.data?.isEmpty ?? true) ? 0 : 1 }
        } catch {
            return -1
        }
        return count
    }

    @MainActor
    static func runEvents(quick: Bool, runs: Int) {
        let count = quick ? 2_000 : 200_000
        let bytes = eventStream(events: count)
        let body = Slices(bytes)
        check(blocking { await ourEvents(body) } == count, "the event-stream parser lost events")
        check(blocking { await peerEvents(body) } == count, "swift-openapi-runtime's parser lost events")
        let times = fastest(runs: runs, [
            { consume(blocking { await peerEvents(body) }) },
            { consume(blocking { await ourEvents(body) }) },
        ])
        let megabytes = Double(bytes.count) / 1e6
        print("")
        print("Event stream, \(bytes.count) bytes, \(count) events, in 64 KiB chunks")
        print("  swift-openapi-runtime      \(format(megabytes / times[0])) MB/s, \(format(Double(count) / times[0] / 1e3)) k events/s")
        print("  ServerSentEventsResponseSerializer \(format(megabytes / times[1])) MB/s, \(format(Double(count) / times[1] / 1e3)) k events/s, \(format(times[0] / times[1], 2))x   (target >= 3x)")
        recordRatio("sse-vs-openapi-runtime", times[0] / times[1], target: 3)
    }

    /// A top-level array of `bytes` bytes or a little more, made 64 KiB at a time from 1,000
    /// §6 records cycled, so no process ever holds the document.
    struct ArrayBody: AsyncSequence, Sendable {
        let bytes: Int
        let records: [[UInt8]]

        init?(bytes: Int) {
            guard let records = try? JSONBodyDecoder().decode([JSONBenchmarks.Record].self, from: JSONBenchmarks.document(objects: 1_000)),
                  let lines = try? records.map({ Array(try JSONBodyEncoder().encode($0)) }) else { return nil }
            self.bytes = bytes
            self.records = lines
        }

        struct AsyncIterator: AsyncIteratorProtocol {
            let body: ArrayBody
            var made = 0
            var next = 0
            var done = false
            mutating func next() async -> [UInt8]? {
                guard !done else { return nil }
                var chunk: [UInt8] = made == 0 ? [UInt8(ascii: "[")] : []
                chunk.reserveCapacity(65_536 + 1_024)
                while chunk.count < 65_536 {
                    if made + chunk.count >= body.bytes {
                        chunk.append(UInt8(ascii: "]"))
                        done = true
                        break
                    }
                    if next > 0 { chunk.append(UInt8(ascii: ",")) }
                    chunk += body.records[next % body.records.count]
                    next += 1
                }
                made += chunk.count
                return chunk
            }
        }

        func makeAsyncIterator() -> AsyncIterator { AsyncIterator(body: self) }
    }

    /// Decodes (or, for the baseline, only makes) a 1 GiB array body; the elements and bytes seen.
    static func streamArray(decoding: Bool, bytes: Int) async -> (elements: Int, bytes: Int) {
        guard let body = ArrayBody(bytes: bytes) else { return (-1, 0) }
        let head = HTTPResponse(status: .ok, headerFields: [.contentType: "application/json"])
        if !decoding {
            var total = 0
            for await chunk in body { total += chunk.count }
            return (0, total)
        }
        var elements = 0
        do {
            for try await record in JSONStreamResponseSerializer(decoding: JSONBenchmarks.Record.self).values(for: head, body: body) {
                elements += record.id >= 0 ? 1 : 0
            }
        } catch {
            return (-1, 0)
        }
        return (elements, bytes)
    }

    @MainActor
    static func runArray(quick: Bool) {
        // The timing reads 256 MiB; the memory bound is checked at 1 GiB in a child process.
        let size = quick ? 8 << 20 : 256 << 20
        let started = Date()
        let counted = blocking { await streamArray(decoding: true, bytes: size) }
        let seconds = Date().timeIntervalSince(started)
        check(counted.elements > 0, "the incremental array decode failed")
        print("")
        print("Incremental JSON array of §6 records made 64 KiB at a time, into Decodable")
        print("  \(size >> 20) MiB:")
        print("  \(counted.elements) elements in \(format(seconds, 2)) s, \(format(Double(size) / 1e6 / seconds)) MB/s")
        guard !quick else { return }
        if let growth = PeakRSS.growth("stream-array", baseline: "stream-array-baseline") {
            print("  1024 MiB, peak RSS growth, fresh process  \(format(growth)) MiB   (bound 64 MiB)")
            check(growth <= 64, "decoding a 1 GiB array grew peak RSS by \(format(growth)) MiB")
        }
    }

    /// Decodes a gzip body given as 64 KiB chunks, discarding the output; the bytes decoded.
    static func gunzip(_ chunks: Slices) async -> Int {
        let head = HTTPResponse(status: .ok, headerFields: [.contentEncoding: "gzip"])
        var total = 0
        do {
            var limits = DecompressionLimits()
            limits.maximumSize = nil
            for try await chunk in try chunks.decodingContentEncoding(of: head, limits: limits) { total += chunk.count }
        } catch {
            return -1
        }
        return total
    }

    /// `gzip -dc FILE > /dev/null` in a subprocess, its wall time; nil when gzip cannot run.
    static func gzipCommand(_ arguments: [String], input: URL, output: URL?) -> Double? {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["gzip"] + arguments + [input.path]
        process.standardOutput = output.flatMap { try? FileHandle(forWritingTo: $0) } ?? FileHandle.nullDevice
        let started = Date()
        guard (try? process.run()) != nil else { return nil }
        process.waitUntilExit()
        return process.terminationStatus == 0 ? Date().timeIntervalSince(started) : nil
    }

    @MainActor
    static func runGzip(quick: Bool, runs: Int) {
        guard let records = ndjson(records: quick ? 500 : 56_000) else { return check(false, "the NDJSON body could not be made") }
        let plain = Array(repeating: records, count: quick ? 1 : 5).reduce(Data(), +)
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("httpser-gzip-\(getpid())")
        try? FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let source = folder.appendingPathComponent("body.ndjson"), compressed = folder.appendingPathComponent("body.ndjson.gz")
        guard (try? plain.write(to: source)) != nil, FileManager.default.createFile(atPath: compressed.path, contents: nil),
              gzipCommand(["-c", "-6"], input: source, output: compressed) != nil,
              let gzipped = try? Data(contentsOf: compressed) else {
            return check(false, "gzip could not compress the benchmark body")
        }
        let body = Slices(Array(gzipped))
        check(blocking { await gunzip(body) } == plain.count, "gzip decoding lost bytes")
        var peer = Double.infinity, ours = Double.infinity
        for _ in 0..<runs {
            if let seconds = gzipCommand(["-dc"], input: compressed, output: nil) { peer = min(peer, seconds) }
            let started = Date()
            consume(blocking { await gunzip(body) })
            ours = min(ours, Date().timeIntervalSince(started))
        }
        let megabytes = Double(plain.count) / 1e6
        print("")
        print("gzip response, \(gzipped.count) bytes decoding to \(plain.count), in 64 KiB chunks")
        print("  gzip -dc (a process)       \(format(megabytes / peer)) MB/s")
        print("  decodingContentEncoding    \(format(megabytes / ours)) MB/s, \(format(peer / ours, 2))x gzip -dc   (target >= 0.8x)")
        recordRatio("gzip-vs-gzip-dc", peer / ours, target: 0.8)

        // The other way: a request body compressed at level 6, against `gzip -c -6` of the same bytes.
        let head = HTTPResponse(status: .ok, headerFields: [.contentEncoding: "gzip"])
        func compress() -> Data? {
            guard case .bytes(let data)? = try? RequestBody.bytes(plain).compressed(.gzip, level: 6) else { return nil }
            return data
        }
        guard let ownGzip = compress(),
              let roundTrip = try? ResponseContext(response: head, data: ownGzip).decodingContentEncoding().data else {
            return check(false, "the request body could not be compressed")
        }
        check(roundTrip == plain, "compressing the request body changed its bytes")
        var gzipC = Double.infinity, compressing = Double.infinity
        for _ in 0..<runs {
            if let seconds = gzipCommand(["-c", "-6"], input: source, output: nil) { gzipC = min(gzipC, seconds) }
            let started = Date()
            consume(compress()?.count ?? -1)
            compressing = min(compressing, Date().timeIntervalSince(started))
        }
        print("")
        print("gzip request body, \(plain.count) bytes compressing to \(ownGzip.count) (gzip -c: \(gzipped.count)), level 6")
        print("  gzip -c -6 (a process)     \(format(megabytes / gzipC)) MB/s")
        print("  RequestBody.compressed     \(format(megabytes / compressing)) MB/s, \(format(gzipC / compressing, 2))x gzip -c   (target >= 0.8x)")
        recordRatio("request-gzip-vs-gzip-c", gzipC / compressing, target: 0.8)
    }

    @MainActor
    static func run(quick: Bool, runs: Int) {
        let count = quick ? 500 : 56_000
        guard let body = ndjson(records: count) else { return check(false, "the NDJSON body could not be made") }
        let serializer = JSONStreamResponseSerializer(decoding: JSONBenchmarks.Record.self)
        check(decodeInChunks(body, with: serializer) == count, "the streaming decoder lost NDJSON records")
        check(decodeLines(body) == count, "JSONDecoder lost NDJSON records")
        let times = fastest(runs: runs, [{ consume(decodeLines(body)) }, { consume(decodeInChunks(body, with: serializer)) }])
        let megabytes = Double(body.count) / 1e6
        print("")
        print("NDJSON response, \(body.count) bytes, \(count) §6 records a line, in 64 KiB chunks")
        print("  JSONDecoder line by line   \(format(megabytes / times[0])) MB/s")
        print("  JSONStreamResponseSerializer \(format(megabytes / times[1])) MB/s, \(format(times[0] / times[1], 2))x JSONDecoder   (target >= 2.5x)")
        recordRatio("ndjson-decodable-vs-jsondecoder", times[0] / times[1], target: 2.5)
    }
}
