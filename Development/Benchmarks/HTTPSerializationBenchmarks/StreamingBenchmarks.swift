import Foundation
import HTTPSerialization
import HTTPTypes

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
    static func decodeInChunks(_ body: Data, with serializer: JSONLinesResponseSerializer<JSONBenchmarks.Record>) -> Int {
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
                    try decoder.decode(UnsafeBufferPointer(rebasing: bytes[start..<end]), into: &values)
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

    @MainActor
    static func run(quick: Bool, runs: Int) {
        let count = quick ? 500 : 56_000
        guard let body = ndjson(records: count) else { return check(false, "the NDJSON body could not be made") }
        let serializer = JSONLinesResponseSerializer(decoding: JSONBenchmarks.Record.self)
        check(decodeInChunks(body, with: serializer) == count, "the streaming decoder lost NDJSON records")
        check(decodeLines(body) == count, "JSONDecoder lost NDJSON records")
        let times = fastest(runs: runs, [{ consume(decodeLines(body)) }, { consume(decodeInChunks(body, with: serializer)) }])
        let megabytes = Double(body.count) / 1e6
        print("")
        print("NDJSON response, \(body.count) bytes, \(count) §6 records a line, in 64 KiB chunks")
        print("  JSONDecoder line by line   \(format(megabytes / times[0])) MB/s")
        print("  JSONLinesResponseSerializer \(format(megabytes / times[1])) MB/s, \(format(times[0] / times[1], 2))x JSONDecoder   (target >= 2.5x)")
        recordRatio("ndjson-decodable-vs-jsondecoder", times[0] / times[1], target: 2.5)
    }
}
