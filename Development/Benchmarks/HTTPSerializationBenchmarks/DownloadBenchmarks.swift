import AsyncHTTPClient
import EchoServer
import Foundation
#if canImport(Glibc)
import Glibc
#endif
import HTTPSerialization
import HTTPSerializationAsyncHTTPClient

/// A large body saved to a file through the async-http-client bridge's `download`, against
/// async-http-client's own `FileDownloadDelegate` and the physical limit: a `read(2)`/`write(2)`
/// loop from the socket into the file.
enum DownloadBenchmarks {
    /// A loopback server that answers each request with `length` bytes, the same 1 MiB block
    /// over and over, as fast as the socket takes them, then closes.
    final class SourceServer: Sendable {
        let port: Int
        let length: Int
        private let listener: Int32

        init(length: Int) throws {
            let socket = try LoopbackListener()
            listener = socket.descriptor
            port = socket.port
            self.length = length
            Thread.detachNewThread { [self] in acceptLoop() }
        }

        /// The byte at `offset` of every body.
        static func byte(at offset: Int) -> UInt8 { UInt8(truncatingIfNeeded: (offset & 0xFFFFF) &* 31 &+ 7) }

        private func acceptLoop() {
            while true {
                let connection = accept(listener, nil, nil)
                if connection < 0 { return }
                var window: Int32 = 8 << 20
                setsockopt(connection, SOL_SOCKET, SO_SNDBUF, &window, socklen_t(MemoryLayout<Int32>.size))
                let length = length
                Thread.detachNewThread { Self.serve(connection, length: length) }
            }
        }

        private static func serve(_ connection: Int32, length: Int) {
            defer { close(connection) }
            // The request head: read until its blank line.
            var head: [UInt8] = []
            var scratch = [UInt8](repeating: 0, count: 4096)
            while head.firstRange(of: [13, 10, 13, 10]) == nil {
                let count = read(connection, &scratch, scratch.count)
                if count <= 0 || head.count > 64 << 10 { return }
                head.append(contentsOf: scratch[..<count])
            }
            let answer = Array("HTTP/1.1 200 OK\r\nContent-Type: application/octet-stream\r\nContent-Length: \(length)\r\nConnection: close\r\n\r\n".utf8)
            let block = (0..<(1 << 20)).map(byte(at:))
            guard answer.withUnsafeBytes({ writeAll(connection, $0) }) else { return }
            var sent = 0
            while sent < length {
                let count = min(block.count, length - sent)
                guard block.withUnsafeBytes({ writeAll(connection, UnsafeRawBufferPointer(rebasing: $0[..<count])) }) else { return }
                sent += count
            }
        }

        private static func writeAll(_ connection: Int32, _ buffer: UnsafeRawBufferPointer) -> Bool {
            var offset = 0
            while offset < buffer.count {
                let written = write(connection, buffer.baseAddress! + offset, buffer.count - offset)
                if written <= 0 { return false }
                offset += written
            }
            return true
        }
    }

