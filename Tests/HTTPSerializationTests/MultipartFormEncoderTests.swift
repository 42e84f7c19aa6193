import Foundation
import HTTPSerialization
import MultipartKit
import Testing

@Suite("Encodable models as multipart/form-data: multipart-kit's FormDataEncoder, streaming")
struct MultipartFormEncoderTests {
    struct Address: Codable, Equatable {
        var street: String
        var zip: String
    }

    struct Profile: Codable, Equatable {
        var name: String
        var age: Int
        var score: Double
        var admin: Bool
        var tags: [String]
        var address: Address
        var nickname: String?
        var avatar: Data
        var attachments: [Data]
    }

    static let profile = Profile(
        name: "Ada Lovelace", age: 36, score: 99.5, admin: true, tags: ["math", "engines"],
        address: Address(street: "12 St James's Sq", zip: "SW1Y"), nickname: nil,
        avatar: Data([0x89, 0x50, 0x4E, 0x47, 0x00, 0xFF]), attachments: [Data("one".utf8), Data("two".utf8)])

    static func read(_ form: MultipartFormData) throws -> MultipartForm {
        try MultipartForm.read(try form.encodedData(), contentType: form.contentType)
    }

    @Test("a model round-trips through the form, MultipartForm and FormDecoder; data values are file parts")
    func roundTrip() throws {
        let form = try MultipartFormEncoder().encode(Self.profile)
        let received = try Self.read(form)
        #expect(try FormDecoder().decode(Profile.self, from: received) == Self.profile)
        #expect(try MultipartFormDecoder().decode(Profile.self, from: try form.encodedData(), contentType: form.contentType) == Self.profile)
        // Fields as FormEncoder names and writes them; nil left out; data as files.
        #expect(received.value(named: "address[zip]") == "SW1Y")
        #expect(received.values(named: "tags[]") == ["math", "engines"])
        #expect(received.value(named: "admin") == "1")
        #expect(received.value(named: "nickname") == nil)
        let avatar = try #require(received.file(named: "avatar"))
        #expect(avatar.fileName == "avatar")
        #expect(avatar.contentType == "application/octet-stream")
        #expect(received.files.filter { $0.fieldName == "attachments[]" }.map(\.fileName) == ["attachments", "attachments"])
    }

    @Test("the exact body: fields in the style's sorted order, one part each, with its headers")
    func exactBody() throws {
        struct Small: Encodable { var b: [Int]; var a: String; var file: Data }
        let form = try MultipartFormEncoder().encode(Small(b: [1, 2], a: "x y", file: Data("hi".utf8)), boundary: "B")
        let expected = "--B\r\nContent-Disposition: form-data; name=\"a\"\r\n\r\nx y\r\n"
            + "--B\r\nContent-Disposition: form-data; name=\"b[]\"\r\n\r\n1\r\n"
            + "--B\r\nContent-Disposition: form-data; name=\"b[]\"\r\n\r\n2\r\n"
            + "--B\r\nContent-Disposition: form-data; name=\"file\"; filename=\"file\"\r\nContent-Type: application/octet-stream\r\n\r\nhi\r\n"
            + "--B--\r\n"
        #expect(String(decoding: try form.encodedData(), as: UTF8.self) == expected)
        #expect(form.contentLength == UInt64(expected.utf8.count))
    }

    @Test("other styles name fields their way and read back with a FormDecoder of the same style")
    func styles() throws {
        let style = QueryStringStyle(arrayEncoding: .indexed, keyEncoding: .dotted, boolEncoding: .literal, dateEncoding: .iso8601)
        struct Dated: Codable, Equatable { var when: Date; var profile: Profile }
        let value = Dated(when: Date(timeIntervalSince1970: 1_700_000_000), profile: Self.profile)
        let form = try MultipartFormEncoder(style: style).encode(value)
        let received = try Self.read(form)
        #expect(received.value(named: "profile.tags[1]") == "engines")
        #expect(received.value(named: "profile.admin") == "true")
        #expect(received.value(named: "when") == "2023-11-14T22:13:20Z")
        #expect(received.file(named: "profile.attachments[1]")?.fileName == "attachments")
        #expect(try FormDecoder(style: style, dateDecoding: .iso8601).decode(Dated.self, from: received) == value)
    }

