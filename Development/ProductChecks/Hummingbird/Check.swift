// README row `HTTPSerializationHummingbird`: Hummingbird 2's request decoder, response encoder
// and streamed responses (with the package trait Hummingbird). It brings the coders, the
// failure they throw, their limits, multipart forms and the stream writers, and no more.
import Hummingbird
import HTTPSerializationHummingbird

struct CheckedOrder: ResponseCodable {
    var id: Int
}

public func checkHummingbird() -> Router<HTTPSerializationBasicRequestContext> {
    let router = Router(context: HTTPSerializationBasicRequestContext.self)
    router.post("orders") { request, context -> CheckedOrder in
        try await request.decode(as: CheckedOrder.self, context: context)
    }
    router.get("lines") { _, _ in
        Response.stream(AsyncStream<ServerSentEvent> { $0.finish() }, writer: ServerSentEventWriter())
    }
    var decoder = HTTPSerializationRequestDecoder()
    decoder.form = FormDecoder()
    decoder.json = JSONBodyDecoder()
    decoder.multipart.spillThreshold = 1 << 20
    _ = RequestBodyFailure.bodyTooLarge(limit: 1).underlyingError
    return router
}
