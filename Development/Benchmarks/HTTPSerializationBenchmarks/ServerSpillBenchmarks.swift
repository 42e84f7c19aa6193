import Foundation
import HTTPSerialization
import NIOCore
import SeededGenerators

/// §5, issue 61: small JSON requests while uploads spill to disk. `wrk` loads `/ours/records`
/// with a 1 KB document, once with the server otherwise idle and once while 50 uploads on slow
/// links stream into `/ours/upload`, each file spilled to a temporary file. The uploads come
/// from 50 `curl` processes limited to a phone's uplink, so that, as in production, no client
/// shares the server's cooperative pool. It prints the loaded p99 over the idle one; the ratio
/// line is the idle over the loaded (higher is better, aim 0.5: within 2x). The spill's file
/// calls run off the cooperative pool, so a write that waits for the disk holds up its own
/// upload and not the JSON requests; where the page cache takes every write at once (this
/// machine), the line is about the same with the calls inline.
enum ServerSpillBenchmarks {
    static let uploads = 50
    /// Each upload's file, sent at `rate` bytes a second: about a phone's uplink, 32 MB/s for
    /// the 50, each past the spill threshold after two seconds.
    static let fileBytes = 16 << 20
    static let rate = "640k"

    /// The `curl` on PATH, if any.
    static func curl() -> String? {
        for folder in (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin").split(separator: ":") {
            let path = "\(folder)/curl"
            if FileManager.default.isExecutableFile(atPath: path) { return path }
        }
        return nil
    }

    /// Idle and loaded p99 of `/ours/records` on the app at `port`, in milliseconds.
    @MainActor static func measure(framework: String, port: Int, wrk: String, folder: URL, script: URL, quick: Bool) async throws {
        guard let curl = curl() else {
            print("  curl not found: the spilling-uploads line was skipped")
            if !quick { check(false, "curl is missing, so the spilling-uploads line was not measured") }
            return
        }
        let item = try ServerBenchmarks.cases(quick: true)[0]
        let body = folder.appendingPathComponent("spill-\(item.name).body")
        try item.body.write(to: body)
        let count = quick ? 8 : uploads, bytes = quick ? 4 << 20 : fileBytes
        let file = folder.appendingPathComponent("spill-upload.bin")
        var generator = SplitMix64(seed: 61)
        try Data((0..<bytes / 8).flatMap { _ in withUnsafeBytes(of: generator.next()) { Array($0) } }).write(to: file)
        let seconds = quick ? 1 : 3, connections = 4
        let url = "http://127.0.0.1:\(port)/ours/\(item.path)"
        let idle = try ServerBenchmarks.load(wrk: wrk, url: url, body: body, contentType: item.contentType, seconds: seconds,
                                             connections: connections, script: script)
        let clients = try (0..<count).map { _ in
            let process = Process()
            process.executableURL = URL(fileURLWithPath: curl)
            process.arguments = ["-s", "-S", "--limit-rate", rate, "-F", "title=big upload", "-F", "file=@\(file.path);type=application/octet-stream",
                                 "http://127.0.0.1:\(port)/ours/upload"]
            let output = Pipe()
            process.standardOutput = output
            try process.run()
            return (process, output)
        }
        // The first two seconds fill the 1 MiB in memory; then every upload is on disk.
        try await Task.sleep(nanoseconds: quick ? 1_000_000_000 : 2_500_000_000)
        let loaded = try ServerBenchmarks.load(wrk: wrk, url: url, body: body, contentType: item.contentType, seconds: seconds,
                                               connections: connections, script: script)
        for (process, output) in clients {
            let answer = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            process.waitUntilExit()
            guard process.terminationStatus == 0, answer == String(bytes) else {
                throw ServerBenchmarks.Failure("an upload through curl answered \(answer.prefix(200)) (exit \(process.terminationStatus))")
            }
        }
        print("  \(framework) \(item.name) at \(connections) connections: p99 \(format(idle.p99, 2)) ms idle, "
              + "\(format(loaded.p99, 2)) ms while \(count) uploads spill to disk (\(format(loaded.p99 / idle.p99, 2))x)")
        if !quick { recordRatio("\(framework)-json-p99-idle-vs-spilling-uploads", idle.p99 / loaded.p99, target: 0.5) }
    }
}