    @Test("multipart-kit's FormDataDecoder reads the body into the same model")
    func multipartKitReadsIt() throws {
        struct Upload: Codable, Equatable {
            struct Owner: Codable, Equatable { var name: String; var id: Int }
            var title: String
            var public_: Bool
            var ratio: Double
            var owner: Owner
            var labels: [String]
            var file: Data
        }
        let upload = Upload(title: "Report \"Q3\"", public_: false, ratio: 0.25, owner: .init(name: "Grace", id: 7),
                            labels: ["x", "y"], file: Data((0..<200).map { UInt8($0) }))
        let style = QueryStringStyle(boolEncoding: .literal)
        let form = try MultipartFormEncoder(style: style).encode(upload, boundary: "kit-boundary")
        let decoded = try FormDataDecoder().decode(Upload.self, from: Array(try form.encodedData()), boundary: "kit-boundary")
        #expect(decoded == upload)
    }

    @Test("a received file, even one spilled to a temporary file, is sent on with its name and type, streamed, and kept while the form lives")
    func receivedFilesAreSentOn() throws {
        struct Forward: Encodable { var note: String; var upload: MultipartFile }
        let big = Data((0..<300_000).map { UInt8(truncatingIfNeeded: $0 &* 31) })
        var incoming = try MultipartFormData(boundary: "in")
        try incoming.appendPart(fileData: big, name: "upload", fileName: "scan \"1\".pdf", mimeType: "application/pdf")
        var form: MultipartFormData
        var temporary: URL?
        do {
            // The received form goes away; the encoded one must keep the temporary file.
            let received = try MultipartForm.read(try incoming.encodedData(), contentType: incoming.contentType, spillThreshold: 1024)
            let file = try #require(received.file(named: "upload"))
            temporary = file.temporaryFileURL
            #expect(temporary != nil)
            form = try MultipartFormEncoder().encode(Forward(note: "fwd", upload: file))
        }
        #expect(FileManager.default.fileExists(atPath: try #require(temporary).path))
        let again = try Self.read(form)
        let forwarded = try #require(again.file(named: "upload"))
        #expect(forwarded.fileName == "scan \"1\".pdf")
        #expect(forwarded.contentType == "application/pdf")
        #expect(try forwarded.data() == big)
        #expect(again.value(named: "note") == "fwd")
        form = MultipartFormData()
        #expect(!FileManager.default.fileExists(atPath: try #require(temporary).path))
    }

