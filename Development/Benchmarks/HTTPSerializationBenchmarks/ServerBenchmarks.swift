import AsyncHTTPClient
import Foundation
import HTTPSerialization
import HTTPSerializationAsyncHTTPClient
import NIOCore
import SeededGenerators

/// §5 end to end: the same routes on Hummingbird and Vapor served through the framework's own
/// coders and through this package's, loaded by `wrk` on 127.0.0.1 with fixed connections and
/// duration, the two variants interleaved. `wrk` comes from Debian's package; when it is
/// missing the section says so and installs nothing (the benchmark script or CI does).
enum ServerBenchmarks {
    struct Failure: Error, CustomStringConvertible {
        let description: String
        init(_ description: String) { self.description = description }
    }

    /// One wrk run: requests a second and the 99th-percentile latency in milliseconds.
    struct Load {
        var requestsPerSecond: Double
        var p50: Double
        var p99: Double
    }

    /// A body posted to a route pair, with what it is called in the ratio lines.
    struct Case {
        let name: String
        let path: String
        let contentType: String
        let body: Data
        /// Targets for requests a second and p99, ours over default (p99: default over ours).
        let target: Double
    }

    static func cases(quick: Bool) throws -> [Case] {
        let record = try JSONBodyDecoder().decode([JSONBenchmarks.Record].self, from: JSONBenchmarks.document(objects: 1))[0]
        let form = try FormEncoder(style: QueryStringStyle(boolEncoding: .literal)).encode(record)
        // §6 documents of about 1 KB, 10 KB and 1 MB (about 330 bytes a record).
        var sized: [Case] = [
            Case(name: "json-1kb", path: "records", contentType: "application/json", body: JSONBenchmarks.document(objects: 3), target: 1.0),
            Case(name: "json-10kb", path: "records", contentType: "application/json", body: JSONBenchmarks.document(objects: 31), target: 1.3),
        ]
        if !quick {
            sized.append(Case(name: "json-1mb", path: "records", contentType: "application/json",
                              body: JSONBenchmarks.document(objects: 3_200), target: 2.0))
        }
        return sized + [Case(name: "form", path: "form", contentType: "application/x-www-form-urlencoded", body: Data(form.utf8), target: 1.0)]
    }

    /// Seeded events as a live feed sends them: an id, a name, one line of JSON data.
    static func events(count: Int) -> [ServerSentEvent] {
        var generator = SplitMix64(seed: 39)
        let names = ["quote", "trade", "status"]
        return (0..<count).map { index in
            let price = Double(generator.next() % 1_000_000) / 100
            let data = #"{"seq":\#(index),"symbol":"S\#(generator.next() % 5000)","price":\#(price),"size":\#(generator.next() % 1000)}"#
            return ServerSentEvent(event: names[Int(generator.next() % 3)], data: data, id: String(index))
        }
    }

    /// The peer of the events route: an event formatted by hand into a `ByteBuffer`, as a
    /// server without the writer would (no check of the fields, data assumed to be one line).
    static func handFormatted(_ event: ServerSentEvent) -> ByteBuffer {
        var buffer = ByteBuffer()
        buffer.writeString("id: \(event.id ?? "")\nevent: \(event.event ?? "message")\ndata: \(event.data)\n\n")
        return buffer
    }

    /// Reads the events route on `side` with the package's client; the events read and the seconds taken.
    static func readEvents(port: Int, side: String) async throws -> (count: Int, seconds: Double) {
        let request = SerializedRequest(request: HTTPRequest(method: .get, scheme: "http", authority: "127.0.0.1:\(port)", path: "/\(side)/events"))
        let start = DispatchTime.now().uptimeNanoseconds
        let streamed = try await HTTPClient.shared.stream(request, timeout: .seconds(120))
        var count = 0
        for try await _ in streamed.values(ServerSentEventsResponseSerializer()) { count += 1 }
        return (count, Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9)
    }

    /// Events a second from each events route, interleaved, best of `rounds`.
    @MainActor static func measureEvents(framework: String, port: Int, expected: Int, quick: Bool) async throws {
        var best: [String: Double] = [:]
        for _ in 0..<(quick ? 1 : 3) {
            for side in ["default", "ours"] {
                let run = try await readEvents(port: port, side: side)
                guard run.count == expected else { throw Failure("\(side)/events gave \(run.count) events, not \(expected)") }
                best[side] = max(best[side] ?? 0, Double(run.count) / run.seconds)
            }
        }
        guard let ours = best["ours"], let peer = best["default"] else { return }
        print("  \(framework) events to the package's client: hand formatter \(format(peer, 0))/s, ServerSentEventWriter \(format(ours, 0))/s")
        if !quick { recordRatio("\(framework)-sse-writing-vs-hand-formatter", ours / peer, target: 0.8) }
    }

