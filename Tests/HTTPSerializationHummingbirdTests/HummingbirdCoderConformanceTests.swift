#if Hummingbird
import Foundation
import HTTPSerializationCore
import HTTPSerializationHummingbird
import Hummingbird
import HummingbirdTesting
import Testing

/// Each coder is Hummingbird's `RequestDecoder` or `ResponseEncoder` on its own, as
/// Hummingbird's `URLEncodedFormDecoder` is, and a context takes the one it wants.
@Suite("Hummingbird: each coder conformed on its own, query strings, one side of the context")
struct HummingbirdCoderConformanceTests {
    struct Note: ResponseCodable, Equatable {
        var text: String
        var tags: [String]
    }

    struct Search: Decodable {
        struct Filter: Decodable {
            var tags: [String]
            var after: Int?
        }
        var q: String
        var page: Int
        var filter: Filter
    }

    struct Upload: Decodable {
        var text: String
        var file: MultipartFile
    }

    /// Reads JSON with the package's decoder and answers with Hummingbird's `JSONEncoder`.
    struct JSONContext: RequestContext {
        typealias Decoder = JSONBodyDecoder
        var coreContext: CoreRequestContextStorage
        init(source: ApplicationRequestContextSource) { coreContext = .init(source: source) }
        var requestDecoder: JSONBodyDecoder { JSONBodyDecoder() }
        var maxUploadSize: Int { 1024 }
    }

    /// Reads forms and answers forms.
    struct FormContext: RequestContext {
        typealias Decoder = FormDecoder
        typealias Encoder = FormEncoder
        var coreContext: CoreRequestContextStorage
        init(source: ApplicationRequestContextSource) { coreContext = .init(source: source) }
        var requestDecoder: FormDecoder { FormDecoder() }
        var responseEncoder: FormEncoder { FormEncoder() }
    }

    /// Reads uploads with the multipart decoder alone.
    struct UploadContext: RequestContext {
        typealias Decoder = MultipartFormDecoder
        var coreContext: CoreRequestContextStorage
        init(source: ApplicationRequestContextSource) { coreContext = .init(source: source) }
        var requestDecoder: MultipartFormDecoder { MultipartFormDecoder() }
        var maxUploadSize: Int { 64 << 10 }
    }

    /// The package's dispatcher for bodies; answers stay Hummingbird's `JSONEncoder`.
    struct DecoderOnlyContext: HTTPSerializationDecodingContext {
        var coreContext: CoreRequestContextStorage
        init(source: ApplicationRequestContextSource) { coreContext = .init(source: source) }
    }

