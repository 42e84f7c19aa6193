import Foundation
import Checksums
import HTTPSerialization
import MultipartKit
import NIOCore
import SeededGenerators
#if canImport(Glibc)
import Glibc
#endif

/// Docs/Benchmarks.md §5: the 200 MB multipart form, streamed, written to a file, and its memory.
enum MultipartBenchmarks {
    static let boundary = "peerbench.boundary.0123456789abcdef"
    static let title = "Benchmark upload \u{2713} \u{6771}\u{4EAC}"
    static let description = String(repeating: "The quick brown fox jumps over the lazy dog. ", count: 20)

    /// 25,000,000 SplitMix64 values from seed 4, little-endian: 200,000,000 bytes.
    static func writeBinaryFile(to url: URL, values: Int) throws {
        var generator = SplitMix64(seed: 4)
        let handle = try emptyFileHandle(url)
        defer { try? handle.close() }
        let chunkValues = 1 << 20
        var written = 0
        var chunk = [UInt64](repeating: 0, count: chunkValues)
        while written < values {
            let count = min(chunkValues, values - written)
            for index in 0..<count { chunk[index] = generator.next().littleEndian }
            try chunk.withUnsafeBytes { try handle.write(contentsOf: Data(bytes: $0.baseAddress!, count: count * 8)) }
            written += count
        }
    }

