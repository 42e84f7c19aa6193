#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import HTTPSerializationCore
import Testing

/// A read touches the disk only in the chunks it sends to the file thread: whenever the
/// collector says a chunk can only reach memory, feeding it leaves the temporary directory as
/// it was; and the async read, which moves the other chunks (gathered or whole), keeps every
/// byte in order.
@Suite("Multipart spill placement: the disk is touched only in chunks sent to the file thread")
struct MultipartSpillPlacementTests {
    static let threshold = 4096

    /// A form whose file parts sit around the spill threshold, one nested part of two files,
    /// and fields between them.
    static func body() throws -> (contentType: String, bytes: [UInt8], files: [[UInt8]]) {
        var form = try MultipartFormData(boundary: "placement-boundary-0123456789")
        var files: [[UInt8]] = []
        for (index, size) in [4000, 4096 - 70, 4096, 4097, 5000, 12_000, 300_000, 10].enumerated() {
            let bytes = (0..<size).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ index) }
            files.append(bytes)
            try form.appendPart(formData: Data("field \(index)".utf8), name: "f\(index)")
            try form.appendPart(fileData: Data(bytes), name: "file\(index)", fileName: "\(index).bin", mimeType: "application/octet-stream")
        }
        let nested = [4090, 6000].enumerated().map { part, size in (0..<size).map { UInt8(truncatingIfNeeded: $0 &+ part) } }
        var mixed = "--inner\r\nContent-Disposition: file; filename=\"a.bin\"\r\n\r\n".utf8.map { $0 } + nested[0]
        mixed += "\r\n--inner\r\nContent-Disposition: file; filename=\"b.bin\"\r\n\r\n".utf8.map { $0 } + nested[1] + "\r\n--inner--".utf8
        form.appendPart(headers: try HTTPHeaderFields(["Content-Disposition": "form-data; name=\"several\"",
                                                       "Content-Type": "multipart/mixed; boundary=inner"]), body: Data(mixed))
        return (form.contentType, Array(try form.encodedData()), files + nested)
    }

    /// Every file in `directory` with its size.
    static func snapshot(_ directory: URL) -> [String: Int] {
        var sizes: [String: Int] = [:]
        for name in (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? [] {
            let attributes = try? FileManager.default.attributesOfItem(atPath: directory.appendingPathComponent(name).path)
            sizes[name] = (attributes?[.size] as? Int) ?? (attributes?[.size] as? UInt64).map { Int($0) } ?? -1
        }
        return sizes
    }

    /// Seeded chunk sizes from 1 to `largest` bytes.
    static func chunkSizes(seed: UInt64, largest: Int, count: Int) -> [Int] {
        var state = seed
        return (0..<count).map { _ in
            state = state &* 6364136223846793005 &+ 1442695040888963407
            return Int(state >> 33) % largest + 1
        }
    }

    static func chunks(_ bytes: [UInt8], sizes: [Int]) -> [[UInt8]] {
        var chunks: [[UInt8]] = []
        var start = 0
        var index = 0
        while start < bytes.count {
            let end = min(bytes.count, start + sizes[index % sizes.count])
            chunks.append(Array(bytes[start..<end]))
            start = end
            index += 1
        }
        return chunks
    }

    @Test("a chunk the collector calls memory-only never creates, grows or closes a file", arguments: [1, 2, 3, 4, 5, 6])
    func memoryOnlyChunksLeaveTheDiskAlone(seed: UInt64) throws {
        let (contentType, bytes, files) = try Self.body()
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("httpser-placement-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let collector = try MultipartFormCollector(contentType: contentType, limits: MultipartParsingLimits(),
                                                   spillThreshold: Self.threshold, directory: directory.path)
        var memoryOnly = 0
        for chunk in Self.chunks(bytes, sizes: Self.chunkSizes(seed: seed, largest: seed.isMultiple(of: 2) ? 200 : 5000, count: 97)) {
            let may = collector.mayWriteFile(taking: chunk.count)
            let before = Self.snapshot(directory)
            try chunk.withUnsafeBytes { try collector.feed($0) }
            if !may {
                memoryOnly += 1
                #expect(Self.snapshot(directory) == before, "a chunk of \(chunk.count) bytes said to reach memory only touched the disk")
            }
        }
        let form = try collector.finish()
        #expect(memoryOnly > 0)
        #expect(try form.files.map { Array(try $0.data()) } == files)
    }

    @Test("an async read keeps every byte in order, with chunks gathered for the file thread and large ones sent whole",
          arguments: [(7, 300), (8, 9000), (9, 400_000)])
    func asyncReadKeepsOrder(seed: UInt64, largest: Int) async throws {
        let (contentType, bytes, files) = try Self.body()
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("httpser-placement-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let body = ChunkedBody(Self.chunks(bytes, sizes: Self.chunkSizes(seed: seed, largest: largest, count: 61)))
        let form = try await MultipartForm.read(body, contentType: contentType, spillThreshold: Self.threshold, temporaryDirectory: directory)
        #expect(try form.files.map { Array(try $0.data()) } == files)
        #expect(form.fields.map(\.value) == (0..<8).map { "field \($0)" })
        #expect(form.files.map { $0.temporaryFileURL != nil } == [false, false, false, true, true, true, true, false, false, true],
                "the files past 4,096 bytes, and only they, spilled")
    }
}