    @Test("JSONBodyDecoder as a context's decoder reads JSON, refuses malformed JSON with 400 and a body past maxUploadSize with 413")
    func jsonDecoderAlone() async throws {
        let router = Router(context: JSONContext.self)
        router.post("/notes") { request, context -> Note in try await request.decode(as: Note.self, context: context) }
        try await Application(router: router).test(.router) { client in
            try await client.execute(uri: "/notes", method: .post, body: ByteBuffer(string: #"{"text":"hi","tags":["a"]}"#)) { response in
                #expect(response.status == .ok)
                #expect(response.headers[.contentType] == "application/json; charset=utf-8")
                #expect((try? JSONDecoder().decode(Note.self, from: Data(buffer: response.body))) == Note(text: "hi", tags: ["a"]))
            }
            try await client.execute(uri: "/notes", method: .post, body: ByteBuffer(string: #"{"text":"hi""#)) { response in
                #expect(response.status == .badRequest)
                #expect(String(buffer: response.body).contains("not valid JSON"))
            }
            let long = ByteBuffer(string: #"{"text":"\#(String(repeating: "a", count: 2000))","tags":[]}"#)
            try await client.execute(uri: "/notes", method: .post, body: long) { response in
                #expect(response.status == .contentTooLarge)
                #expect(String(buffer: response.body).contains("limit of 1024 bytes"))
            }
        }
    }

    @Test("FormDecoder and FormEncoder as a context's coders read a nested form and answer one with its content type")
    func formCodersAlone() async throws {
        let router = Router(context: FormContext.self)
        router.post("/notes") { request, context -> Note in try await request.decode(as: Note.self, context: context) }
        try await Application(router: router).test(.router) { client in
            try await client.execute(uri: "/notes", method: .post, headers: [.contentType: "application/x-www-form-urlencoded"],
                                     body: ByteBuffer(string: "text=caf%C3%A9+au+lait&tags[]=hot&tags[]=a%26b")) { response in
                #expect(response.status == .ok)
                #expect(response.headers[.contentType] == "application/x-www-form-urlencoded")
                #expect(response.headers[.contentLength] == String(response.body.readableBytes))
                #expect((try? FormDecoder().decode(Note.self, from: String(buffer: response.body))) == Note(text: "café au lait", tags: ["hot", "a&b"]))
            }
            // The refusal is written by the context's encoder, as Hummingbird's HTTPError is.
            try await client.execute(uri: "/notes", method: .post, body: ByteBuffer(string: "text=%ZZ&tags[]=a")) { response in
                #expect(response.status == .badRequest)
                let sent = try? FormDecoder().decode([String: [String: String]].self, from: String(buffer: response.body))
                #expect(sent?["error"]?["message"] == "The form has a % that does not start a percent escape, at byte 5.")
            }
        }
    }

    @Test("MultipartFormDecoder as a context's decoder streams an upload under maxUploadSize, 413 past it, 415 for JSON")
    func multipartDecoderAlone() async throws {
        let router = Router(context: UploadContext.self)
        router.post("/uploads") { request, context -> String in
            let upload = try await request.decode(as: Upload.self, context: context)
            return "\(upload.text) \(upload.file.size)"
        }
        let (type, small) = try HummingbirdLimitsTests.upload(fileBytes: 10_000)
        let (_, large) = try HummingbirdLimitsTests.upload(fileBytes: 100_000)
        try await Application(router: router).test(.live) { client in
            try await client.execute(uri: "/uploads", method: .post, headers: [.contentType: type], body: small) { response in
                #expect(response.status == .ok)
                #expect(String(buffer: response.body) == "hello 10000")
            }
            try await client.execute(uri: "/uploads", method: .post, headers: [.contentType: type], body: large) { response in
                #expect(response.status == .contentTooLarge)
                #expect(String(buffer: response.body).contains("limit of 65536 bytes"))
            }
            try await client.execute(uri: "/uploads", method: .post, headers: [.contentType: "application/json"], body: ByteBuffer(string: "{}")) { response in
                #expect(response.status == .unsupportedMediaType)
            }
        }
    }

    @Test("a context that names only the package's decoder keeps Hummingbird's JSONEncoder for answers")
    func decoderWithoutEncoder() async throws {
        #expect(DecoderOnlyContext.Encoder.self == JSONEncoder.self)
        let router = Router(context: DecoderOnlyContext.self)
        router.post("/notes") { request, context -> Note in try await request.decode(as: Note.self, context: context) }
        try await Application(router: router).test(.router) { client in
            try await client.execute(uri: "/notes", method: .post, headers: [.contentType: "application/x-www-form-urlencoded"],
                                     body: ByteBuffer(string: "text=hi&tags[]=a")) { response in
                #expect(response.status == .ok)
                #expect((try? JSONDecoder().decode(Note.self, from: Data(buffer: response.body))) == Note(text: "hi", tags: ["a"]))
            }
        }
    }

    @Test("a query string decodes with nested keys through the context's form decoder; a missing key is 400 naming the query string, too many pairs 414")
    func queryStrings() async throws {
        let router = Router(context: HTTPSerializationBasicRequestContext.self)
        router.get("/search") { request, context -> String in
            let search = try request.uri.decodeQuery(as: Search.self, using: context.requestDecoder.form, context: context)
            return "\(search.q) \(search.page) \(search.filter.tags.joined(separator: ",")) \(search.filter.after ?? -1)"
        }
        try await Application(router: router).test(.router) { client in
            try await client.execute(uri: "/search?q=caf%C3%A9&page=2&filter[tags][]=a&filter[tags][]=b%2Cc&filter[after]=7", method: .get) { response in
                #expect(response.status == .ok)
                #expect(String(buffer: response.body) == "café 2 a,b,c 7")
            }
            try await client.execute(uri: "/search?page=2&filter[tags][]=a", method: .get) { response in
                #expect(response.status == .badRequest)
                #expect(String(buffer: response.body).contains("The query string lacks the required key `q`."), "\(String(buffer: response.body))")
            }
            try await client.execute(uri: "/search?q=x&page=two&filter[tags][]=a", method: .get) { response in
                #expect(response.status == .badRequest)
                #expect(String(buffer: response.body).contains("`page`"))
            }
            // Past the form decoder's 1,000 pairs: the target is too large, not the content.
            let many = (0..<1_001).map { "k\($0)=v" }.joined(separator: "&")
            try await client.execute(uri: "/search?\(many)", method: .get) { response in
                #expect(response.status == .uriTooLong)
                #expect(String(buffer: response.body).contains("1000"))
            }
        }
    }
}
#endif
