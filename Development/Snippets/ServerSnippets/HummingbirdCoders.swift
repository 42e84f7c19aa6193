// The one-line Hummingbird setup of the article "Reading uploads on a server", compiled so the
// article's calls stay true. The region between `// snippet:` and `// end snippet` appears
// verbatim in the article (a test in HTTPSerializationTests checks it).
// snippet: hummingbird-coders
import Hummingbird
import HTTPSerialization
import HTTPSerializationHummingbird

struct Order: ResponseCodable {
    var id: Int
    var item: String
}

func makeOrderRouter(events: AsyncStream<ServerSentEvent>) -> Router<HTTPSerializationBasicRequestContext> {
    // The one line: this context's decoder and encoder are the package's.
    let router = Router(context: HTTPSerializationBasicRequestContext.self)
    // JSON, a form or a multipart form, by Content-Type; 400, 413 or 415 when it cannot be read.
    router.post("orders") { request, context -> Order in
        try await request.decode(as: Order.self, context: context)
    }
    // Events written as the client reads them, with Cache-Control: no-cache.
    router.get("orders/events") { _, _ in
        Response.stream(events, writer: ServerSentEventWriter())
    }
    return router
}
// end snippet