    /// The physical limit: the request, then the body copied from the socket into the file by
    /// 1 MiB `read(2)`/`write(2)` calls; the bytes in the file.
    static func rawDownload(port: Int, to file: URL) -> Int {
        guard let connection = UploadBenchmarks.connectLoopback(port: port) else { return -1 }
        defer { close(connection) }
        let request = Array("GET /big HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\n\r\n".utf8)
        _ = request.withUnsafeBytes { write(connection, $0.baseAddress, $0.count) }
        let output = open(file.path, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        defer { close(output) }
        let size = 1 << 20
        let buffer = UnsafeMutableRawPointer.allocate(byteCount: size, alignment: 16)
        defer { buffer.deallocate() }
        var inHead = true
        var head: [UInt8] = []
        var written = 0
        while true {
            let count = read(connection, buffer, size)
            if count <= 0 { break }
            var start = 0
            if inHead {
                head.append(contentsOf: UnsafeRawBufferPointer(start: buffer, count: count))
                guard let end = head.firstRange(of: [13, 10, 13, 10]) else { continue }
                inHead = false
                start = count - (head.count - end.upperBound)
            }
            if count > start {
                guard write(output, buffer + start, count - start) == count - start else { return -1 }
                written += count - start
            }
        }
        return written
    }

    /// Ours: `HTTPClient.download`, the bytes in the file (-1 on failure).
    static func bridgeDownload(port: Int, to file: URL, client: HTTPClient) -> Int {
        StreamingBenchmarks.blocking {
            let request = SerializedRequest(request: HTTPRequest(method: .get, scheme: "http", authority: "127.0.0.1:\(port)", path: "/big"))
            do {
                return Int(try await client.download(request, to: FileDownload(to: file), timeout: .seconds(600)).length)
            } catch {
                print("  download failed: \(error)")
                return -1
            }
        }
    }

    /// The peer: async-http-client's `FileDownloadDelegate`, the bytes it reports.
    static func delegateDownload(port: Int, to file: URL, client: HTTPClient) -> Int {
        do {
            let delegate = try FileDownloadDelegate(path: file.path)
            let request = try HTTPClient.Request(url: "http://127.0.0.1:\(port)/big")
            let progress = try client.execute(request: request, delegate: delegate).futureResult.wait()
            return progress.receivedBytes
        } catch {
            print("  FileDownloadDelegate failed: \(error)")
            return -1
        }
    }

    /// Whether `file` holds `length` bytes of the server's body (checked at a spread of offsets).
    static func holdsBody(_ file: URL, length: Int) -> Bool {
        guard let handle = try? FileHandle(forReadingFrom: file) else { return false }
        defer { try? handle.close() }
        guard (try? handle.seekToEnd()) == UInt64(length) else { return false }
        for offset in stride(from: 0, to: length, by: max(1, length / 61)) {
            try? handle.seek(toOffset: UInt64(offset))
            guard let byte = try? handle.read(upToCount: 1)?.first, byte == SourceServer.byte(at: offset) else { return false }
        }
        return true
    }

    @MainActor
    static func run(quick: Bool, runs: Int) throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("httpser-download-\(getpid())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let bytes = quick ? 8 << 20 : 512 << 20
        let server = try SourceServer(length: bytes)
        let client = HTTPClient(eventLoopGroupProvider: .singleton)
        defer { try? client.syncShutdown() }
        let files = ["raw", "ours", "peer"].map { folder.appendingPathComponent("\($0).bin") }
        var counts = [0, 0, 0]
        let times = fastest(runs: runs, [
            { counts[0] = rawDownload(port: server.port, to: files[0]) },
            { counts[1] = bridgeDownload(port: server.port, to: files[1], client: client) },
            { counts[2] = delegateDownload(port: server.port, to: files[2], client: client) },
        ])
        check(counts == [bytes, bytes, bytes], "a download came short: \(counts) of \(bytes)")
        check(files.allSatisfy { holdsBody($0, length: bytes) }, "a downloaded file does not hold the body")
        let megabytes = Double(bytes) / 1e6
        let ratio = times[2] / times[1]
        print("")
        print("download, \(bytes >> 20) MiB over loopback into a file")
        print("  read/write loop, 1 MiB             \(format(megabytes / times[0])) MB/s, \(format(times[0], 2)) s")
        print("  FileDownloadDelegate (async-http-client) \(format(megabytes / times[2])) MB/s, \(format(times[2], 2)) s")
        print("  HTTPClient.download (bridge)       \(format(megabytes / times[1])) MB/s, \(format(times[1], 2)) s")
        print("  ratio                      \(format(ratio, 2))x FileDownloadDelegate, \(format(times[0] / times[1], 2))x the copy loop   (target >= 0.9x FileDownloadDelegate)")
        if !quick {
            recordRatio("download-vs-file-download-delegate", ratio, target: 0.9)
            // Streaming to the file means memory does not follow the 512 MiB: a fresh process.
            if let growth = PeakRSS.growth("download-bridge", baseline: "download-baseline", argument: String(bytes)) {
                print("  peak RSS growth, fresh process  \(format(growth)) MiB   (bound 64 MiB)")
                check(growth < 64, "the bridge's download grew memory by \(format(growth)) MiB")
            } else {
                print("  peak RSS growth            not measurable here")
            }
        }
    }

    /// The child of the memory check: one download of `bytes` (or only the setup, for the baseline).
    static func runChild(_ name: String, bytes: Int) -> Bool {
        guard let server = try? SourceServer(length: bytes) else { return false }
        let client = HTTPClient(eventLoopGroupProvider: .singleton)
        defer { try? client.syncShutdown() }
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("httpser-download-rss-\(getpid()).bin")
        defer { try? FileManager.default.removeItem(at: file) }
        return name == "download-baseline" || bridgeDownload(port: server.port, to: file, client: client) == bytes
    }
}
