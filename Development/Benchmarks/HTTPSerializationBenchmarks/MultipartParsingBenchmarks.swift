import Foundation
import HTTPSerialization
import MultipartKit
import NIOCore

/// The server side of multipart: our parser against multipart-kit's on the same bytes, and
/// against a plain read loop of the same file.
enum MultipartParsingBenchmarks {
    static let chunkSize = 256 << 10

    /// A multipart body of one file part of `fileBytes` seeded bytes, written to `body` by the
    /// package's writer; returns its content type.
    static func writeBody(to body: URL, fileBytes: Int, folder: URL) throws -> String {
        let file = folder.appendingPathComponent("part.bin")
        try MultipartBenchmarks.writeBinaryFile(to: file, values: fileBytes / 8)
        defer { try? FileManager.default.removeItem(at: file) }
        var form = try MultipartFormData(boundary: MultipartBenchmarks.boundary)
        try form.appendPart(formData: Data("an upload".utf8), name: "title")
        try form.appendPart(fileURL: file, name: "file", fileName: "upload.bin", mimeType: "application/octet-stream")
        MultipartBenchmarks.blockingWrite(form, to: body)
        return form.contentType
    }

    /// Reads `url` in 256 KiB chunks into `buffer`, handing each to `consume`.
    static func readChunks(_ url: URL, _ consume: (UnsafeRawBufferPointer) throws -> Void) rethrows {
        let buffer = UnsafeMutableRawPointer.allocate(byteCount: chunkSize, alignment: 16)
        defer { buffer.deallocate() }
        let descriptor = open(url.path, O_RDONLY)
        defer { close(descriptor) }
        while true {
            let count = read(descriptor, buffer, chunkSize)
            if count <= 0 { break }
            try consume(UnsafeRawBufferPointer(start: buffer, count: count))
        }
    }

    static var unlimited: MultipartParsingLimits {
        var limits = MultipartParsingLimits()
        limits.maximumPartCount = nil
        limits.maximumFileBytes = nil
        limits.maximumBodyBytes = nil
        return limits
    }

    /// Our parser from the file into a discard sink; the part body bytes seen, -1 on failure.
    static func ours(_ url: URL, contentType: String) -> Int {
        var total = 0
        do {
            var parser = try MultipartBodyParser(contentType: contentType, limits: unlimited)
            try readChunks(url) { chunk in
                try parser.parse(Span(_unsafeBytes: chunk)) { event in
                    if case .body(let bytes) = event { total += bytes.count }
                }
            }
            try parser.finish()
        } catch {
            return -1
        }
        return total
    }

    /// A file read in 256 KiB chunks as an async sequence, as a server hands over a body.
    struct FileChunks: AsyncSequence {
        typealias Element = [UInt8]
        let url: URL

