import AsyncHTTPClient
import EchoServer
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
#if canImport(Glibc)
import Glibc
#endif
import HTTPSerialization
import HTTPSerializationAsyncHTTPClient

/// A multipart upload from a file through the async-http-client bridge, against the physical
/// limit: `sendfile(2)` of the same encoded body into the same loopback sink, which reads
/// every byte of both.
enum UploadBenchmarks {
    /// A loopback HTTP/1.1 server that reads each request's head and `Content-Length` bytes of
    /// body, discards them, and answers `200` with an empty body.
    /// Each connection is served by its own thread, which owns its descriptor and buffer.
    final class DiscardSink: Sendable {
        let port: Int
        private let listener: Int32

        init() throws {
            let socket = try LoopbackListener()
            listener = socket.descriptor
            port = socket.port
            Thread.detachNewThread { [self] in acceptLoop() }
        }

        private func acceptLoop() {
            while true {
                let connection = accept(listener, nil, nil)
                if connection < 0 { return }
                // A large receive window, so the sink is as far from being the bottleneck as it can be.
                var window: Int32 = 8 << 20
                setsockopt(connection, SOL_SOCKET, SO_RCVBUF, &window, socklen_t(MemoryLayout<Int32>.size))
                Thread.detachNewThread { Self.serve(connection) }
            }
        }

        private static func serve(_ connection: Int32) {
            defer { close(connection) }
            let size = 4 << 20
            let buffer = UnsafeMutableRawPointer.allocate(byteCount: size, alignment: 16)
            defer { buffer.deallocate() }
            var head: [UInt8] = []
            var remaining = 0
            // The head, and whatever part of the body came with it.
            while true {
                let count = read(connection, buffer, size)
                if count <= 0 { return }
                head.append(contentsOf: UnsafeRawBufferPointer(start: buffer, count: count))
                if let end = headEnd(head) {
                    let text = String(decoding: head[..<end], as: UTF8.self).lowercased()
                    let length = text.split(separator: "\r\n").first { $0.hasPrefix("content-length:") }
                        .flatMap { Int($0.dropFirst("content-length:".count).trimmingCharacters(in: .whitespaces)) } ?? 0
                    remaining = length - (head.count - end - 4)
                    break
                }
            }
            while remaining > 0 {
                let count = read(connection, buffer, min(size, remaining))
                if count <= 0 { return }
                remaining -= count
            }
            let response = Array("HTTP/1.1 200 OK\r\nContent-Length: 0\r\nConnection: close\r\n\r\n".utf8)
            _ = response.withUnsafeBytes { write(connection, $0.baseAddress, $0.count) }
        }

        private static func headEnd(_ bytes: [UInt8]) -> Int? {
            guard bytes.count >= 4 else { return nil }
            for index in 0...(bytes.count - 4)
            where bytes[index] == 13 && bytes[index + 1] == 10 && bytes[index + 2] == 13 && bytes[index + 3] == 10 {
                return index
            }
            return nil
        }
    }

    /// How the references move the encoded body from its file to the socket.
    enum RawCopy {
        /// `sendfile(2)`: the kernel copies.
        case sendfile
        /// A 1 MiB `read(2)`/`write(2)` loop through user space.
        case readWriteLoop
    }

    /// The physical limit: the request head, then the encoded body copied by `copy`, then the
    /// response read to its end.
    static func rawUpload(body file: URL, length: Int, port: Int, contentType: String, copy: RawCopy) -> Bool {
        guard let connection = connectLoopback(port: port) else { return false }
        defer { close(connection) }
        var window: Int32 = 8 << 20
        setsockopt(connection, SOL_SOCKET, SO_SNDBUF, &window, socklen_t(MemoryLayout<Int32>.size))
        let head = Array("POST /upload HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nContent-Type: \(contentType)\r\nContent-Length: \(length)\r\n\r\n".utf8)
        _ = head.withUnsafeBytes { write(connection, $0.baseAddress, $0.count) }
        let source = open(file.path, O_RDONLY)
        defer { close(source) }
        var sent = 0
        if copy == .readWriteLoop {
            let size = 1 << 20
            let buffer = UnsafeMutableRawPointer.allocate(byteCount: size, alignment: 16)
            defer { buffer.deallocate() }
            while sent < length {
                let count = read(source, buffer, min(size, length - sent))
                if count <= 0 { return false }
                var offset = 0
                while offset < count {
                    let written = write(connection, buffer + offset, count - offset)
                    if written <= 0 { return false }
                    offset += written
                }
                sent += count
            }
        } else {
            while sent < length {
                let count = sendfile(connection, source, nil, length - sent)
                if count <= 0 { return false }
                sent += count
            }
        }
        var reply = [UInt8](repeating: 0, count: 256)
        while read(connection, &reply, reply.count) > 0 {}
        return true
    }

