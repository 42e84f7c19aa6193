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
        }
    }
}

