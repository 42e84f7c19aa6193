#if Vapor
import Foundation
import HTTPSerializationCodable
import HTTPSerializationCore
import HTTPSerializationVapor
import Testing
import Vapor
import VaporTesting

/// The package as Vapor's content coders after one call: JSON, JSON:API, form and multipart
/// bodies into one model, query strings, JSON and form answers, each failure as its status.
@Suite("Vapor: the package's coders in one line")
struct VaporCodersTests {
    struct Order: Content, Equatable {
        var id: Int
        var item: String
        var tags: [String]
        var placed: Date
    }

    struct Search: Content, Equatable {
        var q: String
        var page: Int
        var exact: Bool
        var tags: [String]
    }

    struct Signup: Content, Equatable {
        var name: String
        var newsletter: Bool
        var interests: [String]
    }

    struct Upload: Decodable {
        var title: String
        var photo: MultipartFile
    }

    static let order = Order(id: 7, item: "caf\u{E9} \"au lait\"", tags: ["hot", "a/b"], placed: Date(timeIntervalSince1970: 1_700_000_000))

    static func configure(_ app: Application) async throws {
        ContentConfiguration.global.useHTTPSerialization()
        app.routes.defaultMaxBodySize = "4mb"
        app.post("orders") { request async throws -> Order in try request.content.decode(Order.self) }
        app.get("search") { request async throws -> Search in try request.query.decode(Search.self) }
        app.get("order-form") { _ async throws -> Response in
            let response = Response()
            try response.content.encode(Self.order, as: .urlEncodedForm)
            return response
        }
        app.on(.POST, "uploads", body: .stream) { request async throws -> String in
            let upload = try await request.decodeMultipart(Upload.self)
            let spilled = upload.photo.temporaryFileURL != nil
            return "\(upload.title) \(upload.photo.fileName ?? "") \(try upload.photo.data().count)\(spilled ? " spilled" : "")"
        }
        app.post("signups") { request async throws -> Signup in try request.content.decode(Signup.self) }
        // Vapor's key-path reads, which pass the path in the decoder's userInfo.
        app.get("page") { request async throws -> String in String(request.query[Int.self, at: "page"] ?? -1) }
        app.post("item") { request async throws -> String in try request.content.get(String.self, at: "item") }
    }

    static func multipartOrder() throws -> (String, Data) {
        var form = try MultipartFormData(boundary: "vapor-test")
        try form.appendPart(formData: "7", name: "id")
        try form.appendPart(formData: Self.order.item, name: "item")
        for tag in Self.order.tags { try form.appendPart(formData: tag, name: "tags[]") }
        try form.appendPart(formData: "1700000000", name: "placed")
        return (form.contentType, try form.encodedData())
    }

