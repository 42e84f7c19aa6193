#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import HTTPTypes
import Testing
@testable import HTTPSerializationCore
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Downloads to a file against responses made up in the test: every status rule, every
/// check and what becomes of the file, with no transport.
@Suite("File downloads: status rules, length checks and the partial file")
struct FileDownloadTests {
    /// A fresh file path in a folder of its own, removed after the test.
    final class Place {
        let folder: URL
        let file: URL
        init() throws {
            folder = FileManager.default.temporaryDirectory.appendingPathComponent("httpser-download-\(UUID().uuidString)")
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            file = folder.appendingPathComponent("file.bin")
        }
        deinit { try? FileManager.default.removeItem(at: folder) }

        var contents: [UInt8]? { (try? Data(contentsOf: file)).map { [UInt8]($0) } }
        var exists: Bool { FileManager.default.fileExists(atPath: file.path) }
        func write(_ bytes: [UInt8]) throws { try Data(bytes).write(to: file) }
    }

    static let request = SerializedRequest(request: HTTPRequest(method: .get, scheme: "http", authority: "example.com", path: "/big"))

    static func bytes(_ range: Range<Int>) -> [UInt8] { range.map { UInt8(truncatingIfNeeded: $0 &* 7 &+ 3) } }

    static func head(_ status: Int, _ fields: [(HTTPField.Name, String)] = []) -> HTTPResponse {
        var response = HTTPResponse(status: .init(code: status))
        for (name, value) in fields { response.headerFields.append(HTTPField(name: name, value: value)) }
        return response
    }

    static func response(_ head: HTTPResponse, _ body: [UInt8], chunk: Int = 1000) -> StreamedResponse<ChunkedBody> {
        StreamedResponse(response: head, body: ChunkedBody(body, chunkSize: chunk), request: request.request)
    }

    /// Progress reports, gathered from any thread. `@unchecked Sendable` is sound: `storage`
    /// is only touched under `lock`.
    final class Reports: @unchecked Sendable {
        private let lock = POSIXMutex()
        private var storage: [TransferProgress] = []
        func add(_ progress: TransferProgress) { lock.withLock { storage.append(progress) } }
        var all: [TransferProgress] { lock.withLock { storage } }
    }

    @Test("Content-Range reads a range, an unknown length and a 416's length, and refuses anything else")
    func contentRangeParsing() {
        #expect(ContentRange("bytes 5-9/10") == ContentRange(range: 5...9, completeLength: 10))
        #expect(ContentRange("BYTES 0-0/*") == ContentRange(range: 0...0, completeLength: nil))
        #expect(ContentRange("  bytes */300  ") == ContentRange(range: nil, completeLength: 300))
        for bad in ["bytes 9-5/10", "bytes 5-10/10", "bytes */*", "items 0-1/2", "bytes 1-2", "bytes -1-2/5", "bytes 1-2/x",
                    "bytes 0-99999999999999999999/*", "bytes=0-1/2", "bytes 0 - 1/2", "", "bytes", "bytes +1-2/5"] {
            #expect(ContentRange(bad) == nil, "\(bad)")
        }
    }

    @Test("begin asks for the rest of a partial file only when resuming, with If-Range, and never encoded")
    func beginAddsRangeWhenResuming() throws {
        let place = try Place()
        let fresh = try FileDownload(to: place.file, resumesPartialFile: true).begin(Self.request)
        #expect(fresh.resumingAt == nil && fresh.request.request.headerFields[.range] == nil)
        #expect(fresh.request.request.headerFields[.acceptEncoding] == "identity")

        try place.write(Self.bytes(0..<300))
        let resumed = try FileDownload(to: place.file, resumesPartialFile: true, ifRange: "\"v1\"").begin(Self.request)
        #expect(resumed.resumingAt == 300)
        #expect(resumed.request.request.headerFields[.range] == "bytes=300-")
        #expect(resumed.request.request.headerFields[.ifRange] == "\"v1\"")

        var encoded = Self.request
        encoded.request.headerFields[.acceptEncoding] = "gzip"
        let replacing = try FileDownload(to: place.file).begin(encoded)
        #expect(replacing.resumingAt == nil && replacing.request.request.headerFields[.range] == nil)
        #expect(replacing.request.request.headerFields[.acceptEncoding] == "gzip")
    }

