import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing
@testable import HTTPSerialization
@testable import HTTPSerializationCodable
@testable import HTTPSerializationCore
@testable import HTTPSerializationFoundation
@testable import HTTPSerializationImages
@testable import HTTPSerializationXML

@Suite("Multipart: wire format, headers and safety")
struct MultipartFormDataTests {
    /// AFNetworking's boundary shape, `Boundary+%08X%08X`: 25 characters.
    static let afBoundary = "Boundary+0123456789ABCDEF"

    @Test("af-test-cases §1 #8: a .cer file part is typed application/x-x509-ca-cert on every platform")
    func cerMIMEType() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let certificate = try folder.file("adn_0.cer", contents: Data([0x30, 0x82, 0x01, 0x0A]))
        var form = try MultipartFormData(boundary: Self.afBoundary)
        try form.appendPart(fileURL: certificate, name: "test")
        let text = String(decoding: try form.encodedData(), as: UTF8.self)
        #expect(text.hasPrefix("--\(Self.afBoundary)\r\nContent-Disposition: form-data; name=\"test\"; filename=\"adn_0.cer\"\r\nContent-Type: application/x-x509-ca-cert\r\n\r\n"))
    }

    @Test("the 244-byte vector: a form field and a file part, AF's testPOSTWithConstructingBody")
    func twoHundredFortyFourByteVector() throws {
        let request = try HTTPRequestSerializer(headers: HTTPHeaderFields()).multipartFormRequest(
            method: "POST", urlString: "http://127.0.0.1/post", parameters: ["key": "value"], boundary: Self.afBoundary
        ) { form in
            try form.appendPart(fileData: bytes("Data"), name: "DataName", fileName: "DataFileName", mimeType: "data")
        }
        let expected = "--Boundary+0123456789ABCDEF\r\n"
            + "Content-Disposition: form-data; name=\"key\"\r\n\r\nvalue"
            + "\r\n--Boundary+0123456789ABCDEF\r\n"
            + "Content-Disposition: form-data; name=\"DataName\"; filename=\"DataFileName\"\r\nContent-Type: data\r\n\r\nData"
            + "\r\n--Boundary+0123456789ABCDEF--\r\n"
        let body = try readAll(try #require(request.httpBodyStream))
        #expect(body == bytes(expected))
        #expect(body.count == 244)
        #expect(request.value(forHTTPHeaderField: "Content-Length") == "244")
        #expect(request.value(forHTTPHeaderField: "Content-Type") == "multipart/form-data; boundary=Boundary+0123456789ABCDEF")
    }

    @Test("the 64-byte vector: one part with no headers and an empty body")
    func sixtyFourByteVector() throws {
        var form = try MultipartFormData(boundary: Self.afBoundary)
        form.appendPart(headers: HTTPHeaderFields(), body: Data())
        let body = try form.encodedData()
        #expect(body == bytes("--Boundary+0123456789ABCDEF\r\n\r\n\r\n--Boundary+0123456789ABCDEF--\r\n"))
        #expect(body.count == 64)
        #expect(form.contentLength == 64)
    }

    @Test("name and filename escape quote, CR and LF as %22, %0D, %0A")
    func dispositionEscaping() throws {
        var form = try MultipartFormData(boundary: "b")
        try form.appendPart(fileData: Data(), name: "a\"b\r\nc", fileName: "evil\".txt\r\nX-Injected: 1", mimeType: "text/plain")
        let text = String(decoding: try form.encodedData(), as: UTF8.self)
        #expect(text.contains("Content-Disposition: form-data; name=\"a%22b%0D%0Ac\"; filename=\"evil%22.txt%0D%0AX-Injected: 1\"\r\n"))
        #expect(!text.contains("\r\nX-Injected"))
    }

    @Test("a MIME type or name with control characters is refused")
    func unsafeHeaderValuesRefused() throws {
        var form = MultipartFormData()
        #expect(throws: RequestSerializationError.self) {
            try form.appendPart(fileData: Data(), name: "f", fileName: "f", mimeType: "text/plain\r\nX: 1")
        }
        #expect(throws: RequestSerializationError.self) { try form.appendPart(formData: Data(), name: "bell\u{7}") }
        #expect(form.isEmpty)
    }

    @Test("raw part headers come out Content-Disposition, Content-Type, then as given")
    func stableHeaderOrder() throws {
        var headers = HTTPHeaderFields()
        try headers.setValue("1", forHTTPHeaderField: "X-First")
        try headers.setValue("text/plain", forHTTPHeaderField: "content-type")
        try headers.setValue("form-data; name=\"n\"", forHTTPHeaderField: "Content-Disposition")
        try headers.setValue("2", forHTTPHeaderField: "X-Second")
        var form = try MultipartFormData(boundary: "b")
        form.appendPart(headers: headers, body: bytes("x"))
        let text = String(decoding: try form.encodedData(), as: UTF8.self)
        #expect(text == "--b\r\nContent-Disposition: form-data; name=\"n\"\r\ncontent-type: text/plain\r\nX-First: 1\r\nX-Second: 2\r\n\r\nx\r\n--b--\r\n")
    }

    @Test("an injected boundary is validated against RFC 2046", arguments: [
        "", String(repeating: "a", count: 71), "ends with space ", "semi;colon", "quote\"", "line\r\nbreak", "ünicode",
    ])
    func invalidBoundaries(boundary: String) {
        #expect(throws: RequestSerializationError.self) { try MultipartFormData(boundary: boundary) }
    }

    @Test("valid boundaries of every allowed character are accepted")
    func validBoundaries() throws {
        _ = try MultipartFormData(boundary: String(repeating: "z", count: 70))
        _ = try MultipartFormData(boundary: "a'()+_,-./:=? b")
    }

    @Test("default boundaries carry 128 random bits and differ")
    func randomBoundaries() {
        let boundaries = Set((0..<100).map { _ in MultipartFormData().boundary })
        #expect(boundaries.count == 100)
        for boundary in boundaries {
            #expect(boundary.hasPrefix("Boundary-"))
            #expect(boundary.count == "Boundary-".count + 32)
        }
    }

    @Test("file parts are checked when appended")
    func fileChecksAtAppend() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        var form = MultipartFormData()
        #expect(throws: RequestSerializationError.multipartSourceUnavailable(
            part: "part 1 \"f\" (x)", reason: "https://example.com/x is not a file URL")) {
            try form.appendPart(fileURL: URL(string: "https://example.com/x")!, name: "f")
        }
        #expect(throws: RequestSerializationError.self) {
            try form.appendPart(fileURL: folder.url.appendingPathComponent("missing.bin"), name: "f")
        }
        do {
            try form.appendPart(fileURL: folder.url, name: "f")
            Issue.record("a directory was accepted")
        } catch let RequestSerializationError.multipartSourceUnavailable(_, reason) {
            #expect(reason.hasSuffix("is a directory"))
        }
        #expect(form.isEmpty)
    }

    @Test("the MIME table is large, case-insensitive and falls back to octet-stream")
    func mimeTable() {
        #expect(MIMETypes.knownExtensions.count >= 150)
        let expected = [
            "cer": "application/x-x509-ca-cert", "json": "application/json", "PNG": "image/png", "jpg": "image/jpeg",
            "jpeg": "image/jpeg", "gif": "image/gif", "webp": "image/webp", "svg": "image/svg+xml", "pdf": "application/pdf",
            "zip": "application/zip", "gz": "application/gzip", "txt": "text/plain", "html": "text/html", "css": "text/css",
            "js": "text/javascript", "mp4": "video/mp4", "mp3": "audio/mpeg", "wav": "audio/wav", "csv": "text/csv",
            "xml": "application/xml", "heic": "image/heic", ".Json": "application/json",
        ]
        for (pathExtension, type) in expected {
            #expect(MIMETypes.type(forPathExtension: pathExtension) == type)
        }
        #expect(MIMETypes.type(forPathExtension: "nope") == "application/octet-stream")
        #expect(MIMETypes.type(forFileName: "archive.tar.gz") == "application/gzip")
        #expect(MIMETypes.type(forFileName: "README") == "application/octet-stream")
        #expect(MIMETypes.type(forFileName: ".hidden") == "application/octet-stream")
    }
}

