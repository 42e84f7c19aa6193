#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Testing
import HTTPSerializationCore

@Suite("MultipartForm: fields, files in memory or spilled, temporary files removed on every path")
struct MultipartFormTests {
    /// A fresh directory for one test's temporary files, and the files in it.
    struct Scratch {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("httpser-form-\(UUID().uuidString)")
        init() throws { try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true) }
        var files: [String] { ((try? FileManager.default.contentsOfDirectory(atPath: url.path)) ?? []).sorted() }
        func remove() { try? FileManager.default.removeItem(at: url) }
    }

    static let big = (0..<300_000).map { UInt8(truncatingIfNeeded: $0 &* 13 &+ 5) }

    static func form() throws -> MultipartFormData {
        var form = try MultipartFormData(boundary: "form-tests")
        try form.appendPart(formData: Data("Holiday".utf8), name: "title")
        try form.appendPart(formData: Data("sea".utf8), name: "tags")
        try form.appendPart(fileData: Data("small file".utf8), name: "note", fileName: "note.txt", mimeType: "text/plain")
        try form.appendPart(formData: Data("sun".utf8), name: "tags")
        try form.appendPart(fileData: Data(big), name: "photo", fileName: "photo.bin", mimeType: "application/octet-stream")
        return form
    }

    @Test("fields keep their order and repeats; a small file stays in memory, a large one spills, and goes with its last reference")
    func readsAndSpills() async throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let form = try Self.form()
        var spilled: URL?
        do {
            let read = try await MultipartForm.read(ChunkedBody(Array(try form.encodedData()), chunkSize: 7000), contentType: form.contentType,
                                                    spillThreshold: 64 << 10, temporaryDirectory: scratch.url)
            #expect(read.fields.map(\.name) == ["title", "tags", "tags"])
            #expect(read.value(named: "title") == "Holiday" && read.values(named: "tags") == ["sea", "sun"])
            #expect(read.pairs == [QueryStringPair(field: "title", value: "Holiday"), QueryStringPair(field: "tags", value: "sea"),
                                   QueryStringPair(field: "tags", value: "sun")])
            let note = try #require(read.file(named: "note"))
            #expect(try note.temporaryFileURL == nil && note.data() == Data("small file".utf8) && note.contentType == "text/plain")
            let photo = try #require(read.file(named: "photo"))
            spilled = photo.temporaryFileURL
            #expect(photo.size == Self.big.count && photo.fileName == "photo.bin")
            #expect(try photo.data() == Data(Self.big))
            #expect(scratch.files.count == 1)
        }
        #expect(spilled != nil)
        #expect(scratch.files.isEmpty, "the temporary file outlived the form")
    }

    @Test("the same form read from memory gives the same fields and files")
    func readsFromMemory() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let form = try Self.form()
        let read = try MultipartForm.read(try form.encodedData(), contentType: form.contentType, spillThreshold: 1 << 30, temporaryDirectory: scratch.url)
        #expect(read.files.map(\.fieldName) == ["note", "photo"])
        #expect(read.files.allSatisfy { $0.temporaryFileURL == nil })
        #expect(scratch.files.isEmpty)
    }

    @Test("move(to:) keeps the file where it is put, and removes the temporary one")
    func movesFiles() async throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let form = try Self.form()
        let destination = scratch.url.appendingPathComponent("kept.bin")
        do {
            let read = try MultipartForm.read(try form.encodedData(), contentType: form.contentType, spillThreshold: 1024, temporaryDirectory: scratch.url)
            try #require(read.file(named: "photo")).move(to: destination)
            try #require(read.file(named: "note")).move(to: scratch.url.appendingPathComponent("note.txt"))
            #expect(throws: MultipartParsingError.self) { try read.file(named: "photo")?.move(to: destination) }
        }
        #expect(scratch.files == ["kept.bin", "note.txt"])
        #expect(try Data(contentsOf: destination) == Data(Self.big))
    }

    @Test("a body cut short, or a cancelled read, leaves no temporary file behind")
    func errorsAndCancellationRemoveFiles() async throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let form = try Self.form()
        let body = Array(try form.encodedData())
        await #expect(throws: MultipartParsingError.self) {
            _ = try await MultipartForm.read(ChunkedBody(Array(body.dropLast(5000)), chunkSize: 4096), contentType: form.contentType,
                                             spillThreshold: 1024, temporaryDirectory: scratch.url)
        }
        #expect(scratch.files.isEmpty)
        let directory = scratch.url
        let contentType = form.contentType
        /// The chunks the reader has pulled so far.
        final class Count: @unchecked Sendable {
            // Only `prefix`'s predicate touches it, which the one task iterating the body
            // calls one chunk at a time.
            var value = 0
        }
        let task = Task {
            let chunks = Count()
            return try await MultipartForm.read(ChunkedBody(body, chunkSize: 1000).prefix { _ in
                chunks.value += 1
                if chunks.value == 200 { withUnsafeCurrentTask { $0?.cancel() } }
                return true
            }, contentType: contentType, spillThreshold: 1024, temporaryDirectory: directory)
        }
        await #expect(throws: CancellationError.self) { _ = try await task.value }
        #expect(scratch.files.isEmpty)
    }

    @Test("a form that would keep more temporary files than maximumSpilledFiles stops with tooManySpilledFiles and leaves none; small files do not count")
    func spilledFileLimit() async throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        var form = try MultipartFormData(boundary: "spills")
        for index in 0..<40 {
            try form.appendPart(fileData: Data("tiny \(index)".utf8), name: "small[]", fileName: "s\(index).txt", mimeType: "text/plain")
        }
        for index in 0..<6 {
            try form.appendPart(fileData: Data(repeating: UInt8(index), count: 2000), name: "large[]", fileName: "l\(index).bin", mimeType: "application/octet-stream")
        }
        let body = Array(try form.encodedData())
        var limits = MultipartParsingLimits()
        limits.maximumSpilledFiles = 6
        let read = try await MultipartForm.read(ChunkedBody(body, chunkSize: 512), contentType: form.contentType, limits: limits,
                                                spillThreshold: 1024, temporaryDirectory: scratch.url)
        #expect(read.files.count == 46 && scratch.files.count == 6)
        limits.maximumSpilledFiles = 5
        await #expect(throws: MultipartParsingError.tooManySpilledFiles(limit: 5)) {
            _ = try await MultipartForm.read(ChunkedBody(body, chunkSize: 512), contentType: form.contentType, limits: limits,
                                             spillThreshold: 1024, temporaryDirectory: scratch.url)
        }
        // The six from the first read are still held by it; the refused read left none.
        #expect(scratch.files.count == 6)
        withExtendedLifetime(read) {}
        #expect(MultipartParsingLimits().maximumSpilledFiles == 100)
    }

    @Test("a directory that refuses the temporary file is temporaryFileFailed")
    func refusedDirectory() throws {
        let form = try Self.form()
        let missing = URL(fileURLWithPath: "/nonexistent-httpser-\(UUID().uuidString)")
        #expect {
            _ = try MultipartForm.read(try form.encodedData(), contentType: form.contentType, spillThreshold: 1024, temporaryDirectory: missing)
        } throws: { error in
            guard case MultipartParsingError.temporaryFileFailed(let path, _) = error else { return false }
            return path.hasPrefix(missing.path)
        }
    }

    static let rfc2388 = """
        --AaB03x\r
        Content-Disposition: form-data; name="submit-name"\r
        \r
        Larry\r
        --AaB03x\r
        Content-Disposition: form-data; name="files"\r
        Content-Type: multipart/mixed; boundary=BbC04y\r
        \r
        --BbC04y\r
        Content-Disposition: file; filename="file1.txt"\r
        Content-Type: text/plain\r
        \r
        ... contents of file1.txt ...\r
        --BbC04y\r
        Content-Disposition: file; filename="file2.gif"\r
        Content-Type: image/gif\r
        \r
        ...contents of file2.gif...\r
        --BbC04y--\r
        --AaB03x--\r

        """

    @Test("RFC 2388's several files in one multipart/mixed part become files under the outer name; deeper nesting is refused")
    func nestedMixed() throws {
        let read = try MultipartForm.read(Data(Self.rfc2388.utf8), contentType: "multipart/form-data; boundary=AaB03x")
        #expect(read.value(named: "submit-name") == "Larry")
        #expect(read.files.map(\.fieldName) == ["files", "files"])
        #expect(read.files.map(\.fileName) == ["file1.txt", "file2.gif"])
        #expect(read.files.map(\.contentType) == ["text/plain", "image/gif"])
        #expect(try read.files[0].data() == Data("... contents of file1.txt ...".utf8))

        var limits = MultipartParsingLimits()
        limits.maximumNestingDepth = 0
        #expect(throws: MultipartParsingError.nestingTooDeep(limit: 0)) {
            _ = try MultipartForm.read(Data(Self.rfc2388.utf8), contentType: "multipart/form-data; boundary=AaB03x", limits: limits)
        }
    }
}

