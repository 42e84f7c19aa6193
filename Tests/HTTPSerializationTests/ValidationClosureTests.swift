import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import HTTPSerialization
import HTTPTypes
import Testing

@Suite("Validation closures through the decoding serializers and NSError")
struct ValidationClosureTests {
    /// An API that answers 200 with an error envelope: what a check is for.
    struct Envelope: Decodable, Equatable {
        var error: String?
    }

    struct APIError: Error, Equatable {
        let message: String
    }

    static let refusingEnvelopes: @Sendable (ResponseContext) throws -> Void = { context in
        guard let data = context.data, let envelope = try? JSONDecoder().decode(Envelope.self, from: data), let message = envelope.error else { return }
        throw APIError(message: message)
    }

    static let head = HTTPResponse(status: .ok, headerFields: [.contentType: "application/json"])

    @Test("a Decodable serializer with a check: a good body decodes, an error envelope is refused with its body, and decodeErrorPayload reads it")
    func decodableWithCheck() throws {
        let serializer = DecodableResponseSerializer([Int].self).validating(Self.refusingEnvelopes)
        #expect(try serializer.responseObject(for: Self.head, data: Data("[1,2]".utf8)) == [1, 2])

        let body = Data(#"{"error":"quota exceeded"}"#.utf8)
        do {
            _ = try serializer.responseObject(for: Self.head, data: body)
            Issue.record("the envelope was not refused")
        } catch {
            guard case ResponseSerializationError.validationFailed(let thrown, let context)? = error as? ResponseSerializationError else {
                Issue.record("got \(error)")
                return
            }
            #expect(thrown.error as? APIError == APIError(message: "quota exceeded"))
            #expect(context.data == body)
            #expect(serializer.decodeErrorPayload(Envelope.self, from: error) == Envelope(error: "quota exceeded"))
        }
    }

    @Test("a refusal is AFNetworking's -1011 in the response domain, with the body under AF's key and the thrown error underneath")
    func bridgesToNSError() throws {
        let serializer = JSONResponseSerializer().validating(Self.refusingEnvelopes)
        let body = Data(#"{"error":"maintenance"}"#.utf8)
        let response = try #require(HTTPURLResponse(url: URL(string: "https://api.example/v1")!, statusCode: 200, httpVersion: nil,
                                                    headerFields: ["Content-Type": "application/json"]))
        do {
            _ = try serializer.responseObject(for: response, data: body)
            Issue.record("the envelope was not refused")
        } catch {
            let bridged = error as NSError
            #expect(bridged.domain == "com.alamofire.error.serialization.response")
            #expect(bridged.code == NSURLErrorBadServerResponse)
            #expect(bridged.userInfo["com.alamofire.serialization.response.error.data"] as? Data == body)
            #expect(bridged.userInfo[NSURLErrorFailingURLErrorKey] as? URL == URL(string: "https://api.example/v1"))
            #expect(bridged.userInfo[NSUnderlyingErrorKey] != nil)
            #expect((error as? ResponseSerializationError)?.underlyingError as? APIError == APIError(message: "maintenance"))
        }
    }

    @Test("a refusal stays the refusal when the body is not JSON: the JSON serializer does not parse a body a check refused")
    func refusalBeforeParsing() throws {
        let serializer = JSONResponseSerializer().validating { _ in throw APIError(message: "maintenance page") }
        #expect {
            try serializer.responseObject(for: Self.head, data: Data("<html>down</html>".utf8))
        } throws: { error in
            guard case ResponseSerializationError.validationFailed(let thrown, _)? = error as? ResponseSerializationError else { return false }
            return thrown.error as? APIError == APIError(message: "maintenance page") && (error as NSError).code == NSURLErrorBadServerResponse
        }
    }

    @Test("a compound's checks run on the value a child gives")
    func compoundChecks() {
        let compound = CompoundResponseSerializer([AnyResponseSerializer(JSONResponseSerializer())]).validating(Self.refusingEnvelopes)
        #expect(throws: ResponseSerializationError.self) {
            try compound.responseObject(for: Self.head, data: Data(#"{"error":"quota"}"#.utf8))
        }
        #expect((try? compound.responseObject(for: Self.head, data: Data("[1]".utf8))) as? [Int] == [1])
    }
}


