import EchoServer
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import SeededGenerators
import Testing
@testable import HTTPSerialization
@testable import HTTPSerializationCodable
@testable import HTTPSerializationCore
@testable import HTTPSerializationFoundation
@testable import HTTPSerializationImages
@testable import HTTPSerializationXML

/// A part body that tries to close its part and smuggle in a field of its own.
private func smuggling(_ boundary: String) -> Data {
    Data("hi\r\n--\(boundary)\r\nContent-Disposition: form-data; name=\"is_admin\"\r\n\r\ntrue".utf8)
}

@Suite("Multipart: part bodies cannot inject parts")
struct MultipartInjectionTests {
    @Test("a data part holding the delimiter is refused when appended")
    func dataPartRefused() throws {
        var form = try MultipartFormData(boundary: "X")
        try form.appendPart(formData: Data("ok".utf8), name: "a")
        #expect(throws: RequestSerializationError.multipartBoundaryInBody(part: "part 2 \"note\"")) {
            try form.appendPart(formData: smuggling("X"), name: "note")
        }
        #expect(throws: RequestSerializationError.multipartBoundaryInBody(part: "part 2 \"f\" (f.txt)")) {
            try form.appendPart(fileData: Data("--X".utf8), name: "f", fileName: "f.txt", mimeType: "text/plain")
        }
        #expect(form.partCount == 1)
    }

    @Test("bodies that only resemble the delimiter are kept", arguments: ["--X", "a--X", "\r\n--Y", "\r\n-X", "\n--X", "\r--X", "\r\n--", "a\r\n"])
    func nearMissesKept(text: String) throws {
        var form = try MultipartFormData(boundary: "X")
        // "--X" at the very start follows the header block's CRLF: that one is a delimiter.
        if text == "--X" {
            #expect(throws: RequestSerializationError.self) { try form.appendPart(formData: Data(text.utf8), name: "a") }
            return
        }
        try form.appendPart(formData: Data(text.utf8), name: "a")
        let parts = try MultipartInteropTests.parse(try form.encodedData(), boundary: "X")
        #expect(parts.map(\.body) == [Data(text.utf8)])
    }

    @Test("a body made of near misses is judged exactly, with or without a real delimiter at its end", arguments: [false, true])
    func nearMissFlood(endsWithDelimiter: Bool) throws {
        let boundary = String(repeating: "ab", count: 30)
        // 20,000 delimiters short of their last byte, each one a candidate compared whole.
        var body = Data(String(repeating: "\r\n--" + boundary.dropLast() + "x", count: 20_000).utf8)
        if endsWithDelimiter { body += Data("\r\n--\(boundary)".utf8) }
        var form = try MultipartFormData(boundary: boundary)
        if endsWithDelimiter {
            #expect(throws: RequestSerializationError.multipartBoundaryInBody(part: #"part 1 "flood""#)) {
                try form.appendPart(formData: body, name: "flood")
            }
        } else {
            try form.appendPart(formData: body, name: "flood")
            let parts = try MultipartInteropTests.parse(try form.encodedData(), boundary: boundary)
            #expect(parts.map(\.body) == [body])
        }
    }

    @Test("a long body in memory is searched for the delimiter at every offset, and only a real one is found",
          arguments: ["X", "boundary-123", String(repeating: "ab", count: 35), "peerbench.boundary.0123456789abcdef"])
    func longBodiesSearchedAtEveryOffset(boundary: String) throws {
        let delimiter = Array("\r\n--\(boundary)".utf8)
        var generator = SplitMix64(seed: 11)
        // Binary noise, the same noise with CR LF every few bytes, and the delimiter's own bytes shuffled.
        let noise = (0..<1500).map { _ in UInt8(truncatingIfNeeded: generator.next()) }
        let lines = noise.enumerated().map { $0.offset % 7 == 0 ? 0x0D : $0.offset % 7 == 1 ? 0x0A : $0.element }
        let shuffled = (0..<1500).map { _ in delimiter[Int(generator.below(UInt64(delimiter.count)))] }
        func reference(_ body: [UInt8]) -> Bool {
            Data(body).range(of: Data(delimiter)) != nil || body.starts(with: delimiter.dropFirst(2))
        }
        func found(_ body: [UInt8]) -> Bool {
            body.withUnsafeBytes { MultipartDelimiterFinder.contains(delimiter: delimiter, in: $0) }
        }
        for base in [noise, lines, shuffled] {
            #expect(found(base) == reference(base), "\(boundary): the body alone")
            for offset in Array(0...70) + [700, 1000] + Array((base.count - 70)...base.count) {
                var body = base
                body.insert(contentsOf: delimiter, at: offset)
                #expect(found(body), "\(boundary): the delimiter at \(offset)")
                // One byte short of whole, at the same place: found only if the body holds another.
                var nearMiss = base
                nearMiss.insert(contentsOf: delimiter.dropLast(), at: offset)
                #expect(found(nearMiss) == reference(nearMiss), "\(boundary): a near miss at \(offset)")
            }
        }
    }

    @Test("a part added with raw headers is checked when the form is encoded")
    func rawHeaderPartCheckedWhenEncoded() throws {
        var form = try MultipartFormData(boundary: "X")
        var headers = HTTPHeaderFields()
        try headers.setValue("form-data; name=\"n\"", forHTTPHeaderField: "Content-Disposition")
        form.appendPart(headers: headers, body: smuggling("X"))
        #expect(throws: RequestSerializationError.multipartBoundaryInBody(part: "part 1")) { try form.encodedData() }
    }

    @Test("file and stream parts are scanned while read, across every chunk edge, and the delimiter never goes out whole",
          arguments: [1, 2, 3, 5, 7, 64, 4096, 65_536])
    func filesAndStreamsScanned(readSize: Int) async throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let boundary = "boundary-123"
        let body = Data(repeating: 0x41, count: 300_000) + smuggling(boundary) + Data(repeating: 0x42, count: 1000)
        let file = try folder.file("evil.txt", contents: body)
        var fileForm = try MultipartFormData(boundary: boundary)
        try fileForm.appendPart(fileURL: file, name: "upload")
        var streamForm = try MultipartFormData(boundary: boundary)
        try streamForm.appendPart(streamFactory: { InputStream(data: body) }, name: "s", fileName: "s.bin", length: UInt64(body.count),
                                  mimeType: "application/octet-stream")
        let delimiter = Data("\r\n--\(boundary)".utf8)
        for (form, label) in [(fileForm, "part 1 \"upload\" (evil.txt)"), (streamForm, "part 1 \"s\" (s.bin)")] {
            // The InputStream adapter: reads stop with the error; what came out never holds the delimiter.
            let stream = form.makeInputStream()
            stream.open()
            var sent = Data()
            var buffer = [UInt8](repeating: 0, count: readSize)
            while true {
                let count = stream.read(&buffer, maxLength: readSize)
                if count <= 0 { break }
                sent.append(buffer, count: count)
            }
            #expect(stream.streamStatus == .error)
            #expect((stream.streamError as? RequestSerializationError) == .multipartBoundaryInBody(part: label))
            stream.close()
            #expect(sent.range(of: delimiter, in: 20..<sent.count) == nil)
            await #expect(throws: RequestSerializationError.multipartBoundaryInBody(part: label)) {
                try await collectChunks(form, size: readSize)
            }
        }
    }

    @Test("seeded property: the scanner finds a delimiter at any offset under any chunking, and only a real one")
    func scannerProperty() {
        var random = SplitMix64(seed: 6_060)
        let boundaries = ["X", "--", "----", "ab", "Boundary-0F3A", "peerbench.boundary.0123456789abcdef", "a-a-a-a", "9"]
        for round in 0..<400 {
            let boundary = boundaries[round % boundaries.count]
            let delimiter = Array("\r\n--\(boundary)".utf8)
            // Bodies rich in the delimiter's own bytes, so near misses are common.
            let alphabet = Array(Set(delimiter + Array("\r\n-xy".utf8))).sorted()
            var body = (0..<random.range(0, 20_000)).map { _ in alphabet[random.range(0, alphabet.count - 1)] }
            // Remove accidental delimiters (and a leading "--boundary") so only the planted one
            // counts: the last byte of each becomes "x", which no delimiter here contains.
            func scrub(_ bytes: inout [UInt8]) {
                var framed = [0x0D, 0x0A] + bytes
                var index = 0
                while index + delimiter.count <= framed.count {
                    if Array(framed[index..<(index + delimiter.count)]) == delimiter {
                        framed[index + delimiter.count - 1] = UInt8(ascii: "x")
                    }
                    index += 1
                }
                bytes = Array(framed.dropFirst(2))
            }
            scrub(&body)
            let planted = random.range(0, 1) == 1
            if planted {
                let at = random.range(0, body.count)
                body.insert(contentsOf: delimiter, at: at)
            }
            var scanner = MultipartDelimiterScanner(boundary: boundary)
            var found = false
            var offset = 0
            while offset < body.count, !found {
                let size = [1, 3, 7, 100, 4096, 5000, 65_536][random.range(0, 6)]
                let end = min(body.count, offset + size)
                found = body[offset..<end].withUnsafeBytes { scanner.scan($0) }
                offset = end
            }
            #expect(found == planted, "boundary \(boundary), \(body.count) bytes, planted \(planted)")
        }
    }

    @Test("writing a body to a file stops at the delimiter with a typed error")
    func fileWriterStops() async throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        var form = try MultipartFormData(boundary: "B")
        try form.appendPart(fileURL: try folder.file("a.txt", contents: smuggling("B")), name: "a")
        await #expect(throws: RequestSerializationError.multipartBoundaryInBody(part: "part 1 \"a\" (a.txt)")) {
            try await form.writeEncodedBody(to: folder.url.appendingPathComponent("out"))
        }
    }
}