@Suite("Multipart parser: other multipart types, and values made by hand")
struct MultipartOtherTypesTests {
    @Test("multipart/byteranges and multipart/related read without names, their heads kept")
    func byterangesAndRelated() throws {
        let ranges = "--R\r\nContent-Type: text/plain\r\nContent-Range: bytes 0-3/10\r\n\r\nabcd\r\n--R\r\nContent-Type: text/plain\r\nContent-Range: bytes 7-9/10\r\n\r\nhij\r\n--R--\r\n"
        let parts = try MultipartBodyParser.parts(of: Data(ranges.utf8), contentType: "multipart/byteranges; boundary=R")
        #expect(parts.map { $0.head.headers.value(forHTTPHeaderField: "content-range") } == ["bytes 0-3/10", "bytes 7-9/10"])
        #expect(parts.map(\.body) == [Data("abcd".utf8), Data("hij".utf8)])
        let related = "--r\r\nContent-ID: <root>\r\nContent-Type: application/json\r\n\r\n{}\r\n--r\r\nContent-ID: <img>\r\n\r\n\u{1}\r\n--r--"
        let relatedParts = try MultipartBodyParser.parts(of: Data(related.utf8), contentType: "multipart/related; type=\"application/json\"; boundary=r")
        #expect(relatedParts.map { $0.head.headers.value(forHTTPHeaderField: "Content-ID") } == ["<root>", "<img>"])
        #expect(relatedParts.allSatisfy { $0.head.name == nil && !$0.head.isFile })
    }

    @Test("fields and in-memory files made by hand read like received ones")
    func madeByHand() throws {
        let file = MultipartFile(fieldName: "photo", fileName: "a.png", contentType: "image/png", data: Data([1, 2, 3]))
        #expect(try file.data() == Data([1, 2, 3]))
        #expect(file.size == 3 && file.temporaryFileURL == nil && file.head.contentType == "image/png" && file.head.isFile)
        let form = MultipartForm(fields: [MultipartForm.Field(name: "title", value: "T")], files: [file])
        #expect(form.value(named: "title") == "T" && form.file(named: "photo") == file)
    }
}
