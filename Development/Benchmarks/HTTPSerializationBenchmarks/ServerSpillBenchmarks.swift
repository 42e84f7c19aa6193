import AsyncHTTPClient
import Foundation
import HTTPSerialization
import NIOCore

/// §5, issue 61: small JSON requests while uploads spill to disk. `wrk` loads `/ours/records`
/// with a 1 KB document, once with the server otherwise idle and once while 50 uploads on slow
/// links stream into `/ours/upload`, each file spilled to a temporary file. It prints the
/// loaded p99 over the idle one; the ratio line is the idle over the loaded (higher is better,
/// aim 0.5: within 2x). The spill's file calls run off the cooperative pool, so a write that
/// waits for the disk holds up its own upload and not the JSON requests; where the page cache
/// takes every write at once (this machine), the line is the same with the calls inline.
enum ServerSpillBenchmarks {
    static let uploads = 50
    /// Each upload's file, sent 64 KiB at a time with a pause before each block: about
    /// 1.3 MB/s a client, 64 MB/s for the 50, past the spill threshold after a second.
    static let fileBytes = 24 << 20
    static let pause: UInt64 = 50_000_000

    /// Idle and loaded p99 of `/ours/records` on the app at `port`, in milliseconds.
    @MainActor static func measure(framework: String, port: Int, wrk: String, folder: URL, script: URL, quick: Bool) async throws {
        let item = try ServerBenchmarks.cases(quick: true)[0]
        let body = folder.appendingPathComponent("spill-\(item.name).body")
        try item.body.write(to: body)
        let seconds = quick ? 1 : 3, connections = 4
        let url = "http://127.0.0.1:\(port)/ours/\(item.path)"
        let idle = try ServerBenchmarks.load(wrk: wrk, url: url, body: body, contentType: item.contentType, seconds: seconds,
                                             connections: connections, script: script)
        // One client for the uploads, with a connection each (the shared one keeps 8 a host).
        let client = HTTPClient(eventLoopGroupProvider: .singleton, configuration: .init(
            connectionPool: .init(idleTimeout: .seconds(60), concurrentHTTP1ConnectionsPerHostSoftLimit: uploads)))
        let count = quick ? 8 : uploads, bytes = quick ? 4 << 20 : fileBytes
        let loaded: ServerBenchmarks.Load
        do {
            loaded = try await withThrowingTaskGroup(of: Int.self) { group in
                for _ in 0..<count {
                    group.addTask {
                        try await ServerUploadBenchmarks.upload(port: port, route: "ours", fileBytes: bytes, pause: pause, client: client)
                    }
                }
                // The first second fills the 1 MiB in memory; then every upload is on disk.
                try await Task.sleep(nanoseconds: 1_500_000_000)
                let run = try ServerBenchmarks.load(wrk: wrk, url: url, body: body, contentType: item.contentType, seconds: seconds,
                                                    connections: connections, script: script)
                for try await read in group where read != bytes {
                    throw ServerBenchmarks.Failure("an upload read \(read) bytes, not \(bytes)")
                }
                return run
            }
        } catch {
            try? await client.shutdown()
            throw error
        }
        try await client.shutdown()
        print("  \(framework) \(item.name) at \(connections) connections: p99 \(format(idle.p99, 2)) ms idle, "
              + "\(format(loaded.p99, 2)) ms while \(count) uploads spill to disk (\(format(loaded.p99 / idle.p99, 2))x)")
        if !quick { recordRatio("\(framework)-json-p99-idle-vs-spilling-uploads", idle.p99 / loaded.p99, target: 0.5) }
    }
}