@Suite("The request reaches the response context on every transport")
struct RequestInResponseContextTests {
    @Test("a JSON route refused by Accept: text/html through async-http-client and URLSession; accepted with application/json")
    func acceptDecidesOnBothTransports() async throws {
        try await AsyncHTTPClientBridgeTests.withServer { server, client in
            var serializer = HTTPResponseSerializer(acceptableContentTypes: nil)
            serializer.contentTypesFromAcceptHeader = true
            for accept in ["text/html", "application/json"] {
                let head = HTTPRequest(method: .get, scheme: "http", authority: "127.0.0.1:\(server.port)", path: "/json",
                                       headerFields: [.accept: accept])
                let refused = accept == "text/html"
                let viaClient = await Result { try await client.execute(SerializedRequest(request: head), serializer: serializer) }
                let viaSession = await Result { try await URLSession.shared.response(for: SerializedRequest(request: head), serializer: serializer) }
                for (name, result) in [("async-http-client", viaClient.map(\.output)), ("URLSession", viaSession.map(\.output))] {
                    switch result {
                    case .success:
                        #expect(!refused, "\(name) accepted JSON for Accept: \(accept)")
                    case .failure(let error):
                        guard case ResponseSerializationError.unacceptableContentType("application/json", let context)? = error as? ResponseSerializationError else {
                            Issue.record("\(name): \(error)")
                            continue
                        }
                        #expect(refused, "\(name) refused JSON for Accept: \(accept)")
                        #expect(context.request?.headerFields[.accept] == accept, "\(name)")
                        #expect(context.request?.path == "/json", "\(name)")
                    }
                }
            }
        }
    }
}

extension Result where Failure == any Error {
    /// The outcome of an async throwing call.
    init(catching body: () async throws -> Success) async {
        do { self = .success(try await body()) } catch { self = .failure(error) }
    }
}

@Suite("Body preprocessors through the Foundation and Codable serializers")
struct PreprocessorSerializerTests {
    /// Drops the first byte: applied twice, it would drop two.
    struct DropFirst: ResponseBodyPreprocessor {
        func preprocess(_ data: Data) throws -> Data { data.dropFirst() }
    }

    static let head = HTTPResponse(status: .ok, headerFields: [.contentType: "application/json"])
    static let guarded = Data(")]}',\n{\"items\":[1,2]}".utf8)

    struct Items: Decodable, Equatable {
        var items: [Int]
    }

    @Test("Decodable and JSON serializers read JSON behind Google's XSSI prefix")
    func xssiJSON() throws {
        #expect(try DecodableResponseSerializer(Items.self).preprocessing(GoogleXSSIPreprocessor()).responseObject(for: Self.head, data: Self.guarded) == Items(items: [1, 2]))
        let object = try JSONResponseSerializer().preprocessing(GoogleXSSIPreprocessor()).responseObject(for: Self.head, data: Self.guarded)
        #expect((object as? [String: Any])?["items"] as? [Int] == [1, 2])
        // Without the preprocessor the prefix is what it is: not JSON.
        #expect(throws: ResponseSerializationError.self) { try DecodableResponseSerializer(Items.self).responseObject(for: Self.head, data: Self.guarded) }
    }

    @Test("a compound preprocesses once, for its children and its fallback alike")
    func compoundOnce() throws {
        let compound = CompoundResponseSerializer([AnyResponseSerializer(StringResponseSerializer())]).preprocessing(DropFirst())
        let text = HTTPResponse(status: .ok, headerFields: [.contentType: "text/plain"])
        #expect(try compound.responseObject(for: text, data: Data("xhello".utf8)) as? String == "hello")
        let fallback = CompoundResponseSerializer([]).preprocessing(DropFirst())
        #expect(try fallback.responseObject(for: text, data: Data("xhello".utf8)) as? Data == Data("hello".utf8))
    }
}
