#if Hummingbird
import Foundation
import HTTPSerializationCodable
import HTTPSerializationCore
import HTTPSerializationHummingbird
import Hummingbird
import HummingbirdTesting
import ServerTestSupport
import Testing

/// The package as Hummingbird's coders, through Hummingbird's own test client: a JSON, form or
/// multipart body into one model, the model back as JSON, each failure as its status.
@Suite("Hummingbird: the package's coders in one line")
struct HummingbirdCodersTests {
    struct Order: ResponseCodable, Equatable {
        var id: Int
        var item: String
        var tags: [String]
    }

    struct Upload: Decodable {
        var title: String
        var photo: MultipartFile
    }

    static func application() -> some ApplicationProtocol {
        let router = Router(context: HTTPSerializationBasicRequestContext.self)
        router.post("/orders") { request, context -> Order in
            try await request.decode(as: Order.self, context: context)
        }
        router.post("/uploads") { request, context -> String in
            let upload = try await request.decode(as: Upload.self, context: context)
            return "\(upload.title) \(upload.photo.fileName ?? "") \(try upload.photo.data().count)"
        }
        return Application(router: router)
    }

    static let order = Order(id: 7, item: "caf\u{E9} \"au lait\"", tags: ["hot", "a/b"])

    @Test("JSON, form and multipart bodies decode into the same model; the answer is written by the package's encoder")
    func decodesEveryBodyKind() async throws {
        var form = try MultipartFormData(boundary: "hummingbird-test")
        try form.appendPart(formData: "7", name: "id")
        try form.appendPart(formData: Self.order.item, name: "item")
        for tag in Self.order.tags { try form.appendPart(formData: tag, name: "tags[]") }
        let bodies: [(String, Data)] = [
            ("application/json", try JSONBodyEncoder().encode(Self.order)),
            ("application/vnd.api+json; charset=utf-8", try JSONBodyEncoder().encode(Self.order)),
            ("application/x-www-form-urlencoded", Data(queryString(from: ["id": 7, "item": .string(Self.order.item), "tags": ["hot", "a/b"]]).utf8)),
            (form.contentType, try form.encodedData()),
        ]
        let expectedJSON = String(decoding: try JSONBodyEncoder().encode(Self.order), as: UTF8.self)
        try await Self.application().test(.router) { client in
            for (contentType, body) in bodies {
                try await client.execute(uri: "/orders", method: .post, headers: [.contentType: contentType], body: ByteBuffer(bytes: body)) { response in
                    #expect(response.status == .ok, "\(contentType)")
                    #expect(response.headers[.contentType] == "application/json; charset=utf-8")
                    let decoded = try JSONDecoder().decode(Order.self, from: Data(buffer: response.body))
                    #expect(decoded == Self.order, "\(contentType)")
                    #expect(String(buffer: response.body) == expectedJSON)
                }
            }
        }
    }

    @Test("a multipart upload streams into a file part the model holds")
    func multipartFile() async throws {
        var form = try MultipartFormData(boundary: "upload-boundary")
        try form.appendPart(formData: "holiday", name: "title")
        try form.appendPart(fileData: Data(repeating: 0xAB, count: 300_000), name: "photo", fileName: "a.png", mimeType: "image/png")
        let (contentType, body) = (form.contentType, try form.encodedData())
        try await Self.application().test(.router) { client in
            try await client.execute(uri: "/uploads", method: .post, headers: [.contentType: contentType],
                                     body: ByteBuffer(bytes: body)) { response in
                #expect(response.status == .ok)
                #expect(String(buffer: response.body) == "holiday a.png 300000")
            }
        }
    }

    @Test("malformed JSON and forms are 400, a model mismatch is 400 naming the path, a broken limit 413, another type 415")
    func failuresMapToStatuses() async throws {
        let tooManyPairs = (0..<2_000).map { "k\($0)=v" }.joined(separator: "&")
        let cases: [(String, String, HTTPResponse.Status, String)] = [
            ("application/json", "{\"id\": 7,", .badRequest, "not valid JSON"),
            ("application/json", "{\"id\":\"seven\",\"item\":\"x\",\"tags\":[]}", .badRequest, "`id`"),
            ("application/json", "{\"id\":7,\"tags\":[]}", .badRequest, "`item`"),
            ("application/x-www-form-urlencoded", "id=7&item=%ZZ", .badRequest, "percent escape"),
            ("application/x-www-form-urlencoded", tooManyPairs, .contentTooLarge, "limit"),
            ("multipart/form-data; boundary=b", "--b\r\nContent-Disposition: form-data; name=\"id\"\r\n\r\n7", .badRequest, "ended inside"),
            ("text/csv", "id,item\n7,x", .unsupportedMediaType, "csv"),
        ]
        try await Self.application().test(.router) { client in
            for (contentType, body, status, fragment) in cases {
                try await client.execute(uri: "/orders", method: .post, headers: [.contentType: contentType], body: ByteBuffer(string: body)) { response in
                    #expect(response.status == status, "\(contentType): \(body.prefix(40))")
                    #expect(String(buffer: response.body).contains(fragment), "\(String(buffer: response.body))")
                }
            }
            // The server still serves after every refusal.
            try await client.execute(uri: "/orders", method: .post, headers: [.contentType: "application/json"],
                                     body: ByteBuffer(bytes: try JSONBodyEncoder().encode(Self.order))) { response in
                #expect(response.status == .ok)
            }
        }
    }
}

@Suite("Hummingbird: streamed responses from the package's writers")
struct HummingbirdStreamTests {
    static let events = (0..<200).map { ServerSentEvent(event: $0 % 2 == 0 ? "tick" : nil, data: "line \($0)\nsecond line", id: String($0)) }
    static let records: [ParameterValue] = (0..<500).map { ["id": .int($0), "name": "record \($0)"] }

    @Test("events and JSON Lines routes send the writers' bytes with their content types over a live server")
    func streamRoutes() async throws {
        let router = Router(context: HTTPSerializationBasicRequestContext.self)
        router.get("/events") { _, _ in Response.stream(ArrayValues(Self.events), writer: ServerSentEventWriter()) }
        router.get("/records") { _, _ in
            Response.stream(ArrayValues(Self.records), writer: JSONStreamWriter<ParameterValue>(format: .lines), minimumChunkSize: 4096)
        }
        router.get("/array") { _, _ in Response.stream(ArrayValues(Self.records), writer: JSONStreamWriter<ParameterValue>(format: .array)) }
        try await Application(router: router).test(.live) { client in
            try await client.execute(uri: "/events", method: .get) { response in
                #expect(response.headers[.contentType] == "text/event-stream")
                #expect(response.headers[.cacheControl] == "no-cache")
                let expected = try ServerSentEventWriter().data(for: Self.events)
                #expect(Data(buffer: response.body) == expected)
                let read = try ServerSentEventsResponseSerializer().responseObject(
                    for: HTTPResponse(status: .ok, headerFields: [.contentType: "text/event-stream"]), data: Data(buffer: response.body))
                #expect(read.map(\.data) == Self.events.map(\.data))
            }
            try await client.execute(uri: "/records", method: .get) { response in
                #expect(response.headers[.contentType] == "application/x-ndjson")
                let expected = try JSONStreamWriter<ParameterValue>(format: .lines).data(for: Self.records)
                #expect(Data(buffer: response.body) == expected)
            }
            try await client.execute(uri: "/array", method: .get) { response in
                #expect(response.headers[.contentType] == "application/json")
                let read = try ParameterValue(json: Data(buffer: response.body))
                #expect(read == .array(Self.records))
            }
        }
    }
}
#endif
