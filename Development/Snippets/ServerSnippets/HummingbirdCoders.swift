// The one-line Hummingbird setup of the article "Reading uploads on a server", compiled so the
// article's calls stay true. The region between `// snippet:` and `// end snippet` appears
// verbatim in the article (a test in HTTPSerializationTests checks it).
// snippet: hummingbird-coders
import Hummingbird
import HTTPSerializationHummingbird

struct Order: ResponseCodable {
    var id: Int
    var item: String
}

// The one line: this context's decoder and encoder are the package's.
struct OrderContext: HTTPSerializationRequestContext {
    var coreContext: CoreRequestContextStorage
    init(source: ApplicationRequestContextSource) { coreContext = .init(source: source) }
    // Hummingbird's one upload limit, which JSON, forms and multipart uploads all keep.
    var maxUploadSize: Int { 50 << 20 }
    // At most 20 files on disk a request; fields of up to 64 KiB.
    var requestDecoder: HTTPSerializationRequestDecoder {
        var decoder = HTTPSerializationRequestDecoder()
        decoder.multipart.limits.maximumSpilledFiles = 20
        decoder.multipart.limits.maximumFieldBytes = 64 << 10
        return decoder
    }
}

func makeOrderRouter(updates: StreamBroadcast<ServerSentEvent>) -> Router<OrderContext> {
    let router = Router(context: OrderContext.self)
    // JSON, a form or a multipart form, by Content-Type; 400, 413 or 415 when it cannot be read.
    router.post("orders") { request, context -> Order in
        try await request.decode(as: Order.self, context: context)
    }
    // A query string, nested keys and all, with the context's form decoder.
    router.get("orders") { request, context -> Order in
        try request.uri.decodeQuery(as: Order.self, using: context.requestDecoder.form, context: context)
    }
    // Every update from the moment a client connects, and after a reconnection the kept
    // ones it missed (its Last-Event-ID); written as the client reads them.
    router.get("orders/events") { request, context in
        Response.stream(updates.subscribe(lastEventID: request.lastEventID),
                        writer: ServerSentEventWriter(), logger: context.logger)
    }
    return router
}
// end snippet
