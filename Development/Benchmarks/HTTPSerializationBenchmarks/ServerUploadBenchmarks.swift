import AsyncHTTPClient
import Foundation
import HTTPSerialization
import NIOCore
import SeededGenerators

/// §5's upload: a multipart form with one large file posted to each framework's upload routes,
/// `/drain/upload` (the body read and dropped: the baseline), `/default/upload` (the
/// framework's documented path: the body collected, then multipart-kit) and `/ours/upload`
/// (read as it streams in, the file spilled). Peak RSS is measured in a fresh child process
/// per route, the baseline's subtracted.
enum ServerUploadBenchmarks {
    static let boundary = "httpser-upload-39-c3a1f0"
    static let frameworks = ["hummingbird", "vapor"]

    /// The upload's fields: a title and one file, as each side decodes them.
    struct Upload: Decodable {
        var title: String
        var file: MultipartFile
    }

    /// The limits an app taking uploads this large sets; the parser's defaults stop at 1 GiB.
    static var decoder: MultipartFormDecoder {
        var limits = MultipartParsingLimits()
        limits.maximumFileBytes = 4 << 30
        limits.maximumBodyBytes = 4 << 30
        return MultipartFormDecoder(limits: limits)
    }

    /// The body's parts around the file's bytes.
    static let head = ByteBuffer(string: "--\(boundary)\r\nContent-Disposition: form-data; name=\"title\"\r\n\r\nbig upload\r\n"
        + "--\(boundary)\r\nContent-Disposition: form-data; name=\"file\"; filename=\"big.bin\"\r\n"
        + "Content-Type: application/octet-stream\r\n\r\n")
    static let tail = ByteBuffer(string: "\r\n--\(boundary)--\r\n")

    /// A multipart body whose file is `fileBytes` seeded bytes, made 64 KiB at a time as it is
    /// sent: the client holds no more than a block.
    struct Body: AsyncSequence, Sendable {
        let fileBytes: Int

        struct AsyncIterator: AsyncIteratorProtocol {
            let block: ByteBuffer
            var left: Int
            var stage = 0

            mutating func next() async -> ByteBuffer? {
                switch stage {
                case 0:
                    stage = 1
                    return ServerUploadBenchmarks.head
                case 1 where left > 0:
                    let count = Swift.min(left, block.readableBytes)
                    left -= count
                    return block.getSlice(at: block.readerIndex, length: count)
                case 1:
                    stage = 2
                    return ServerUploadBenchmarks.tail
                default:
                    return nil
                }
            }
        }

        func makeAsyncIterator() -> AsyncIterator {
            var generator = SplitMix64(seed: 0x39_0b)
            var block = ByteBuffer()
            for _ in 0..<(64 << 10) / 8 { block.writeInteger(generator.next()) }
            return AsyncIterator(block: block, left: fileBytes)
        }

        var length: Int { ServerUploadBenchmarks.head.readableBytes + fileBytes + ServerUploadBenchmarks.tail.readableBytes }
    }

    /// Posts an upload of `fileBytes` to `route` and returns the route's answer: the byte count it
    /// read (the whole body for `drain`, the file for the others).
    static func upload(port: Int, route: String, fileBytes: Int) async throws -> Int {
        let body = Body(fileBytes: fileBytes)
        var request = HTTPClientRequest(url: "http://127.0.0.1:\(port)/\(route)/upload")
        request.method = .POST
        request.headers.add(name: "Content-Type", value: "multipart/form-data; boundary=\(boundary)")
        request.body = .stream(body, length: .known(Int64(body.length)))
        let response = try await HTTPClient.shared.execute(request, timeout: .seconds(900))
        let answer = String(buffer: try await response.body.collect(upTo: 1 << 20))
        guard response.status == .ok, let count = Int(answer) else {
            throw ServerBenchmarks.Failure("\(route)/upload answered \(response.status): \(answer.prefix(200))")
        }
        let expected = route == "drain" ? body.length : fileBytes
        guard count == expected else { throw ServerBenchmarks.Failure("\(route)/upload read \(count) bytes, not \(expected)") }
        return count
    }

    /// Runs in a child process (`--peak-rss server-upload "FRAMEWORK ROUTE BYTES"`): serves the
    /// framework's app and uploads once to `ROUTE`; false when the upload failed.
    static func runChild(_ argument: String) -> Bool {
        let fields = argument.split(separator: " ").map(String.init)
        guard fields.count == 3, let bytes = Int(fields[2]) else { return false }
        let framework = fields[0], route = fields[1]
        return StreamingBenchmarks.blocking {
            do {
                let send: @Sendable (Int) async throws -> Int = { port in try await upload(port: port, route: route, fileBytes: bytes) }
                if framework == "hummingbird" {
                    _ = try await HummingbirdServerApp.serving(events: [], send)
                } else {
                    _ = try await VaporServerApp.serving(events: [], send)
                }
                return true
            } catch {
                print("upload failed: \(error)")
                return false
            }
        }
    }

    /// Posts a 16 MiB upload to each of the framework's upload routes, for the quick run.
    @MainActor static func checkRoutes(framework: String, port: Int) async throws {
        for route in ["drain", "default", "ours"] { _ = try await upload(port: port, route: route, fileBytes: 16 << 20) }
        print("  \(framework) uploads of 16 MiB read whole on every route (peak RSS at 1 GiB in the full run)")
    }

    /// Each route's peak RSS with a 1 GiB file, in fresh processes.
    @MainActor static func measure(framework: String) {
        let fileBytes = 1 << 30
        func peak(_ route: String) -> Double? { PeakRSS.measure("server-upload", argument: "\(framework) \(route) \(fileBytes)") }
        guard let base = peak("drain") else {
            check(false, "the \(framework) upload baseline could not be measured")
            return
        }
        let ours = peak("ours").map { $0 - base }, peer = peak("default").map { $0 - base }
        print("  \(framework) 1 GiB multipart upload, peak RSS growth over a route that drops the body, fresh process: "
              + "default (collected, multipart-kit) \(peer.map { format($0) } ?? "failed") MiB, ours (streamed, spilled) "
              + "\(ours.map { format($0) } ?? "failed") MiB   (bound 64 MiB)")
        guard let ours else {
            check(false, "the \(framework) upload through the package failed")
            return
        }
        check(ours <= 64, "a 1 GiB upload into \(framework) through the package grew peak RSS by \(format(ours)) MiB")
    }
}