    @Test("what a form cannot hold is a typed error: a bare value, too deep a model, a file outside a form, the boundary in a field")
    func badModels() throws {
        let bare = #expect(throws: RequestSerializationError.self) { try MultipartFormEncoder().encode(["a", "b"]) }
        guard case .invalidParameter? = bare else { Issue.record("got \(String(describing: bare))"); return }
        #expect(throws: RequestSerializationError.self) { try MultipartFormEncoder().encode("text") }

        final class Node: Encodable { var child: Node?; init(_ child: Node?) { self.child = child } }
        var deep: Node? = nil
        for _ in 0..<20 { deep = Node(deep) }
        let tooDeep = #expect(throws: RequestSerializationError.self) { try MultipartFormEncoder(maximumDepth: 10).encode(deep!) }
        guard case .nestingTooDeep? = tooDeep else { Issue.record("got \(String(describing: tooDeep))"); return }

        struct Holder: Encodable { var file: MultipartFile }
        let file = MultipartFile(fieldName: "f", fileName: "a.txt", contentType: "text/plain", data: Data("a".utf8))
        #expect(throws: EncodingError.self) { try JSONEncoder().encode(Holder(file: file)) }
        #expect(throws: EncodingError.self) { try FormEncoder().encode(Holder(file: file)) }

        struct Field: Encodable { var text: String }
        let injected = #expect(throws: RequestSerializationError.self) {
            try MultipartFormEncoder().encode(Field(text: "a\r\n--B\r\nContent-Disposition: form-data; name=\"admin\"\r\n\r\n1"), boundary: "B")
        }
        guard case .multipartBoundaryInBody? = injected else { Issue.record("got \(String(describing: injected))"); return }
    }

    @Test("file names come from the property's key, never a path; files in lists keep their order")
    func fileNamesAndLists() throws {
        let named = try Self.read(try MultipartFormEncoder().encode(["report.pdf": Data("r".utf8), "../../etc/passwd": Data("p".utf8), "2024": Data("y".utf8)]))
        #expect(Set(named.files.map { $0.fileName ?? "" }) == ["report.pdf", "passwd", "2024"])
        struct Album: Encodable { var title: String; var photos: [MultipartFile] }
        let photos = (0..<3).map { MultipartFile(fieldName: "x", fileName: nil, contentType: "image/png", data: Data([UInt8($0)])) }
        let album = try Self.read(try MultipartFormEncoder().encode(Album(title: "t", photos: photos)))
        #expect(album.files.map(\.fieldName) == ["photos[]", "photos[]", "photos[]"])
        #expect(album.files.map(\.fileName) == ["photos", "photos", "photos"])
        #expect(try album.files.map { try $0.data() } == [Data([0]), Data([1]), Data([2])])
    }

    @Test("a file reached through a wrapper's own encode(to:) is still a file part")
    func wrappedFiles() throws {
        enum Attachment: Encodable {
            case file(MultipartFile)
            case link(String)
            func encode(to encoder: any Encoder) throws {
                switch self {
                case .file(let file): try file.encode(to: encoder)
                case .link(let url): var container = encoder.singleValueContainer(); try container.encode(url)
                }
            }
        }
        struct Post: Encodable { var main: Attachment; var extra: Attachment }
        let file = MultipartFile(fieldName: "f", fileName: "a.txt", contentType: "text/plain", data: Data("A".utf8))
        let received = try Self.read(try MultipartFormEncoder().encode(Post(main: .file(file), extra: .link("https://x"))))
        #expect(try received.file(named: "main")?.data() == Data("A".utf8))
        #expect(received.value(named: "extra") == "https://x")
        #expect(throws: EncodingError.self) { try JSONBodyEncoder().encode(Post(main: .file(file), extra: .link("x"))) }
    }

    @Test("a model that fails part-way leaves the form it was appended to as it was")
    func failedEncodeLeavesTheForm() throws {
        struct Fields: Encodable { var a: String; var b: String }
        var form = try MultipartFormData(boundary: "B")
        try form.appendPart(formData: "kept", name: "first")
        #expect(throws: RequestSerializationError.self) {
            try MultipartFormEncoder().encode(Fields(a: "ok", b: "x\r\n--B\r\n"), into: &form)
        }
        #expect(form.partCount == 1)
    }

    @Test("a container still held for a key keeps writing there after a scalar is written to that key, as before")
    func scalarOverAHeldContainer() throws {
        struct Odd: Encodable {
            enum Keys: String, CodingKey { case a, y }
            func encode(to encoder: any Encoder) throws {
                var container = encoder.container(keyedBy: Keys.self)
                var nested = container.nestedContainer(keyedBy: Keys.self, forKey: .a)
                try container.encode(5, forKey: .a)
                try nested.encode(2, forKey: .y)
            }
        }
        #expect(try ParameterValue(encoding: Odd()) == ["a": ["y": 2]])
    }

    @Test("a field name with quotes or line breaks cannot break out of its header", arguments: ["a\"b", "a\r\nX-Injected: 1"])
    func hostileKeys(key: String) throws {
        let form = try MultipartFormEncoder().encode([key: Data("x".utf8)], boundary: "B")
        let text = String(decoding: try form.encodedData(), as: UTF8.self)
        #expect(!text.contains("\r\nX-Injected"))
        let received = try Self.read(form)
        #expect(received.files.count == 1)
        #expect(try received.files.first?.data() == Data("x".utf8))
    }
}