@Suite("Multipart: boundaries that need quoting")
struct MultipartBoundaryQuotingTests {
    @Test("boundaries with RFC 2045 tspecials are quoted in Content-Type; plain ones are not", arguments: [
        ("simple-Boundary_1.x+y'z", false), ("a b", true), ("a(b)", true), ("a,b", true), ("a/b", true), ("a:b", true),
        ("a=b", true), ("a?b", true),
    ])
    func quoting(boundary: String, quoted: Bool) throws {
        let form = try MultipartFormData(boundary: boundary)
        #expect(form.contentType == (quoted ? "multipart/form-data; boundary=\"\(boundary)\"" : "multipart/form-data; boundary=\(boundary)"))
    }

    @Test("random boundaries never need quoting")
    func randomUnquoted() {
        #expect(!MultipartFormData().contentType.contains("\""))
    }

    @Test("a quoted boundary round-trips through a real upload and the echo server's parser")
    func quotedRoundTrip() async throws {
        let server = try await EchoServer.start()
        let serializer = HTTPRequestSerializer(headers: HTTPHeaderFields())
        var form = try MultipartFormData(boundary: "my boundary: (v=1)?")
        try form.appendPart(formData: Data("1".utf8), name: "a")
        try form.appendPart(fileData: Data("xyz".utf8), name: "f", fileName: "f.txt", mimeType: "text/plain")
        let request = try serializer.request(method: "POST", urlString: server.baseURL.absoluteString + "/upload", multipartForm: form)
        let report = try await URLSession(configuration: .ephemeral)
            .uploadMultipart(request, form: form, serializer: DecodableResponseSerializer(EchoReport.self)).output
        try await server.stop()
        #expect(report.parts?.map(\.name) == ["a", "f"])
        #expect(report.values(of: "Content-Type") == ["multipart/form-data; boundary=\"my boundary: (v=1)?\""])
        let parts = try MultipartInteropTests.parse(try form.encodedData(), boundary: form.boundary)
        #expect(parts.map(\.body) == [Data("1".utf8), Data("xyz".utf8)])
    }
}
