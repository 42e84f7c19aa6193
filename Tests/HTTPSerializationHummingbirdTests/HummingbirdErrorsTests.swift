#if Hummingbird
import Foundation
import HTTPSerializationHummingbird
import Hummingbird
import HummingbirdTesting
import Logging
import ServerTestSupport
import Testing

/// A refused body answers as Hummingbird's own `HTTPError` does, and the error the route and the
/// log see is the package's, with the cause behind it.
@Suite("Hummingbird: refusals as HTTPResponseError, keeping their cause")
struct HummingbirdErrorsTests {
    struct Item: Decodable {
        var price: Double
    }

    struct Cart: Decodable {
        var items: [Item]
    }

    /// What Hummingbird's `HTTPError` sends with a message.
    struct ErrorBody: Decodable {
        struct Message: Decodable {
            var message: String
        }
        var error: Message
    }

    static func application(logger: Logger) -> some ApplicationProtocol {
        let router = Router(context: HTTPSerializationBasicRequestContext.self)
        router.post("/carts") { request, context -> String in
            do {
                return String(try await request.decode(as: Cart.self, context: context).items.count)
            } catch let failure as RequestBodyFailure {
                // The error the route sees carries what went wrong underneath.
                context.logger.info("cause seen by the route: \(String(reflecting: failure.underlyingError))")
                throw failure
            }
        }
        return Application(router: router, logger: logger)
    }

    @Test("refusals answer {error: {message}} as HTTPError does, name items[1].price and the byte, keep the cause in the error and the log; 415 too")
    func refusalsKeepTheirCause() async throws {
        let recorder = LogRecorder()
        let cases: [(type: String, body: String, status: HTTPResponse.Status, message: String, cause: String?)] = [
            ("application/json", #"{"items":[{"price":1},]}"#, .badRequest,
             "The body is not valid JSON: found \"]\" where a value was expected (byte 22).", "The JSON document is refused at byte 22"),
            ("application/json", #"{"items":[{"price":1},{"price":"x"}]}"#, .badRequest,
             "The value at `items[1].price` is not of the expected kind.", "typeMismatch"),
            ("application/x-www-form-urlencoded", "items[0][price]=%ZZ", .badRequest,
             "The form has a % that does not start a percent escape, at byte 16.", nil),
            ("text/csv", "price\n1", .unsupportedMediaType, #"Bodies of type "text/csv" are not accepted."#, nil),
        ]
        try await Self.application(logger: recorder.logger()).test(.live) { client in
            for (type, body, status, message, cause) in cases {
                try await client.execute(uri: "/carts", method: .post, headers: [.contentType: type], body: ByteBuffer(string: body)) { response in
                    #expect(response.status == status, "\(body)")
                    #expect(response.headers[.contentType] == "application/json; charset=utf-8")
                    let sent = try JSONDecoder().decode(ErrorBody.self, from: Data(buffer: response.body))
                    #expect(sent.error.message == message)
                    guard let cause else { return }
                    #expect(!String(buffer: response.body).contains(cause), "the cause stays on the server")
                    #expect(recorder.contains("cause seen by the route", cause), "\(recorder.logged)")
                    #expect(recorder.contains("Decode Error", message, cause), "Hummingbird's log line names the cause: \(recorder.logged)")
                }
            }
        }
    }
}
#endif
