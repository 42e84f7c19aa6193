import Foundation
import Testing
import SeededGenerators
@testable import HTTPSerialization
@testable import HTTPSerializationCodable
@testable import HTTPSerializationCore
@testable import HTTPSerializationFoundation
@testable import HTTPSerializationImages
@testable import HTTPSerializationXML

@Suite("Multipart: exact lengths, adapters and replay")
struct MultipartStreamingTests {
    /// A random form of every part kind; also returns what a reader must produce, built
    /// independently of the reader from the documented wire format.
    static func randomForm(_ random: inout SplitMix64, folder: TemporaryFolder) throws -> (MultipartFormData, Data) {
        var form = try MultipartFormData(boundary: "prop-\(random.next() % 1_000_000)")
        var expected = Data()
        let partCount = random.range(1, 6)
        for index in 0..<partCount {
            expected += bytes(index == 0 ? "--\(form.boundary)\r\n" : "\r\n--\(form.boundary)\r\n")
            let size = [0, 1, random.range(2, 100), random.range(1_000, 70_000), random.range(200_000, 1_100_000)][random.range(0, 4)]
            let body = Data((0..<size).map { _ in UInt8(truncatingIfNeeded: random.next()) })
            let name = "field\(index)"
            switch random.range(0, 5) {
            case 0:
                try form.appendPart(formData: body, name: name)
                expected += bytes("Content-Disposition: form-data; name=\"\(name)\"\r\n\r\n")
            case 1:
                try form.appendPart(fileData: body, name: name, fileName: "f\(index).bin", mimeType: "application/x-test")
                expected += bytes("Content-Disposition: form-data; name=\"\(name)\"; filename=\"f\(index).bin\"\r\nContent-Type: application/x-test\r\n\r\n")
            case 2:
                let file = try folder.file("p\(index)-\(random.next()).png", contents: body)
                try form.appendPart(fileURL: file, name: name)
                expected += bytes("Content-Disposition: form-data; name=\"\(name)\"; filename=\"\(file.lastPathComponent)\"\r\nContent-Type: image/png\r\n\r\n")
            case 3:
                try form.appendPart(streamFactory: { InputStream(data: body) }, name: name, fileName: "s", length: UInt64(size), mimeType: "text/plain")
                expected += bytes("Content-Disposition: form-data; name=\"\(name)\"; filename=\"s\"\r\nContent-Type: text/plain\r\n\r\n")
            default:
                var headers = HTTPHeaderFields()
                try headers.setValue("form-data; name=\"\(name)\"", forHTTPHeaderField: "Content-Disposition")
                try headers.setValue("\(index)", forHTTPHeaderField: "X-Index")
                form.appendPart(headers: headers, body: body)
                expected += bytes("Content-Disposition: form-data; name=\"\(name)\"\r\nX-Index: \(index)\r\n\r\n")
            }
            expected += body
        }
        expected += bytes("\r\n--\(form.boundary)--\r\n")
        return (form, expected)
    }