@Suite("Multipart: requests")
struct MultipartRequestTests {
    let serializer = HTTPRequestSerializer(headers: HTTPHeaderFields())

    @Test("GET and HEAD cannot carry a multipart body", arguments: ["GET", "HEAD", "get"])
    func bodylessMethodsRefused(method: String) {
        #expect(throws: RequestSerializationError.multipartMethodNotAllowed(method)) {
            try serializer.multipartFormRequest(method: method, urlString: "http://x", parameters: ["a": 1])
        }
    }

    @Test("an empty form leaves the request without a body or multipart headers")
    func emptyForm() throws {
        let request = try serializer.multipartFormRequest(method: "POST", urlString: "http://x")
        #expect(request.httpBodyStream == nil)
        #expect(request.httpBody == nil)
        #expect(request.value(forHTTPHeaderField: "Content-Type") == nil)
    }

    @Test("parameters become fields: bracket names unescaped, Data raw, null empty, sets repeated")
    func parametersAsFields() throws {
        let parameters: ParameterValue = [
            "user": ["tags": ["a b", "c"], "name": "Ann"], "blob": .data(Data([0, 255])), "none": nil, "flag": true,
        ]
        let request = try serializer.multipartFormRequest(method: "POST", urlString: "http://x", parameters: parameters, boundary: "b")
        let text = String(decoding: try readAll(try #require(request.httpBodyStream)), as: UTF8.self)
        func field(_ name: String, _ value: String) -> String {
            "Content-Disposition: form-data; name=\"\(name)\"\r\n\r\n\(value)"
        }
        let expected = "--b\r\n" + [
            field("blob", "\u{0}\u{FFFD}"), field("flag", "1"), field("none", ""), field("user[name]", "Ann"),
            field("user[tags][]", "a b"), field("user[tags][]", "c"),
        ].joined(separator: "\r\n--b\r\n") + "\r\n--b--\r\n"
        #expect(text == expected)
    }

    @Test("the serializer's headers and properties carry over; Content-Length is exact")
    func headersAndLength() throws {
        var serializer = serializer
        try serializer.setValue("v", forHTTPHeaderField: "X-Default")
        serializer.timeoutInterval = 9
        let request = try serializer.multipartFormRequest(method: "PUT", urlString: "http://x") { form in
            try form.appendPart(formData: bytes("1"), name: "a")
        }
        #expect(request.value(forHTTPHeaderField: "X-Default") == "v")
        #expect(request.timeoutInterval == 9)
        #expect(request.httpMethod == "PUT")
        let body = try readAll(try #require(request.httpBodyStream))
        #expect(request.value(forHTTPHeaderField: "Content-Length") == String(body.count))
    }

    @Test("writing the stream to a file gives the same bytes and a request without a stream")
    func writingStreamContentsToFile() async throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let payload = Data((0..<300_000).map { UInt8(truncatingIfNeeded: $0 &* 31) })
        let source = try folder.file("payload.bin", contents: payload)
        var form = try MultipartFormData(boundary: "file-boundary")
        try form.appendPart(formData: bytes("value"), name: "key")
        try form.appendPart(fileURL: source, name: "file")
        let request = try serializer.request(method: "POST", urlString: "http://x", multipartForm: form)
        let target = folder.url.appendingPathComponent("body.bin")
        let written = try await serializer.request(withMultipartFormRequest: request, writingStreamContentsTo: target)
        #expect(written.httpBodyStream == nil)
        #expect(written.value(forHTTPHeaderField: "Content-Length") == String(form.contentLength))
        #expect(try Data(contentsOf: target) == form.encodedData())
    }

    @Test("any other body stream is copied to the file as it reads")
    func writingForeignStream() async throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        var request = URLRequest(url: URL(string: "http://x")!)
        request.httpMethod = "POST"
        request.httpBodyStream = InputStream(data: bytes("plain body"))
        let target = folder.url.appendingPathComponent("body.bin")
        _ = try await serializer.request(withMultipartFormRequest: request, writingStreamContentsTo: target)
        #expect(try Data(contentsOf: target) == bytes("plain body"))
        await #expect(throws: RequestSerializationError.self) {
            try await serializer.request(withMultipartFormRequest: URLRequest(url: URL(string: "http://x")!), writingStreamContentsTo: target)
        }
    }
}