    /// The `wrk` on PATH, if any.
    static func wrk() -> String? {
        for folder in (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin").split(separator: ":") {
            let path = "\(folder)/wrk"
            if FileManager.default.isExecutableFile(atPath: path) { return path }
        }
        return nil
    }

    /// Posts `body` to `url` with `wrk` for `seconds`, over `connections` connections.
    static func load(wrk: String, url: String, body: URL, contentType: String, seconds: Int, connections: Int, script: URL) throws -> Load {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: wrk)
        process.arguments = ["-t1", "-c\(connections)", "-d\(seconds)s", "--latency", "-s", script.path, url]
        var environment = ProcessInfo.processInfo.environment
        environment["HTTPSER_BODY"] = body.path
        environment["HTTPSER_CONTENT_TYPE"] = contentType
        process.environment = environment
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        guard !text.contains("Non-2xx"), !text.contains("Socket errors") else { throw Failure("wrk saw failures on \(url):\n\(text)") }
        guard let rps = number(after: "Requests/sec:", in: text), let p50 = latency(percentile: "50%", in: text),
              let p99 = latency(percentile: "99%", in: text) else {
            throw Failure("wrk output not understood:\n\(text)")
        }
        return Load(requestsPerSecond: rps, p50: p50, p99: p99)
    }

    static func number(after label: String, in text: String) -> Double? {
        guard let range = text.range(of: label) else { return nil }
        return Double(text[range.upperBound...].drop { $0 == " " }.prefix { !$0.isWhitespace })
    }

    /// A latency line of `--latency`'s distribution, in milliseconds.
    static func latency(percentile: String, in text: String) -> Double? {
        for line in text.split(separator: "\n") {
            let fields = line.split(separator: " ")
            guard fields.count == 2, fields[0] == percentile else { continue }
            let value = fields[1]
            for (unit, scale) in [("us", 0.001), ("ms", 1.0), ("s", 1000.0)] where value.hasSuffix(unit) {
                return Double(value.dropLast(unit.count)).map { $0 * scale }
            }
        }
        return nil
    }

    /// Both routes of a pair answer the same body with the same status and the same decoded
    /// JSON, before any load: a figure for a route that fails would mean nothing.
    static func checkRoutes(port: Int, _ item: Case) async throws {
        var answers: [String] = []
        for side in ["default", "ours"] {
            var request = HTTPClientRequest(url: "http://127.0.0.1:\(port)/\(side)/\(item.path)")
            request.method = .POST
            request.headers.add(name: "Content-Type", value: item.contentType)
            request.body = .bytes(ByteBuffer(bytes: item.body))
            let response = try await HTTPClient.shared.execute(request, timeout: .seconds(60))
            let body = try await response.body.collect(upTo: 64 << 20)
            guard response.status == .ok else { throw Failure("\(side)/\(item.path) answered \(response.status): \(String(buffer: body).prefix(200))") }
            if item.path == "records" {
                let records = try JSONDecoder().decode([JSONBenchmarks.Record].self, from: Data(buffer: body))
                answers.append(String(describing: records))
            } else {
                answers.append(String(buffer: body))
            }
        }
        guard answers[0] == answers[1] else { throw Failure("the two \(item.path) routes answered differently") }
    }

    /// Loads each case's two routes in turn, `rounds` times, and records the best of each side.
    @MainActor static func measure(framework: String, port: Int, wrk: String, quick: Bool) async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("httpser-servers-\(getpid())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let script = folder.appendingPathComponent("post.lua")
        try Data("""
            local file = assert(io.open(os.getenv("HTTPSER_BODY"), "rb"))
            wrk.method = "POST"
            wrk.body = file:read("*a")
            file:close()
            wrk.headers["Content-Type"] = os.getenv("HTTPSER_CONTENT_TYPE")
            """.utf8).write(to: script)
        let rounds = quick ? 1 : 3, seconds = quick ? 1 : 3, connections = 8
        for item in try cases(quick: quick) {
            try await checkRoutes(port: port, item)
            let body = folder.appendingPathComponent("\(item.name).body")
            try item.body.write(to: body)
            var best: [String: Load] = [:]
            for _ in 0..<rounds {
                for side in ["default", "ours"] {
                    let url = "http://127.0.0.1:\(port)/\(side)/\(item.path)"
                    let run = try load(wrk: wrk, url: url, body: body, contentType: item.contentType, seconds: seconds,
                                       connections: connections, script: script)
                    let previous = best[side] ?? Load(requestsPerSecond: 0, p50: .infinity, p99: .infinity)
                    best[side] = Load(requestsPerSecond: max(previous.requestsPerSecond, run.requestsPerSecond),
                                      p50: min(previous.p50, run.p50), p99: min(previous.p99, run.p99))
                }
            }
            guard let ours = best["ours"], let peer = best["default"] else { continue }
            print("  \(framework) \(item.name): default \(format(peer.requestsPerSecond, 0)) req/s (p50 \(format(peer.p50, 2)) ms, p99 \(format(peer.p99, 2)) ms), "
                  + "ours \(format(ours.requestsPerSecond, 0)) req/s (p50 \(format(ours.p50, 2)) ms, p99 \(format(ours.p99, 2)) ms)")
            guard !quick else { continue }
            recordRatio("\(framework)-\(item.name)-requests-vs-default", ours.requestsPerSecond / peer.requestsPerSecond, target: item.target)
            recordRatio("\(framework)-\(item.name)-p99-vs-default", peer.p99 / ours.p99, target: item.target)
            if item.name == "json-1mb" {
                // Beside the ratio line, not in it: with 8 requests in flight on two cores shared
                // with wrk, a request's tail is mostly waiting its turn; with 2 it is mostly its own work.
                let few = try ["default", "ours"].map { side in
                    try load(wrk: wrk, url: "http://127.0.0.1:\(port)/\(side)/\(item.path)", body: body, contentType: item.contentType,
                             seconds: seconds, connections: 2, script: script)
                }
                print("    at 2 connections: default p99 \(format(few[0].p99, 2)) ms, ours \(format(few[1].p99, 2)) ms (\(format(few[0].p99 / few[1].p99, 2))x)")
            }
        }
        try await ServerSpillBenchmarks.measure(framework: framework, port: port, wrk: wrk, folder: folder, script: script, quick: quick)
    }

    /// Serves one framework's §5 app for `seconds`, printing its port and then where each case's
    /// body was written (for `wrk -s`); false if it did not run.
    static func serveAlone(framework: String, seconds: Int) async -> Bool {
        let serve: @Sendable (Int) async throws -> Void = { port in
            var lines = "port \(port)\n"
            let folder = FileManager.default.temporaryDirectory.appendingPathComponent("httpser-serve")
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            for item in try cases(quick: false) {
                let file = folder.appendingPathComponent("\(item.name).body")
                try item.body.write(to: file)
                lines += "\(item.name) /ours/\(item.path) /default/\(item.path) \(item.contentType) \(file.path)\n"
            }
            FileHandle.standardOutput.write(Data(lines.utf8))
            try await Task.sleep(for: .seconds(seconds))
        }
        do {
            switch framework {
            case "hummingbird": try await HummingbirdServerApp.serving(events: events(count: 1_000), serve)
            case "vapor": try await VaporServerApp.serving(events: events(count: 1_000), serve)
            default: return false
            }
            return true
        } catch {
            print("serving failed: \(error)")
            return false
        }
    }

    /// Everything measured against one running app: loads, events, and in the quick run the uploads.
    @MainActor static func measureAll(framework: String, port: Int, wrk: String, expectedEvents: Int, quick: Bool) async throws {
        try await measure(framework: framework, port: port, wrk: wrk, quick: quick)
        try await measureEvents(framework: framework, port: port, expected: expectedEvents, quick: quick)
        if quick { try await ServerUploadBenchmarks.checkRoutes(framework: framework, port: port) }
    }

    @MainActor static func run(quick: Bool) async {
        print("\n§5 servers: the framework's own coders against this package's, loaded by wrk (8 connections, 127.0.0.1)")
        guard let wrk = wrk() else {
            print("  wrk not found: install Debian's package (apt-get install wrk); this section was skipped")
            if !quick { check(false, "wrk is missing, so the server figures were not measured") }
            return
        }
        let events = events(count: quick ? 2_000 : 100_000)
        do {
            try await HummingbirdServerApp.serving(events: events) { port in
                try await measureAll(framework: "hummingbird", port: port, wrk: wrk, expectedEvents: events.count, quick: quick)
            }
            try await VaporServerApp.serving(events: events) { port in
                try await measureAll(framework: "vapor", port: port, wrk: wrk, expectedEvents: events.count, quick: quick)
            }
            if !quick {
                for framework in ServerUploadBenchmarks.frameworks { ServerUploadBenchmarks.measure(framework: framework) }
            }
        } catch {
            check(false, "server benchmark failed: \(error)")
        }
    }
}