    @Test("JSON, JSON:API, form and multipart bodies decode into one model; the answer is the package's JSON with ISO 8601 dates, as Vapor's")
    func decodesEveryBodyKind() async throws {
        let form = "id=7&item=caf%C3%A9%20%22au%20lait%22&tags[]=hot&tags[]=a%2Fb&placed=1700000000"
        let bodies: [(String, Data)] = [
            ("application/json", Data(#"{"id":7,"item":"café \"au lait\"","tags":["hot","a/b"],"placed":"2023-11-14T22:13:20Z"}"#.utf8)),
            ("application/vnd.api+json", Data(#"{"placed":"2023-11-14T22:13:20Z","tags":["hot","a/b"],"item":"café \"au lait\"","id":7}"#.utf8)),
            ("application/x-www-form-urlencoded", Data(form.utf8)),
            try Self.multipartOrder(),
        ]
        var encoder = JSONBodyEncoder()
        encoder.dateEncodingStrategy = .iso8601
        let expected = try encoder.encode(Self.order)
        try await withApp(configure: Self.configure) { app in
            for (contentType, body) in bodies {
                try await app.testing().test(.POST, "orders", headers: ["Content-Type": contentType], body: ByteBuffer(bytes: body)) { response async throws in
                    #expect(response.status == .ok, "\(contentType): \(response.body.string)")
                    #expect(response.headers.first(name: .contentType) == "application/json; charset=utf-8")
                    #expect(Data(buffer: response.body) == expected, "\(contentType)")
                    // Foundation reads the answer as Vapor's own JSON coders would have written it.
                    let decoder = JSONDecoder()
                    decoder.dateDecodingStrategy = .iso8601
                    #expect(try decoder.decode(Order.self, from: Data(buffer: response.body)) == Self.order)
                }
            }
        }
    }

    @Test("query strings decode with brackets, percent escapes and literal booleans; form answers read back with Vapor's own decoder")
    func queriesAndFormAnswers() async throws {
        try await withApp(configure: Self.configure) { app in
            // The URL parsed as a server receives it (the tester's `path` argument escapes `%` again).
            try await app.testing().test(.GET, "search", beforeRequest: { request in
                request.url = URI(string: "/search?q=swift%206&page=2&exact=true&tags%5B%5D=a&tags%5B%5D=b%26c")
            }) { response async throws in
                #expect(response.status == .ok, "\(response.body.string)")
                #expect(try response.content.decode(Search.self) == Search(q: "swift 6", page: 2, exact: true, tags: ["a", "b&c"]), "\(response.body.string)")
            }
            try await app.testing().test(.GET, "order-form") { response async throws in
                #expect(response.headers.first(name: .contentType) == "application/x-www-form-urlencoded; charset=utf-8")
                let text = response.body.string
                #expect(text.contains("placed=1700000000"), "\(text)")
                #expect(try URLEncodedFormDecoder().decode(Order.self, from: text) == Self.order)
                #expect(try HTTPSerializationCoders().formDecoder.decode(Order.self, from: text) == Self.order)
            }
        }
    }

    @Test("HTML forms read as Vapor reads them: an absent checkbox is false, a bare one true, an absent list empty; key-path reads work")
    func htmlFormsAndKeyPaths() async throws {
        let forms: [(String, Signup)] = [
            ("name=Ann", Signup(name: "Ann", newsletter: false, interests: [])),
            ("name=Ann&newsletter&interests[]=a", Signup(name: "Ann", newsletter: true, interests: ["a"])),
            ("name=Ann&newsletter=on&interests=a&interests=b", Signup(name: "Ann", newsletter: true, interests: ["a", "b"])),
        ]
        try await withApp(configure: Self.configure) { app in
            for (form, expected) in forms {
                try await app.testing().test(.POST, "signups", headers: ["Content-Type": "application/x-www-form-urlencoded"],
                                             body: ByteBuffer(string: form)) { response async throws in
                    #expect(response.status == .ok, "\(form): \(response.body.string)")
                    #expect(try response.content.decode(Signup.self) == expected, "\(form)")
                }
            }
            try await app.testing().test(.GET, "page", beforeRequest: { $0.url = URI(string: "/page?q=x&page=3") }) { response async throws in
                #expect(response.body.string == "3")
            }
            try await app.testing().test(.GET, "page", beforeRequest: { $0.url = URI(string: "/page?q=x") }) { response async throws in
                #expect(response.body.string == "-1")
            }
            for (contentType, body) in [("application/json", #"{"id":1,"item":"tea"}"#), ("application/x-www-form-urlencoded", "id=1&item=tea")] {
                try await app.testing().test(.POST, "item", headers: ["Content-Type": contentType], body: ByteBuffer(string: body)) { response async throws in
                    #expect(response.body.string == "tea", "\(contentType): \(response.body.string)")
                }
            }
        }
    }

    @Test("a streamed route reads a multipart upload as it arrives, its file past the spill threshold, over a live server")
    func streamedMultipart() async throws {
        var form = try MultipartFormData(boundary: "upload-boundary")
        try form.appendPart(formData: "holiday", name: "title")
        try form.appendPart(fileData: Data(repeating: 0xAB, count: 3_000_000), name: "photo", fileName: "a.png", mimeType: "image/png")
        let body = try form.encodedData()
        try await withApp(configure: Self.configure) { app in
            // Collected routes now stop at 16 KB; a `.stream` route never collects, so the 3 MB
            // upload still arrives.
            app.routes.defaultMaxBodySize = "16kb"
            try await VaporStreamTests.serving(app) { port in
                let answer = try await VaporStreamTests.fetch(port: port, "/uploads", method: .POST, headers: ["Content-Type": form.contentType],
                                                              body: ByteBuffer(bytes: body))
                #expect(answer.status == .ok)
                #expect(answer.body.string == "holiday a.png 3000000 spilled")
            }
        }
    }

    @Test("malformed JSON and forms are 400, a model mismatch is 400 naming the path, a broken limit 413, another type 415")
    func failuresMapToStatuses() async throws {
        let tooManyPairs = (0..<2_000).map { "k\($0)=v" }.joined(separator: "&")
        let cases: [(String, String, String, HTTPStatus, String)] = [
            ("orders", "application/json", "{\"id\": 7,", .badRequest, "not valid JSON"),
            ("orders", "application/json", "{\"id\":\"seven\",\"item\":\"x\",\"tags\":[],\"placed\":\"2023-11-14T22:13:20Z\"}", .badRequest, "`id`"),
            ("orders", "application/json", "{\"id\":7,\"tags\":[]}", .badRequest, "`item`"),
            ("orders", "application/x-www-form-urlencoded", "id=7&item=%ZZ", .badRequest, "percent escape"),
            ("orders", "application/x-www-form-urlencoded", tooManyPairs, .payloadTooLarge, "limit"),
            ("orders", "multipart/form-data; boundary=b", "--b\r\nContent-Disposition: form-data; name=\"id\"\r\n\r\n7", .badRequest, "ended inside"),
            ("orders", "text/csv", "id,item\n7,x", .unsupportedMediaType, "csv"),
            ("uploads", "application/json", "{}", .unsupportedMediaType, "are not accepted"),
            ("uploads", "multipart/form-data; boundary=b", "--b\r\nContent-Disposition: form-data; name=\"title\"\r\n\r\nx\r\n--b--\r\n", .badRequest, "`photo`"),
        ]
        try await withApp(configure: Self.configure) { app in
            for (path, contentType, body, status, fragment) in cases {
                try await app.testing().test(.POST, path, headers: ["Content-Type": contentType], body: ByteBuffer(string: body)) { response async throws in
                    #expect(response.status == status, "\(contentType): \(body.prefix(40)) → \(response.body.string)")
                    #expect(response.body.string.contains(fragment), "\(response.body.string)")
                }
            }
            // The app still serves after every refusal.
            try await app.testing().test(.POST, "orders", headers: ["Content-Type": "application/x-www-form-urlencoded"],
                                         body: ByteBuffer(string: "id=7&item=x&tags[]=a&placed=0")) { response async throws in
                #expect(response.status == .ok)
            }
        }
    }
}
#endif
