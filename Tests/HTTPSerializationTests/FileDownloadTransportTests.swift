import AsyncHTTPClient
import EchoServer
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import HTTPTypes
import Testing
import HTTPSerialization
import HTTPSerializationAsyncHTTPClient

/// Downloads to a file over a real connection, the same through URLSession and
/// async-http-client: whole, resumed, already whole, and refused when the server lies.
@Suite("File downloads over both transports")
struct FileDownloadTransportTests {
    enum Transport: String, CaseIterable, CustomTestStringConvertible {
        case urlSession, asyncHTTPClient
        var testDescription: String { rawValue }

        func download(
            _ request: SerializedRequest, to download: FileDownload, progress: (@Sendable (TransferProgress) -> Void)? = nil
        ) async throws -> DownloadedFile {
            switch self {
            case .urlSession:
                return try await URLSession(configuration: .ephemeral).download(for: request, to: download, progress: progress)
            case .asyncHTTPClient:
                let client = HTTPClient(eventLoopGroupProvider: .singleton)
                do {
                    let file = try await client.download(request, to: download, timeout: .seconds(30), progress: progress)
                    try await client.shutdown()
                    return file
                } catch {
                    try await client.shutdown()
                    throw error
                }
            }
        }
    }

    static func get(port: Int, _ target: String) -> SerializedRequest {
        SerializedRequest(request: HTTPRequest(method: .get, scheme: "http", authority: "127.0.0.1:\(port)", path: target))
    }

    static func seeded(_ range: Range<Int>) -> Data { Data(range.map(EchoRoutes.seededByte(at:))) }

    /// The furthest progress report, from any thread. `@unchecked Sendable` is sound: `value`
    /// is only touched under `lock`.
    final class Furthest: @unchecked Sendable {
        private let lock = NSLock()
        private var value = TransferProgress(completed: 0, total: nil)
        func report(_ progress: TransferProgress) { lock.withLock { if progress.completed >= value.completed { value = progress } } }
        var progress: TransferProgress { lock.withLock { value } }
    }

    @Test("a body is saved whole, a cut file resumes with Range, and a whole one is found whole", arguments: Transport.allCases)
    func wholeResumedAndComplete(transport: Transport) async throws {
        let server = try await EchoServer.start()
        defer { Task { try? await server.stop() } }
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let file = folder.url.appendingPathComponent("big.bin")
        let request = Self.get(port: server.port, "/bytes/3000000")
        let furthest = Furthest()

        let first = try await transport.download(request, to: FileDownload(to: file), progress: furthest.report)
        #expect(try Data(contentsOf: file) == Self.seeded(0..<3_000_000))
        #expect(first.length == 3_000_000 && first.resumedFrom == nil && first.response.status.code == 200)
        #expect(furthest.progress == TransferProgress(completed: 3_000_000, total: 3_000_000))

        let handle = try FileHandle(forWritingTo: file)
        try handle.truncate(atOffset: 1_234_567)
        try handle.close()
        let resumed = try await transport.download(request, to: FileDownload(to: file, resumesPartialFile: true))
        #expect(try Data(contentsOf: file) == Self.seeded(0..<3_000_000))
        #expect(resumed.response.status.code == 206 && resumed.resumedFrom == 1_234_567 && resumed.bytesWritten == 3_000_000 - 1_234_567)

        let complete = try await transport.download(request, to: FileDownload(to: file, resumesPartialFile: true))
        #expect(complete.response.status.code == 416 && complete.bytesWritten == 0 && complete.length == 3_000_000)
        #expect(try Data(contentsOf: file).count == 3_000_000)
    }

    @Test("a server that answers a resume with another range is refused; the partial file goes unless kept",
          arguments: Transport.allCases)
    func lyingServer(transport: Transport) async throws {
        let liar = try ScriptedServer(
            response: "HTTP/1.1 206 Partial Content\r\nContent-Range: bytes 0-9/10\r\nContent-Length: 10\r\nConnection: close\r\n\r\n0123456789")
        defer { liar.close() }
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        for keeps in [false, true] {
            let file = try folder.file("part.bin", contents: Data("0123".utf8))
            let error = await #expect(throws: DownloadError.self) {
                try await transport.download(Self.get(port: liar.port, "/file"),
                                             to: FileDownload(to: file, resumesPartialFile: true, keepsPartialFile: keeps))
            }
            #expect(error == .rangeMismatch(path: file.path, requestedStart: 4, contentRange: "bytes 0-9/10"))
            #expect(keeps ? (try? Data(contentsOf: file)) == Data("0123".utf8) : !FileManager.default.fileExists(atPath: file.path))
        }
    }

    @Test("a body cut short is an error and leaves no file behind", arguments: Transport.allCases)
    func cutShort(transport: Transport) async throws {
        let server = try ScriptedServer(response: "HTTP/1.1 200 OK\r\nContent-Length: 100000\r\n\r\n" + String(repeating: "x", count: 5000))
        defer { server.close() }
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let file = folder.url.appendingPathComponent("cut.bin")
        let error = await #expect(throws: (any Error).self) {
            try await transport.download(Self.get(port: server.port, "/cut"), to: FileDownload(to: file))
        }
        // The transport's own failure, or ours when the transport lets the body end quietly.
        #expect(error is TransportError || error is DownloadError, "\(String(describing: error))")
        #expect(!FileManager.default.fileExists(atPath: file.path))
    }

    @Test("an error status is refused with its body, and no file is made", arguments: Transport.allCases)
    func errorStatus(transport: Transport) async throws {
        let server = try await EchoServer.start()
        defer { Task { try? await server.stop() } }
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let file = folder.url.appendingPathComponent("missing.bin")
        let error = await #expect(throws: ResponseSerializationError.self) {
            try await transport.download(Self.get(port: server.port, "/status/404"), to: FileDownload(to: file))
        }
        guard case .unacceptableStatusCode(404, let context, _)? = error else {
            Issue.record("not an unacceptable status: \(String(describing: error))")
            return
        }
        #expect(context.data.map { String(decoding: $0, as: UTF8.self) }?.contains("status 404 as requested") == true)
        #expect(!FileManager.default.fileExists(atPath: file.path))
    }
}