    @Test("seeded property: contentLength equals the bytes every adapter produces, at read sizes from 1 byte to 1 MiB")
    func everyAdapterAgrees() async throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        var random = SplitMix64(seed: 20_261_122)
        for _ in 0..<24 {
            let (form, expected) = try Self.randomForm(&random, folder: folder)
            #expect(form.contentLength == UInt64(expected.count))
            #expect(try form.encodedData() == expected)
            let readSizes = (0..<5).map { _ in [1, 7, 4096, 65_524, 1 << 20][random.range(0, 4)] }
            #expect(try readAll(form.makeInputStream(), readSizes: readSizes) == expected)
            #expect(try await collectChunks(form, size: [1, 333, 65_536, 1 << 20][random.range(0, 3)]) == expected)
            let file = folder.url.appendingPathComponent("out-\(random.next()).bin")
            try await form.writeEncodedBody(to: file)
            #expect(try Data(contentsOf: file) == expected)
        }
    }

    @Test("replay: new adapters from the same form yield identical bytes with the same boundary")
    func replayIsIdentical() async throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        var random = SplitMix64(seed: 7)
        let (form, expected) = try Self.randomForm(&random, folder: folder)
        for _ in 0..<3 {
            #expect(try readAll(form.makeInputStream()) == expected)
            #expect(try await collectChunks(form, size: 10_000) == expected)
        }
    }

    @Test("a single-use stream is read once; a replay names the part")
    func oneShotStreamCannotReplay() throws {
        var form = try MultipartFormData(boundary: "b")
        try form.appendPart(inputStream: InputStream(data: bytes("12345")), name: "s", fileName: "s.txt", length: 5, mimeType: "text/plain")
        #expect(String(decoding: try form.encodedData(), as: UTF8.self).contains("\r\n\r\n12345\r\n--b--"))
        #expect(throws: RequestSerializationError.multipartStreamAlreadyConsumed(part: "part 1 \"s\" (s.txt)")) {
            try form.encodedData()
        }
    }

    @Test("a stream shorter than declared is an error naming the byte counts")
    func shortStream() throws {
        var form = try MultipartFormData(boundary: "b")
        try form.appendPart(streamFactory: { InputStream(data: bytes("12345")) }, name: "s", fileName: "s", length: 10, mimeType: "x/y")
        #expect(throws: RequestSerializationError.multipartLengthMismatch(part: "part 1 \"s\" (s)", declared: 10, actual: 5)) {
            try form.encodedData()
        }
    }

    @Test("a stream longer than declared is an error, and nothing past the declared length is read")
    func longStream() throws {
        var form = try MultipartFormData(boundary: "b")
        try form.appendPart(streamFactory: { InputStream(data: bytes("1234567890")) }, name: "s", fileName: "s", length: 4, mimeType: "x/y")
        #expect(throws: RequestSerializationError.multipartLengthMismatch(part: "part 1 \"s\" (s)", declared: 4, actual: 5)) {
            try form.encodedData()
        }
        let stream = form.makeInputStream()
        #expect(throws: RequestSerializationError.self) { try readAll(stream, readSizes: [1]) }
        #expect(stream.streamStatus == .error)
        #expect(stream.streamError is RequestSerializationError)
    }

    @Test("a file that disappears after it was appended is an error")
    func vanishedFile() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let file = try folder.file("gone.txt", contents: bytes("soon gone"))
        var form = MultipartFormData()
        try form.appendPart(fileURL: file, name: "f")
        try FileManager.default.removeItem(at: file)
        #expect(throws: RequestSerializationError.self) { try form.encodedData() }
    }

    @Test("a file whose size changed since it was appended is an error before any of it is read")
    func resizedFileBeforeReading() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let file = try folder.file("grow.txt", contents: bytes("0123456789"))
        var form = MultipartFormData()
        try form.appendPart(fileURL: file, name: "f")
        try bytes("01234567890123456789").write(to: file)
        #expect(throws: RequestSerializationError.multipartLengthMismatch(part: "part 1 \"f\" (grow.txt)", declared: 10, actual: 20)) {
            try form.encodedData()
        }
    }

    @Test("a file that shrinks while being read is an error naming what arrived")
    func fileShrinksWhileReading() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let file = try folder.file("shrink.bin", contents: Data(count: 1 << 20))
        var form = try MultipartFormData(boundary: "b")
        try form.appendPart(fileURL: file, name: "f")
        let stream = form.makeInputStream()
        stream.open()
        var buffer = [UInt8](repeating: 0, count: 1000)
        #expect(stream.read(&buffer, maxLength: 1000) == 1000)
        let handle = try FileHandle(forWritingTo: file)
        try handle.truncate(atOffset: 100)
        try handle.close()
        var result = 0
        while result >= 0, stream.hasBytesAvailable { result = stream.read(&buffer, maxLength: 1000) }
        #expect(result == -1)
        guard case .multipartLengthMismatch(_, let declared, let actual)? = stream.streamError as? RequestSerializationError else {
            Issue.record("expected a length mismatch, got \(String(describing: stream.streamError))")
            return
        }
        #expect(declared == 1 << 20)
        #expect(actual < declared)
    }

    @Test("a file that grows while being read is an error; only declared bytes were produced")
    func fileGrowsWhileReading() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let file = try folder.file("grow.bin", contents: Data(count: 1000))
        var form = try MultipartFormData(boundary: "b")
        try form.appendPart(fileURL: file, name: "f")
        let stream = form.makeInputStream()
        stream.open()
        var buffer = [UInt8](repeating: 0, count: 500)
        var produced = 0
        produced += stream.read(&buffer, maxLength: 100)
        let handle = try FileHandle(forWritingTo: file)
        try handle.seekToEnd()
        try handle.write(contentsOf: Data(count: 5000))
        try handle.close()
        var result = 0
        while stream.hasBytesAvailable {
            result = stream.read(&buffer, maxLength: 500)
            if result < 0 { break }
            produced += result
        }
        #expect(result == -1)
        #expect(stream.streamError as? RequestSerializationError == .multipartLengthMismatch(part: "part 1 \"f\" (grow.bin)", declared: 1000, actual: 6000))
        #expect(UInt64(produced) < form.contentLength)
    }

    @Test("a throttled form never returns more than a packet per read, in every adapter")
    func throttlePacketSize() async throws {
        var form = try MultipartFormData(boundary: "b")
        try form.appendPart(fileData: Data(count: 5000), name: "f", fileName: "f", mimeType: "x/y")
        form.throttleBandwidth(packetSize: 777, delay: 0.0001)
        let stream = form.makeInputStream()
        stream.open()
        var buffer = [UInt8](repeating: 0, count: 10_000)
        var total = 0
        while stream.hasBytesAvailable {
            let count = stream.read(&buffer, maxLength: buffer.count)
            #expect(count <= 777)
            if count <= 0 { break }
            total += count
        }
        #expect(UInt64(total) == form.contentLength)
        var chunks = 0
        for try await chunk in form.chunks(size: 1 << 20) {
            #expect(chunk.count <= 777)
            chunks += 1
        }
        #expect(chunks == Int((form.contentLength + 776) / 777))
        #expect(try form.encodedData().count == Int(form.contentLength))
    }

    @Test("writing to a file reports progress up to the total and removes a failed file")
    func fileWriterProgressAndCleanup() async throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        var form = try MultipartFormData(boundary: "b")
        try form.appendPart(fileData: Data(count: 3_000_000), name: "f", fileName: "f", mimeType: "x/y")
        let target = folder.url.appendingPathComponent("out.bin")
        let last = LockedBox(TransferProgress(completed: 0, total: nil))
        try await form.writeEncodedBody(to: target) { last.set($0) }
        let length = Int64(form.contentLength)
        #expect(last.get() == TransferProgress(completed: length, total: length))

        var broken = try MultipartFormData(boundary: "b")
        try broken.appendPart(streamFactory: { InputStream(data: Data(count: 10)) }, name: "s", fileName: "s", length: 20, mimeType: "x/y")
        let failed = folder.url.appendingPathComponent("failed.bin")
        await #expect(throws: RequestSerializationError.self) { try await broken.writeEncodedBody(to: failed) }
        #expect(!FileManager.default.fileExists(atPath: failed.path))
        await #expect(throws: RequestSerializationError.self) {
            try await form.writeEncodedBody(to: folder.url.appendingPathComponent("no/such/dir/out.bin"))
        }
    }
}

/// A value shared with a `@Sendable` callback in tests.
final class LockedBox<Value: Sendable>: @unchecked Sendable {
    // @unchecked: every access goes through `lock`.
    private let lock = NSLock()
    private var value: Value

    init(_ value: Value) { self.value = value }

    func get() -> Value {
        lock.lock()
        defer { lock.unlock() }
        return value
    }

    func set(_ newValue: Value) {
        lock.lock()
        defer { lock.unlock() }
        value = newValue
    }
}
