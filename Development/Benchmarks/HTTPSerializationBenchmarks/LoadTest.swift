import AsyncHTTPClient
import Checksums
import EchoServer
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import HTTPSerialization
import HTTPSerializationAsyncHTTPClient
import SeededGenerators

/// `httpser-bench --load [FORMS]`: uploads FORMS (default 200) multipart forms of seeded
/// random sizes concurrently through async-http-client to the echo server; every body must
/// arrive byte-exact (SHA-256 and part list) and the process's peak memory stay under a bound.
enum LoadTest {
    /// Streaming means memory does not follow the total uploaded (hundreds of MiB); it does
    /// follow the server's buffering of bodies in flight (32 connections × up to 3 MiB).
    static let peakMemoryBoundMiB = 256.0

    static func run(forms count: Int) async -> Bool {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("httpser-load-\(getpid())")
        defer { try? FileManager.default.removeItem(at: folder) }
        do {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            var random = SplitMix64(seed: 5)
            // Sixteen files of seeded sizes from empty to 1 MiB, shared by the forms.
            var files: [URL] = []
            for index in 0..<16 {
                let size = index == 0 ? 0 : Int(random.below(1 << 20))
                let url = folder.appendingPathComponent("f\(index).bin")
                var bytes = [UInt8](repeating: 0, count: size)
                for position in stride(from: 0, to: size, by: 8) {
                    let value = random.next()
                    for offset in 0..<min(8, size - position) { bytes[position + offset] = UInt8(truncatingIfNeeded: value >> (8 * offset)) }
                }
                try Data(bytes).write(to: url)
                files.append(url)
            }
            var forms: [MultipartFormData] = []
            for index in 0..<count {
                var form = try MultipartFormData(boundary: "load-\(index)")
                try form.appendPart(formData: Data("form \(index)".utf8), name: "index")
                for _ in 0..<(1 + random.below(3)) {
                    try form.appendPart(fileURL: files[Int(random.below(UInt64(files.count)))], name: "file")
                }
                forms.append(form)
            }
            let total = forms.reduce(UInt64(0)) { $0 + $1.contentLength }
            let server = try await EchoServer.start(configuration: .init(maximumBodySize: 64 << 20, reportBodyLimit: 0))
            // All 200 requests are in flight at once: the pool gets 32 connections, and a
            // request may wait for one as long as the whole run takes.
            var configuration = HTTPClient.Configuration()
            configuration.connectionPool = .init(idleTimeout: .seconds(60), concurrentHTTP1ConnectionsPerHostSoftLimit: 32)
            configuration.timeout = .init(connect: .seconds(300), read: .seconds(300))
            let client = HTTPClient(eventLoopGroupProvider: .singleton, configuration: configuration)
            let started = Date()
            let failures = await withTaskGroup(of: String?.self) { group in
                for (index, form) in forms.enumerated() {
                    group.addTask {
                        do {
                            let request = try HTTPRequestSerializer(headers: HTTPHeaderFields())
                                .request(method: "POST", urlString: server.baseURL.absoluteString + "/load/\(index)", multipartForm: form)
                            var hasher = SHA256()
                            for try await chunk in form.chunks() { chunk.withUnsafeBytes { hasher.update($0) } }
                            let expected = hasher.hexDigest()
                            let report = try await client.execute(SerializedRequest(request), serializer: DecodableResponseSerializer(EchoReport.self),
                                                                  timeout: .seconds(300)).output
                            guard report.bodySHA256 == expected, report.bodySize == Int(form.contentLength),
                                  report.parts?.count == form.partCount, report.framing == "content-length" else {
                                return "form \(index): \(report.bodySize) bytes, SHA-256 \(report.bodySHA256.prefix(12)), expected \(expected.prefix(12))"
                            }
                            return nil
                        } catch {
                            return "form \(index): \(error)"
                        }
                    }
                }
                var failures: [String] = []
                for await failure in group { if let failure { failures.append(failure) } }
                return failures
            }
            let seconds = Date().timeIntervalSince(started)
            try await client.shutdown()
            try await server.stop()
            let peak = processStatusMiB("VmHWM") ?? .nan
            print("load: \(count) forms, \(total) bytes in \(format(seconds)) s (\(format(Double(total) / seconds / 1e6)) MB/s), "
                  + "\(count - failures.count) byte-exact, \(failures.count) failed; peak RSS \(format(peak)) MiB (bound \(format(peakMemoryBoundMiB)) MiB)")
            failures.prefix(10).forEach { print("load: \($0)") }
            return failures.isEmpty && peak <= peakMemoryBoundMiB
        } catch {
            print("load: failed to set up: \(error)")
            return false
        }
    }
}