    static func emptyFileHandle(_ url: URL) throws -> FileHandle {
        guard FileManager.default.createFile(atPath: url.path, contents: nil) else {
            throw CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: url.path])
        }
        return try FileHandle(forWritingTo: url)
    }

    static func form(file: URL) throws -> MultipartFormData {
        var form = try MultipartFormData(boundary: boundary)
        try form.appendPart(formData: Data(title.utf8), name: "title")
        try form.appendPart(formData: Data("1234567890".utf8), name: "user_id")
        try form.appendPart(formData: Data(description.utf8), name: "description")
        try form.appendPart(fileURL: file, name: "file", fileName: "big.bin", mimeType: "application/octet-stream")
        return form
    }

    /// Reads a stream to the end through one 256 KiB buffer; returns the bytes read.
    @discardableResult
    static func drain(_ stream: InputStream, hashing hasher: UnsafeMutablePointer<SHA256>? = nil) -> Int {
        let size = 256 * 1024
        let buffer = UnsafeMutablePointer<UInt8>.allocate(capacity: size)
        defer { buffer.deallocate() }
        stream.open()
        defer { stream.close() }
        var total = 0
        while stream.hasBytesAvailable {
            let count = stream.read(buffer, maxLength: size)
            if count <= 0 { break }
            hasher?.pointee.update(UnsafeRawBufferPointer(start: buffer, count: count))
            total += count
        }
        return total
    }

    /// The physical reference: a plain `read(2)` loop with a 256 KiB buffer.
    @discardableResult
    static func plainRead(_ url: URL) -> Int {
        let size = 256 * 1024
        let buffer = UnsafeMutableRawPointer.allocate(byteCount: size, alignment: 16)
        defer { buffer.deallocate() }
        let descriptor = open(url.path, O_RDONLY)
        defer { close(descriptor) }
        var total = 0
        while true {
            let count = read(descriptor, buffer, size)
            if count <= 0 { break }
            total += count
        }
        return total
    }

    static func copyWithCp(_ source: URL, to target: URL) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/cp")
        process.arguments = [source.path, target.path]
        try? process.run()
        process.waitUntilExit()
    }

    static func blockingWrite(_ form: MultipartFormData, to url: URL) {
        let done = DispatchSemaphore(value: 0)
        Task.detached {
            do { try await form.writeEncodedBody(to: url) } catch { print("  write failed: \(error)") }
            done.signal()
        }
        done.wait()
    }

    @MainActor
    static func run(quick: Bool, runs: Int) throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("httpser-bench-\(getpid())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let values = quick ? 250_000 : 25_000_000
        let file = folder.appendingPathComponent("big.bin")
        try writeBinaryFile(to: file, values: values)
        let form = try form(file: file)
        let fileBytes = Double(values * 8)
        let bodyBytes = Double(form.contentLength)

        var hasher = SHA256()
        let produced = drain(form.makeInputStream(), hashing: &hasher)
        let digest = hasher.hexDigest()
        check(produced == Int(form.contentLength), "stream produced \(produced) bytes, contentLength says \(form.contentLength)")
        if !quick {
            check(form.contentLength == 200_001_401, "body length \(form.contentLength) != 200,001,401")
            check(digest == "011055683df2889460494ea3e6672e45b691805cda5ac42d317f7d65c9badb6f", "multipart body digest differs")
        }

        print("")
        print("multipart, 3 fields + \(Int(fileBytes)) byte file, body \(Int(bodyBytes)) bytes\(quick ? "" : ", SHA-256 \(digest.prefix(12))…")")
        let stream = fastest(runs: runs, [{ drain(form.makeInputStream()) }, { plainRead(file) }])
        print("  stream to a discard sink   \(format(bodyBytes / stream[0] / 1e6)) MB/s")
        print("  plain 256 KiB read loop    \(format(fileBytes / stream[1] / 1e6)) MB/s")
        print("  ratio                      \(format((bodyBytes / stream[0]) / (fileBytes / stream[1]), 2))   (target >= 0.8)")
        recordRatio("multipart-stream-vs-read-loop", (bodyBytes / stream[0]) / (fileBytes / stream[1]), target: 0.8)

        let ours = folder.appendingPathComponent("ours.bin")
        let copy = folder.appendingPathComponent("copy.bin")
        let writes = fastest(runs: max(1, runs / 2), [
            { try? FileManager.default.removeItem(at: ours); blockingWrite(form, to: ours) },
            { try? FileManager.default.removeItem(at: copy); copyWithCp(file, to: copy) },
        ])
        check((try? FileManager.default.attributesOfItem(atPath: ours.path)[.size] as? NSNumber)?.uint64Value == form.contentLength,
              "the written body has the wrong size")
        print("  write to a file            \(format(bodyBytes / writes[0] / 1e6)) MB/s")
        print("  cp of the same file        \(format(fileBytes / writes[1] / 1e6)) MB/s")
        print("  ratio                      \(format((bodyBytes / writes[0]) / (fileBytes / writes[1]), 2))   (target >= 0.7)")
        recordRatio("multipart-file-write-vs-cp", (bodyBytes / writes[0]) / (fileBytes / writes[1]), target: 0.7)
        try? FileManager.default.removeItem(at: ours)
        try? FileManager.default.removeItem(at: copy)

        // Memory: a 1 GiB (sparse) file streamed through each adapter.
        let huge = folder.appendingPathComponent("huge.bin")
        let hugeHandle = try emptyFileHandle(huge)
        try hugeHandle.truncate(atOffset: quick ? 64 << 20 : 1 << 30)
        try hugeHandle.close()
        let streamGrowth = PeakRSS.growth("multipart-stream", baseline: "multipart-baseline", argument: huge.path)
        let chunkGrowth = PeakRSS.growth("multipart-chunks", baseline: "multipart-baseline", argument: huge.path)
        let size = quick ? "64 MiB" : "1 GiB"
        if let streamGrowth, let chunkGrowth {
            print("  peak RSS growth, \(size) file, fresh process  InputStream \(format(streamGrowth)) MiB, chunks \(format(chunkGrowth)) MiB   (target <= 16 MiB)")
            if !quick { check(max(streamGrowth, chunkGrowth) <= 16, "multipart streaming grew RSS past 16 MiB") }
        } else {
            print("  peak RSS growth            not measurable here")
        }

        // A small form in memory against multipart-kit's serializer.
        var small = try MultipartFormData(boundary: boundary)
        try small.appendPart(formData: Data(title.utf8), name: "title")
        try small.appendPart(formData: Data("1234567890".utf8), name: "user_id")
        try small.appendPart(formData: Data(description.utf8), name: "description")
        let attachment = Data((0..<16_384).map { UInt8(truncatingIfNeeded: $0 &* 131) })
        try small.appendPart(fileData: attachment, name: "file", fileName: "small.bin", mimeType: "application/octet-stream")
        // multipart-kit's parts for the same form, made from its values.
        func makePeerParts() -> [MultipartPart] {
            var parts: [MultipartPart] = []
            for (name, value) in [("title", title), ("user_id", "1234567890"), ("description", description)] {
                parts.append(MultipartPart(headers: ["Content-Disposition": "form-data; name=\"\(name)\""], body: value))
            }
            parts.append(MultipartPart(
                headers: ["Content-Disposition": "form-data; name=\"file\"; filename=\"small.bin\"", "Content-Type": "application/octet-stream"],
                body: ByteBuffer(bytes: attachment)))
            return parts
        }
        let peerParts = makePeerParts()
        let serializer = MultipartSerializer()
        var peerBuffer = ByteBuffer()
        try serializer.serialize(parts: peerParts, boundary: boundary, into: &peerBuffer)
        check(try small.encodedData() == Data(peerBuffer.readableBytesView), "our small form differs from multipart-kit's bytes")
        let iterations = quick ? 100 : 20_000
        let inMemory = fastest(runs: runs, [
            { for _ in 0..<iterations { consume(try? small.encodedData()) } },
            {
                for _ in 0..<iterations {
                    var buffer = ByteBuffer()
                    try? serializer.serialize(parts: peerParts, boundary: boundary, into: &buffer)
                    consume(buffer)
                }
            },
        ])
        print("  small form in memory (\(small.contentLength) bytes)  ours \(format(Double(iterations) / inMemory[0] / 1e3)) k/s, multipart-kit \(format(Double(iterations) / inMemory[1] / 1e3)) k/s, ratio \(format(inMemory[1] / inMemory[0], 2))x   (target >= 1.5x)")
        recordRatio("multipart-small-form-vs-multipart-kit", inMemory[1] / inMemory[0], target: 1.5)

        // The same form built from its values and encoded, every time, as an app sends it.
        func builtOurs() throws -> Data {
            var form = try MultipartFormData(boundary: boundary)
            try form.appendPart(formData: title, name: "title")
            try form.appendPart(formData: "1234567890", name: "user_id")
            try form.appendPart(formData: description, name: "description")
            try form.appendPart(fileData: attachment, name: "file", fileName: "small.bin", mimeType: "application/octet-stream")
            return try form.encodedData()
        }
        func builtPeer() throws -> ByteBuffer {
            var buffer = ByteBuffer()
            try serializer.serialize(parts: makePeerParts(), boundary: boundary, into: &buffer)
            return buffer
        }
        check(try builtOurs() == Data(try builtPeer().readableBytesView), "our built small form differs from multipart-kit's bytes")
        let built = fastest(runs: runs, [
            { for _ in 0..<iterations { consume(try? builtOurs()) } },
            { for _ in 0..<iterations { consume(try? builtPeer()) } },
        ])
        print("  small form built and encoded   ours \(format(built[0] / Double(iterations) * 1e6, 2)) µs, multipart-kit \(format(built[1] / Double(iterations) * 1e6, 2)) µs, ratio \(format(built[1] / built[0], 2))x   (target >= 1.5x)")
        recordRatio("multipart-small-form-built-vs-multipart-kit", built[1] / built[0], target: 1.5)

        // A form of one large data part (64 MiB of §5's seeded bytes), built and encoded.
        var generator = SplitMix64(seed: 4)
        let large = (0..<((quick ? 1 : 64) << 17)).map { _ in generator.next().littleEndian }.withUnsafeBytes { Data($0) }
        func largeOurs() throws -> Data {
            var form = try MultipartFormData(boundary: boundary)
            try form.appendPart(fileData: large, name: "file", fileName: "large.bin", mimeType: "application/octet-stream")
            return try form.encodedData()
        }
        func largePeer() throws -> ByteBuffer {
            let part = MultipartPart(headers: ["Content-Disposition": "form-data; name=\"file\"; filename=\"large.bin\"", "Content-Type": "application/octet-stream"],
                                     body: ByteBuffer(bytes: large))
            // Room for the whole body up front, as ours has: the serializer is timed, not regrowth.
            var buffer = ByteBufferAllocator().buffer(capacity: large.count + 1024)
            try serializer.serialize(parts: [part], boundary: boundary, into: &buffer)
            return buffer
        }
        let largeBody = try largeOurs()
        check(largeBody == Data(try largePeer().readableBytesView), "our large form differs from multipart-kit's bytes")
        let largeTimes = fastest(runs: runs, [{ consume(try? largeOurs()) }, { consume(try? largePeer()) }])
        print("  form of one \(large.count >> 20) MiB data part, built and encoded   ours \(format(Double(large.count) / largeTimes[0] / 1e6)) MB/s, multipart-kit \(format(Double(large.count) / largeTimes[1] / 1e6)) MB/s, ratio \(format(largeTimes[1] / largeTimes[0], 2))x   (target >= 1x)")
        recordRatio("multipart-large-data-form-vs-multipart-kit", largeTimes[1] / largeTimes[0], target: 1)
    }
}
