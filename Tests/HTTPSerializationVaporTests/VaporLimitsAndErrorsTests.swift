#if Vapor
import Foundation
import HTTPSerializationCodable
import HTTPSerializationCore
import HTTPSerializationVapor
import ServerTestSupport
import Testing
import Vapor
import VaporTesting

/// The limits a Vapor app sets once hold its streamed uploads; a refused body answers as Vapor's
/// own aborts do, with the cause kept in the error and in the log.
@Suite("Vapor: the app's limits, and refusals that keep their cause")
struct VaporLimitsAndErrorsTests {
    struct Upload: Decodable {
        var text: String
        var file: MultipartFile
    }

    struct Item: Codable {
        var price: Double
    }

    struct Cart: Codable {
        var items: [Item]
    }

    /// What Vapor's error middleware sends for an `AbortError`.
    struct ErrorBody: Decodable {
        var error: Bool
        var reason: String
    }

    @Test("a streamed upload past the app's coders is 413 naming their limit, with no decoder given at the route; one under it passes")
    func appLimitsHoldStreamedUploads() async throws {
        let large = try UploadBodies.body(fileBytes: 200_000)
        let small = try UploadBodies.body(fileBytes: 30_000)
        try await withApp(configure: { app in
            var coders = HTTPSerializationCoders()
            coders.multipart.limits.maximumBodyBytes = 100_000
            app.httpSerializationCoders = coders
            app.on(.POST, "uploads", body: .stream) { request async throws -> String in
                String(try await request.decodeMultipart(Upload.self).file.size)
            }
        }) { app in
            try await VaporStreamTests.serving(app) { port in
                let refused = try await VaporStreamTests.fetch(port: port, "/uploads", method: .POST,
                                                               headers: ["Content-Type": large.contentType], body: ByteBuffer(bytes: large.body))
                #expect(refused.status == .payloadTooLarge)
                let reason = try JSONDecoder().decode(ErrorBody.self, from: Data(buffer: refused.body)).reason
                #expect(reason == "The multipart body is longer than the limit of 100000 bytes.")
                let taken = try await VaporStreamTests.fetch(port: port, "/uploads", method: .POST,
                                                             headers: ["Content-Type": small.contentType], body: ByteBuffer(bytes: small.body))
                #expect(taken.status == .ok)
                #expect(taken.body.string == "30000")
            }
        }
    }

    @Test("refusals answer {error, reason} as Vapor's aborts do, name items[1].price and the byte, keep the cause in the error and the log")
    func refusalsKeepTheirCause() async throws {
        let recorder = LogRecorder()
        let cases: [(body: String, status: HTTPStatus, reason: String, cause: String)] = [
            (#"{"items":[{"price":1},]}"#, .badRequest, "The body is not valid JSON: found \"]\" where a value was expected (byte 22).", "The JSON document is refused at byte 22"),
            (#"{"items":[{"price":1},{"price":"x"}]}"#, .badRequest, "The value at `items[1].price` is not of the expected kind.", "typeMismatch"),
        ]
        try await withApp(configure: { app in
            app.logger = recorder.logger(level: .info)
            ContentConfiguration.global.useHTTPSerialization()
            app.post("carts") { request async throws -> String in
                do {
                    return String(try request.content.decode(Cart.self).items.count)
                } catch let abort as RequestBodyAbort {
                    // The error the route sees carries what went wrong underneath.
                    request.logger.info("cause seen by the route: \(String(reflecting: abort.failure.underlyingError))")
                    throw abort
                }
            }
        }) { app in
            try await VaporStreamTests.serving(app) { port in
                for (body, status, reason, cause) in cases {
                    let answer = try await VaporStreamTests.fetch(port: port, "/carts", method: .POST,
                                                                  headers: ["Content-Type": "application/json"], body: ByteBuffer(string: body))
                    #expect(answer.status == status)
                    let sent = try JSONDecoder().decode(ErrorBody.self, from: Data(buffer: answer.body))
                    #expect(sent.error && sent.reason == reason)
                    #expect(!answer.body.string.contains(cause), "the cause stays on the server: \(answer.body.string)")
                    #expect(recorder.contains("cause seen by the route", cause), "\(recorder.logged)")
                    #expect(recorder.contains("warning", reason, cause), "Vapor's log line names the cause: \(recorder.logged)")
                }
            }
        }
    }
}

extension VaporLimitsAndErrorsTests {
    struct Search: Decodable {
        var q: String
        var page: Int
    }

    @Test("a query string the model cannot take is 400 naming the key, with no Swift type")
    func queryRefusalsNameTheQuery() async throws {
        try await withApp(configure: { app in
            ContentConfiguration.global.useHTTPSerialization()
            app.get("search") { request async throws -> String in
                let search = try request.query.decode(Search.self)
                return "\(search.q) \(search.page)"
            }
        }) { app in
            try await app.testing().test(.GET, "search?q=tea&page=2") { response async throws in
                #expect(response.body.string == "tea 2")
            }
            // (Vapor's URI escapes a stray % itself, so the decoder never sees one.)
            for (query, reason) in [("page=2", "The value at `q` is missing or null."),
                                    ("q=tea&page=two", "The value at `page` is not valid."),
                                    ("q=tea&page=2&q[x]=1", "The field \"q[x]\" is given both as a value and as a list or object.")] {
                try await app.testing().test(.GET, "search?\(query)") { response async throws in
                    #expect(response.status == .badRequest)
                    let sent = try JSONDecoder().decode(ErrorBody.self, from: Data(buffer: response.body))
                    #expect(sent.reason == reason)
                }
            }
        }
    }
}

/// A two-part upload whose file is `fileBytes` long.
enum UploadBodies {
    static func body(fileBytes: Int) throws -> (contentType: String, body: Data) {
        var form = try MultipartFormData(boundary: "app-limits")
        try form.appendPart(formData: "hello", name: "text")
        try form.appendPart(fileData: Data(repeating: 7, count: fileBytes), name: "file", fileName: "f.bin", mimeType: "application/octet-stream")
        return (form.contentType, try form.encodedData())
    }
}
#endif