    @Test("begin refuses a folder, a URL that is not a file's, a missing folder, a pipe, and an If-Range with a line break")
    func beginRefusesBadDestinations() throws {
        let place = try Place()
        #expect(throws: DownloadError.cannotWrite(path: place.folder.path, reason: "it is a folder")) {
            try FileDownload(to: place.folder).begin(Self.request)
        }
        #expect(throws: DownloadError.cannotWrite(path: "https://example.com/x", reason: "it is not a file URL")) {
            try FileDownload(to: URL(string: "https://example.com/x")!).begin(Self.request)
        }
        let nowhere = place.folder.appendingPathComponent("missing/file.bin")
        #expect(throws: DownloadError.cannotWrite(path: nowhere.path, reason: "its folder does not exist")) {
            try FileDownload(to: nowhere).begin(Self.request)
        }
        let pipe = place.folder.appendingPathComponent("pipe")
        #expect(mkfifo(pipe.path, 0o600) == 0)
        #expect(throws: DownloadError.cannotWrite(path: pipe.path, reason: "it is a pipe or socket")) {
            try FileDownload(to: pipe).begin(Self.request)
        }
        _ = try FileDownload(to: URL(fileURLWithPath: "/dev/null")).begin(Self.request)
        try place.write([1, 2, 3])
        #expect(throws: RequestSerializationError.self) {
            try FileDownload(to: place.file, resumesPartialFile: true, ifRange: "\"v1\"\r\nX-Injected: 1").begin(Self.request)
        }
    }

    @Test("a 200 replaces the file with the body in any chunking, reporting progress to its length")
    func wholeBodyReplacesFile() async throws {
        let place = try Place()
        try place.write(Array(repeating: 0xEE, count: 5_000_000))
        var generator = SystemRandomNumberGenerator()
        for chunk in [1, 977, 65_536, 300_000, 2_000_000] {
            let body = Self.bytes(0..<Int.random(in: chunk == 1 ? 20_000...30_000 : 1_000_000...1_400_000, using: &generator))
            let reports = Reports()
            let attempt = try FileDownload(to: place.file).begin(Self.request)
            let file = try await attempt.finish(Self.response(Self.head(200, [(.contentLength, "\(body.count)")]), body, chunk: chunk),
                                                progress: reports.add)
            #expect(place.contents == body, "chunks of \(chunk)")
            #expect(file.length == Int64(body.count) && file.bytesWritten == Int64(body.count) && file.resumedFrom == nil)
            #expect(reports.all.last == TransferProgress(completed: Int64(body.count), total: Int64(body.count)))
            #expect(reports.all.map(\.completed) == reports.all.map(\.completed).sorted())
        }
    }

    @Test("small and large chunks mixed reach the file in order")
    func mixedChunksKeepOrder() async throws {
        let place = try Place()
        let sizes = [1000, 200_000, 1000, 300_000, 5, 131_072, 262_143, 262_144, 7, 1_000_000, 3]
        var chunks: [[UInt8]] = []
        var offset = 0
        for size in sizes {
            chunks.append(Self.bytes(offset..<offset + size))
            offset += size
        }
        let attempt = try FileDownload(to: place.file).begin(Self.request)
        let file = try await attempt.finish(StreamedResponse(response: Self.head(200, [(.contentLength, "\(offset)")]), body: ChunkedBody(chunks)))
        #expect(file.length == Int64(offset))
        #expect(place.contents == Self.bytes(0..<offset))
    }

    @Test("a 206 that starts where the file ends is appended, progress counting the earlier bytes")
    func partialContentAppends() async throws {
        let place = try Place()
        try place.write(Self.bytes(0..<4000))
        let attempt = try FileDownload(to: place.file, resumesPartialFile: true).begin(Self.request)
        let reports = Reports()
        let head = Self.head(206, [(.contentRange, "bytes 4000-9999/10000"), (.contentLength, "6000"), (.eTag, "\"abc\"")])
        let file = try await attempt.finish(Self.response(head, Self.bytes(4000..<10000)), progress: reports.add)
        #expect(place.contents == Self.bytes(0..<10000))
        #expect(file.length == 10000 && file.bytesWritten == 6000 && file.resumedFrom == 4000)
        #expect(file.validator == "\"abc\"")
        #expect(reports.all.first?.completed == 5000 && reports.all.last == TransferProgress(completed: 10000, total: 10000))
    }

    @Test("a 200 to a resumed request starts the file over")
    func fullAnswerToRangeStartsOver() async throws {
        let place = try Place()
        try place.write(Array(repeating: 0xEE, count: 3000))
        let attempt = try FileDownload(to: place.file, resumesPartialFile: true).begin(Self.request)
        let file = try await attempt.finish(Self.response(Self.head(200, [(.contentLength, "8000")]), Self.bytes(0..<8000)))
        #expect(place.contents == Self.bytes(0..<8000))
        #expect(file.resumedFrom == nil && file.bytesWritten == 8000)
    }

    @Test("a 416 that reports the file's own length finds it whole, without reading the body")
    func satisfiedRangeIsWhole() async throws {
        let place = try Place()
        try place.write(Self.bytes(0..<500))
        let attempt = try FileDownload(to: place.file, resumesPartialFile: true).begin(Self.request)
        let failing = StreamedResponse(response: Self.head(416, [(.contentRange, "bytes */500")]),
                                       body: ValueSource<[UInt8]>(values: [[1]], failingAfter: 0), request: Self.request.request)
        let file = try await attempt.finish(failing)
        #expect(file.length == 500 && file.bytesWritten == 0 && file.resumedFrom == 500)
        #expect(place.contents == Self.bytes(0..<500))

        // Cut meanwhile, the file is not whole whatever the server says.
        let cut = try FileDownload(to: place.file, resumesPartialFile: true, keepsPartialFile: true).begin(Self.request)
        try place.write(Self.bytes(0..<200))
        await #expect(throws: DownloadError.fileChanged(path: place.file.path, expectedLength: 500, actualLength: 200)) {
            try await cut.finish(Self.response(Self.head(416, [(.contentRange, "bytes */500")]), []))
        }
    }

    @Test("a server that lies about its range is refused, and the partial file is removed or kept as asked",
          arguments: [
            (206, "bytes 0-9999/10000", "10000"),  // the whole file as a range: starts elsewhere
            (206, "bytes 4001-9999/10000", "5999"),  // one byte off
            (206, "bytes 4000-9999/10000", "7000"),  // Content-Length disagrees with the range
            (206, "", "6000"),  // no Content-Range at all
            (206, "bytes 4000-9999/9000", "6000"),  // a range past the length it gives
            (206, "bytes */10000", "6000"),  // a 416's form on a 206
          ])
    func lyingRangeIsRefused(status: Int, contentRange: String, length: String) async throws {
        for keeps in [false, true] {
            let place = try Place()
            try place.write(Self.bytes(0..<4000))
            let attempt = try FileDownload(to: place.file, resumesPartialFile: true, keepsPartialFile: keeps).begin(Self.request)
            var fields: [(HTTPField.Name, String)] = [(.contentLength, length)]
            if !contentRange.isEmpty { fields.append((.contentRange, contentRange)) }
            let error = await #expect(throws: DownloadError.self) {
                try await attempt.finish(Self.response(Self.head(status, fields), Self.bytes(0..<6000)))
            }
            #expect(error == .rangeMismatch(path: place.file.path, requestedStart: 4000, contentRange: contentRange.isEmpty ? nil : contentRange))
            #expect(keeps ? place.contents == Self.bytes(0..<4000) : !place.exists)
        }
    }

    @Test("a failure never removes what is not a regular file the download wrote")
    func onlyRegularFilesRemoved() async throws {
        let place = try Place()
        let link = place.folder.appendingPathComponent("link.bin")
        try place.write(Self.bytes(0..<100))
        try FileManager.default.createSymbolicLink(at: link, withDestinationURL: place.file)
        let attempt = try FileDownload(to: link).begin(Self.request)
        await #expect(throws: DownloadError.self) {
            try await attempt.finish(Self.response(Self.head(200, [(.contentLength, "10")]), [1, 2, 3]))
        }
        #expect(FileManager.default.fileExists(atPath: link.path) && place.contents == [1, 2, 3])
    }

    @Test("a 206 nobody asked for is refused and the file it would replace is left alone")
    func unaskedPartialContent() async throws {
        let place = try Place()
        try place.write([9, 9, 9])
        let attempt = try FileDownload(to: place.file).begin(Self.request)
        await #expect(throws: DownloadError.rangeMismatch(path: place.file.path, requestedStart: nil, contentRange: "bytes 0-2/3")) {
            try await attempt.finish(Self.response(Self.head(206, [(.contentRange, "bytes 0-2/3")]), [1, 2, 3]))
        }
        #expect(place.contents == [9, 9, 9])
    }

    @Test("a 206 that stops before the resource's end is not a whole file")
    func cappedRangeIsIncomplete() async throws {
        let place = try Place()
        try place.write(Self.bytes(0..<4000))
        let attempt = try FileDownload(to: place.file, resumesPartialFile: true, keepsPartialFile: true).begin(Self.request)
        let head = Self.head(206, [(.contentRange, "bytes 4000-4999/10000"), (.contentLength, "1000")])
        await #expect(throws: DownloadError.lengthMismatch(path: place.file.path, expected: 10000, received: 5000)) {
            try await attempt.finish(Self.response(head, Self.bytes(4000..<5000)))
        }
        #expect(place.contents == Self.bytes(0..<5000))
        // Resumed again, the rest arrives.
        let next = try FileDownload(to: place.file, resumesPartialFile: true).begin(Self.request)
        #expect(next.resumingAt == 5000)
        _ = try await next.finish(Self.response(Self.head(206, [(.contentRange, "bytes 5000-9999/10000")]), Self.bytes(5000..<10000)))
        #expect(place.contents == Self.bytes(0..<10000))
    }

    @Test("a 416 that does not match the file is refused; the partial file is removed unless kept")
    func unsatisfiableRange() async throws {
        for keeps in [false, true] {
            let place = try Place()
            try place.write(Self.bytes(0..<4000))
            let attempt = try FileDownload(to: place.file, resumesPartialFile: true, keepsPartialFile: keeps).begin(Self.request)
            await #expect(throws: DownloadError.rangeNotSatisfiable(path: place.file.path, fileLength: 4000, resourceLength: 3000)) {
                try await attempt.finish(Self.response(Self.head(416, [(.contentRange, "bytes */3000")]), []))
            }
            #expect(keeps ? place.contents == Self.bytes(0..<4000) : !place.exists)
        }
    }

    @Test("a body shorter or longer than its Content-Length is refused; a kept file holds every byte that arrived")
    func lengthChecked() async throws {
        // A body that goes past is stopped at the chunk that does (chunks of 1,000 here), and
        // only the announced bytes reach a kept file.
        for (announced, sent, counted, keeps) in [(10_000, 6_000, 6_000, false), (10_000, 6_000, 6_000, true),
                                                  (1_000, 2_500, 2_000, false), (1_500, 2_500, 2_000, true)] {
            let place = try Place()
            let attempt = try FileDownload(to: place.file, keepsPartialFile: keeps).begin(Self.request)
            await #expect(throws: DownloadError.lengthMismatch(path: place.file.path, expected: Int64(announced), received: Int64(counted))) {
                try await attempt.finish(Self.response(Self.head(200, [(.contentLength, "\(announced)")]), Self.bytes(0..<sent)))
            }
            #expect(keeps ? place.contents == Self.bytes(0..<min(sent, announced)) : !place.exists)
        }
    }

    @Test("a body that fails midway ends the download with its error; kept, the file holds what came")
    func failingBody() async throws {
        for keeps in [false, true] {
            let place = try Place()
            let attempt = try FileDownload(to: place.file, keepsPartialFile: keeps).begin(Self.request)
            let chunks = (0..<5).map { Self.bytes($0 * 1000..<($0 + 1) * 1000) }
            let failing = StreamedResponse(response: Self.head(200, [(.contentLength, "10000")]),
                                           body: ValueSource(values: chunks, failingAfter: 3), request: Self.request.request)
            await #expect(throws: ValueSource<[UInt8]>.SourceFailure.self) { try await attempt.finish(failing) }
            #expect(keeps ? place.contents == Self.bytes(0..<3000) : !place.exists)
        }
    }

    @Test("an unacceptable status carries the head and the start of its body, and leaves a file it was not resuming")
    func unacceptableStatus() async throws {
        let place = try Place()
        try place.write([1, 2, 3])
        let attempt = try FileDownload(to: place.file).begin(Self.request)
        let body = Array(repeating: UInt8(ascii: "e"), count: 100_000)
        let error = await #expect(throws: ResponseSerializationError.self) {
            try await attempt.finish(Self.response(Self.head(404, [(.contentType, "text/plain")]), body, chunk: 30_000))
        }
        guard case .unacceptableStatusCode(404, let context, _)? = error else {
            Issue.record("not an unacceptable status: \(String(describing: error))")
            return
        }
        #expect(context.data?.count == 64 << 10 && context.response?.status.code == 404)
        #expect(place.contents == [1, 2, 3])
    }

    @Test("a partial file that changes or goes between the request and the response is not appended to, nor removed")
    func changedFileRefused() async throws {
        let place = try Place()
        try place.write(Self.bytes(0..<4000))
        let attempt = try FileDownload(to: place.file, resumesPartialFile: true).begin(Self.request)
        try place.write(Self.bytes(0..<100))
        let rest = Self.response(Self.head(206, [(.contentRange, "bytes 4000-4999/5000")]), Self.bytes(4000..<5000))
        await #expect(throws: DownloadError.fileChanged(path: place.file.path, expectedLength: 4000, actualLength: 100)) {
            try await attempt.finish(rest)
        }
        #expect(place.contents == Self.bytes(0..<100))

        try place.write(Self.bytes(0..<4000))
        let gone = try FileDownload(to: place.file, resumesPartialFile: true).begin(Self.request)
        try FileManager.default.removeItem(at: place.file)
        await #expect(throws: DownloadError.fileChanged(path: place.file.path, expectedLength: 4000, actualLength: 0)) {
            try await gone.finish(Self.response(Self.head(206, [(.contentRange, "bytes 4000-4999/5000")]), Self.bytes(4000..<5000)))
        }
        #expect(!place.exists)
    }

    @Test("an encoded body is not held to its Content-Length (a transport may have decoded it); a HEAD or 204 leaves the file")
    func encodedAndBodilessResponses() async throws {
        let place = try Place()
        let attempt = try FileDownload(to: place.file).begin(Self.request)
        let decoded = Self.bytes(0..<9000)
        let file = try await attempt.finish(Self.response(Self.head(200, [(.contentLength, "3000"), (.contentEncoding, "gzip")]), decoded))
        #expect(file.length == 9000 && place.contents == decoded)

        let head = StreamedResponse(response: Self.head(200, [(.contentLength, "3000")]), body: ChunkedBody([]), requestMethod: .head)
        let headFile = try await FileDownload(to: place.file).begin(Self.request).finish(head)
        #expect(place.contents == decoded && headFile.length == 9000 && headFile.bytesWritten == 0)
        _ = try await FileDownload(to: place.file).begin(Self.request).finish(Self.response(Self.head(204), []))
        #expect(place.contents == decoded)
    }

    @Test("a coded range cannot be appended to a resumed file")
    func codedRangeRefused() async throws {
        let place = try Place()
        try place.write(Self.bytes(0..<4000))
        let attempt = try FileDownload(to: place.file, resumesPartialFile: true, keepsPartialFile: true).begin(Self.request)
        let head = Self.head(206, [(.contentRange, "bytes 4000-4999/5000"), (.contentEncoding, "gzip")])
        await #expect(throws: DownloadError.rangeMismatch(path: place.file.path, requestedStart: 4000, contentRange: "bytes 4000-4999/5000")) {
            try await attempt.finish(Self.response(head, Self.bytes(0..<300)))
        }
        #expect(place.contents == Self.bytes(0..<4000))
    }

    @Test("the request failing before any response removes a resumed file unless kept, and leaves any other file")
    func sendFailure() async throws {
        struct Refused: Error {}
        for (resumes, keeps) in [(true, false), (true, true), (false, false)] {
            let place = try Place()
            try place.write([1, 2, 3])
            await #expect(throws: Refused.self) {
                _ = try await FileDownload(to: place.file, resumesPartialFile: resumes, keepsPartialFile: keeps)
                    .run(Self.request) { (_: SerializedRequest) async throws -> StreamedResponse<ChunkedBody> in throw Refused() }
            }
            #expect(place.exists == (!resumes || keeps))
        }
    }

    @Test("errors say which file and what happened")
    func descriptions() {
        #expect(DownloadError.lengthMismatch(path: "/a", expected: 10, received: 4).description == "The download to /a ended early: 4 of 10 bytes arrived.")
        #expect(DownloadError.rangeNotSatisfiable(path: "/a", fileLength: 9, resourceLength: 5).description.contains("the resource holds 5 bytes"))
        #expect(DownloadError.rangeMismatch(path: "/a", requestedStart: 7, contentRange: nil).description.contains("asked bytes from 7, got Content-Range none"))
    }
}
