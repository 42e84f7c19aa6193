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
        Response.stream(AsyncStream<CheckedOrder> { $0.finish() }, writer: JSONStreamWriter<CheckedOrder>(format: .lines))
    }
    router.get("events") { request, context in
        Response.stream(StreamBroadcast<ServerSentEvent>().subscribe(lastEventID: request.lastEventID),
                        writer: ServerSentEventWriter(), logger: context.logger)
    }
    var decoder = HTTPSerializationRequestDecoder()
    decoder.form = FormDecoder()
    decoder.json = JSONBodyDecoder()
    decoder.multipart.spillThreshold = 1 << 20
    _ = RequestBodyFailure.bodyTooLarge(limit: 1).underlyingError
    return router
}