        struct AsyncIterator: AsyncIteratorProtocol {
            let descriptor: Int32
            mutating func next() async -> [UInt8]? {
                var chunk = [UInt8](repeating: 0, count: MultipartParsingBenchmarks.chunkSize)
                let count = chunk.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, MultipartParsingBenchmarks.chunkSize) }
                guard count > 0 else {
                    close(descriptor)
                    return nil
                }
                chunk.removeLast(chunk.count - count)
                return chunk
            }
        }

        func makeAsyncIterator() -> AsyncIterator { AsyncIterator(descriptor: open(url.path, O_RDONLY)) }
    }

    /// The whole form read with `MultipartForm.read`, its file spilled to `directory`; the
    /// file's size, -1 on failure.
    static func formRead(_ url: URL, contentType: String, directory: URL) -> Int {
        StreamingBenchmarks.blocking {
            do {
                let form = try await MultipartForm.read(FileChunks(url: url), contentType: contentType, limits: unlimited, temporaryDirectory: directory)
                return form.file(named: "file")?.size ?? -1
            } catch {
                return -1
            }
        }
    }

    /// multipart-kit's parser on the same chunks, read into one reused `ByteBuffer`.
    static func multipartKit(_ url: URL) -> Int {
        let parser = MultipartKit.MultipartParser(boundary: MultipartBenchmarks.boundary)
        var total = 0
        parser.onBody = { total += $0.readableBytes }
        var buffer = ByteBufferAllocator().buffer(capacity: chunkSize)
        let descriptor = open(url.path, O_RDONLY)
        defer { close(descriptor) }
        while true {
            buffer.clear()
            let count = buffer.writeWithUnsafeMutableBytes(minimumWritableBytes: chunkSize) { read(descriptor, $0.baseAddress, chunkSize) }
            if count <= 0 { break }
            do { try parser.execute(buffer) } catch { return -1 }
        }
        return total
    }

    /// Every part of an in-memory body, collected by multipart-kit's parser as its form decoder does.
    static func multipartKitParts(_ body: ByteBuffer) -> [MultipartPart] {
        let parser = MultipartKit.MultipartParser(boundary: MultipartBenchmarks.boundary)
        var parts: [MultipartPart] = []
        var headers = HTTPHeaders()
        var partBody = ByteBuffer()
        parser.onHeader = { headers.add(name: $0, value: $1) }
        parser.onBody = { partBody.writeBuffer(&$0) }
        parser.onPartComplete = {
            parts.append(MultipartPart(headers: headers, body: partBody))
            headers = HTTPHeaders()
            partBody = ByteBuffer()
        }
        do { try parser.execute(body) } catch { return [] }
        return parts
    }

    @MainActor
    static func run(quick: Bool, runs: Int) throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("httpser-parse-\(getpid())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let fileBytes = quick ? 4 << 20 : 1 << 30
        let body = folder.appendingPathComponent("body.multipart")
        let contentType = try writeBody(to: body, fileBytes: fileBytes, folder: folder)
        let bodyBytes = Double((try? FileManager.default.attributesOfItem(atPath: body.path)[.size] as? NSNumber)?.intValue ?? 0)
        let expected = fileBytes + "an upload".utf8.count
        check(ours(body, contentType: contentType) == expected, "our parser lost bytes of the upload")
        check(multipartKit(body) == expected, "multipart-kit's parser lost bytes of the upload")
        let times = fastest(runs: runs, [
            { consume(ours(body, contentType: contentType)) },
            { consume(multipartKit(body)) },
            { consume(MultipartBenchmarks.plainRead(body)) },
        ])
        let megabytes = bodyBytes / 1e6
        print("")
        print("multipart parsing, one \(fileBytes >> 20) MiB file part (\(Int(bodyBytes)) bytes) from a file in 256 KiB reads, into a discard sink")
        print("  plain 256 KiB read loop    \(format(megabytes / times[2])) MB/s")
        print("  multipart-kit 4.7.1        \(format(megabytes / times[1])) MB/s")
        print("  MultipartBodyParser        \(format(megabytes / times[0])) MB/s, \(format(times[1] / times[0], 2))x multipart-kit   (target >= 3x), \(format(times[2] / times[0], 2)) of the read loop   (target >= 0.5)")
        recordRatio("multipart-parse-vs-multipart-kit", times[1] / times[0], target: 3)
        recordRatio("multipart-parse-vs-read-loop", times[2] / times[0], target: 0.5)

        // 10,000 small parts, in memory, collected whole by each parser.
        var small = try MultipartFormData(boundary: MultipartBenchmarks.boundary)
        for index in 0..<(quick ? 500 : 10_000) {
            try small.appendPart(formData: Data("value \(index) of the form".utf8), name: "field\(index)")
        }
        let smallBody = try small.encodedData()
        let smallBuffer = ByteBuffer(bytes: smallBody)
        let ourParts = (try? MultipartBodyParser.parts(of: smallBody, contentType: small.contentType, limits: unlimited)) ?? []
        let peerParts = multipartKitParts(smallBuffer)
        check(ourParts.count == peerParts.count && ourParts.count > 0, "the parsers read \(ourParts.count) and \(peerParts.count) small parts")
        check(zip(ourParts, peerParts).allSatisfy { $0.body == Data($1.body.readableBytesView) }, "the parsers read different small parts")
        let smallTimes = fastest(runs: runs, [
            { consume(try? MultipartBodyParser.parts(of: smallBody, contentType: small.contentType, limits: unlimited)) },
            { consume(multipartKitParts(smallBuffer)) },
        ])
        print("  \(ourParts.count) small parts (\(smallBody.count) bytes) collected in memory: ours \(format(Double(ourParts.count) / smallTimes[0] / 1e6, 2)) M parts/s, multipart-kit \(format(Double(ourParts.count) / smallTimes[1] / 1e6, 2)) M parts/s, \(format(smallTimes[1] / smallTimes[0], 2))x   (target >= 3x)")
        recordRatio("multipart-small-parts-vs-multipart-kit", smallTimes[1] / smallTimes[0], target: 3)

        // The same body gathered as a form, its file spilled to a temporary file.
        check(formRead(body, contentType: contentType, directory: folder) == fileBytes, "MultipartForm lost bytes of the upload")
        let spill = fastest(runs: max(1, runs / 2), [
            { consume(formRead(body, contentType: contentType, directory: folder)) },
            { MultipartBenchmarks.copyWithCp(body, to: folder.appendingPathComponent("copy.bin")) },
        ])
        try? FileManager.default.removeItem(at: folder.appendingPathComponent("copy.bin"))
        check(((try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []).allSatisfy { !$0.hasPrefix("httpser-part-") },
              "a temporary file outlived its form")
        print("  MultipartForm.read, file spilled to disk  \(format(megabytes / spill[0])) MB/s, \(format(spill[1] / spill[0], 2)) of cp of the body")

        guard !quick else { return }
        if let growth = PeakRSS.growth("multipart-form", baseline: "multipart-parse-baseline", argument: body.path + "\n" + contentType) {
            print("  peak RSS growth reading the \(fileBytes >> 20) MiB form with spilling, fresh process  \(format(growth)) MiB   (bound 16 MiB)")
            check(growth <= 16, "reading a 1 GiB multipart form grew peak RSS by \(format(growth)) MiB")
        }
        if let growth = PeakRSS.growth("multipart-parse", baseline: "multipart-parse-baseline", argument: body.path + "\n" + contentType) {
            print("  peak RSS growth parsing the \(fileBytes >> 20) MiB body, fresh process  \(format(growth)) MiB   (bound 16 MiB)")
            check(growth <= 16, "parsing a 1 GiB multipart body grew peak RSS by \(format(growth)) MiB")
        }
    }
}