    /// A TCP connection to `port` on 127.0.0.1, nil when none can be made; the caller closes it.
    static func connectLoopback(port: Int) -> Int32? {
        let connection = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard connection >= 0 else { return nil }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(connection, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard connected == 0 else {
            close(connection)
            return nil
        }
        return connection
    }

    /// Ours: the form streamed from its file by `HTTPClient.execute`, with its exact length.
    static func bridgeUpload(_ form: MultipartFormData, port: Int, client: HTTPClient) -> Bool {
        let done = DispatchSemaphore(value: 0)
        let result = LockedFlag()
        Task.detached {
            do {
                let request = try HTTPRequestSerializer().httpRequest(
                    method: "POST", urlString: "http://127.0.0.1:\(port)/upload", multipartForm: form)
                let response = try await client.execute(request, serializer: HTTPResponseSerializer(), timeout: .seconds(600))
                result.set(response.response.status.code == 200)
            } catch {
                print("  upload failed: \(error)")
            }
            done.signal()
        }
        done.wait()
        return result.get()
    }

    /// A one-file form of `bytes` seeded bytes, and its encoded body written to a second file.
    static func inputs(in folder: URL, bytes: Int) throws -> (form: MultipartFormData, body: URL) {
        let file = folder.appendingPathComponent("upload.bin")
        try MultipartBenchmarks.writeBinaryFile(to: file, values: bytes / 8)
        var form = try MultipartFormData(boundary: MultipartBenchmarks.boundary)
        try form.appendPart(fileURL: file, name: "file", fileName: "upload.bin", mimeType: "application/octet-stream")
        let body = folder.appendingPathComponent("upload.body")
        MultipartBenchmarks.blockingWrite(form, to: body)
        return (form, body)
    }

    @MainActor
    static func run(quick: Bool, runs: Int) throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("httpser-upload-\(getpid())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let bytes = quick ? 8 << 20 : 1 << 30
        let (form, body) = try inputs(in: folder, bytes: bytes)
        let sink = try DiscardSink()
        let client = HTTPClient(eventLoopGroupProvider: .singleton)
        defer { try? client.syncShutdown() }
        var ok = true
        let times = fastest(runs: runs, [
            { ok = rawUpload(body: body, length: Int(form.contentLength), port: sink.port, contentType: form.contentType, copy: .sendfile) && ok },
            { ok = bridgeUpload(form, port: sink.port, client: client) && ok },
            { ok = rawUpload(body: body, length: Int(form.contentLength), port: sink.port, contentType: form.contentType,
                             copy: .readWriteLoop) && ok },
        ])
        check(ok, "an upload to the discard sink failed")
        let megabytes = Double(form.contentLength) / 1e6
        let ratio = times[0] / times[1]
        print("")
        print("upload, a \(bytes >> 20) MiB file as multipart over loopback, every byte read by the sink")
        print("  sendfile of the encoded body \(format(megabytes / times[0])) MB/s, \(format(times[0], 2)) s")
        print("  read/write loop, 1 MiB       \(format(megabytes / times[2])) MB/s, \(format(times[2], 2)) s")
        print("  HTTPClient.execute (bridge)  \(format(megabytes / times[1])) MB/s, \(format(times[1], 2)) s")
        print("  ratio                      \(format(ratio, 2))x sendfile, \(format(times[2] / times[1], 2))x the copy loop   (target >= 0.8x sendfile)")
        if !quick {
            recordRatio("upload-vs-sendfile", ratio, target: 0.8)
            // Streaming means memory does not follow the 1 GiB: measured in a fresh process.
            let source = folder.appendingPathComponent("upload.bin").path
            if let growth = PeakRSS.growth("upload-bridge", baseline: "upload-baseline", argument: source) {
                print("  peak RSS growth, fresh process  \(format(growth)) MiB   (bound 64 MiB)")
                check(growth < 64, "the bridge's upload grew memory by \(format(growth)) MiB")
            } else {
                print("  peak RSS growth            not measurable here")
            }
        }
    }
}

/// A Bool shared with a detached task.
final class LockedFlag: @unchecked Sendable {
    // @unchecked: every access goes through `lock`.
    private let lock = NSLock()
    private var value = false
    func set(_ newValue: Bool) { lock.lock(); value = newValue; lock.unlock() }
    func get() -> Bool { lock.lock(); defer { lock.unlock() }; return value }
}
