// README row `HTTPSerializationHummingbird`: Hummingbird 2's request decoder, response encoder
// and streamed responses (with the package trait Hummingbird). It brings the core and the
// Codable layer.
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
        Response.stream(AsyncStream<ParameterValue> { $0.finish() }, writer: JSONStreamWriter<ParameterValue>(format: .lines))
    }
    var decoder = HTTPSerializationRequestDecoder()
    decoder.form = FormDecoder()
    decoder.json = JSONBodyDecoder()
    decoder.multipart.spillThreshold = 1 << 20
    _ = RequestBodyFailure(FormDecodingError.tooManyPairs(limit: 1))
    return router
}
