import Foundation
import HTTPSerializationHummingbird
import Hummingbird
import Logging
import MultipartKit

/// The §5 routes on Hummingbird 2, each twice: `/default/…` through Hummingbird's own coders
/// (Foundation's `JSONDecoder`/`JSONEncoder`, its `URLEncodedFormDecoder`), `/ours/…` through
/// this package's, with routing and HTTP the same. In a file of its own so that Hummingbird's
/// names meet nothing of Vapor's.
enum HummingbirdServerApp {
    static func router(events: [ServerSentEvent]) -> Router<BasicRequestContext> {
        let router = Router(context: BasicRequestContext.self)
        let ours = HTTPSerializationRequestDecoder()
        router.post("/default/records") { request, context -> Response in
            let records = try await request.decode(as: [JSONBenchmarks.Record].self, context: context)
            return try context.responseEncoder.encode(records, from: request, context: context)
        }
        router.post("/ours/records") { request, context -> Response in
            let records = try await ours.decode([JSONBenchmarks.Record].self, from: request, context: context)
            return try HTTPSerializationResponseEncoder().encode(records, from: request, context: context)
        }
        router.post("/default/form") { request, context -> String in
            String(try await URLEncodedFormDecoder().decode(JSONBenchmarks.Record.self, from: request, context: context).id)
        }
        router.post("/ours/form") { request, context -> String in
            String(try await ours.decode(JSONBenchmarks.Record.self, from: request, context: context).id)
        }
        // Events: the package's writer, and a formatter written by hand into ByteBuffers, one
        // write an event on both sides.
        router.get("/ours/events") { _, _ in
            Response.stream(StreamWritingBenchmarks.Values(values: events), writer: ServerSentEventWriter())
        }
        router.get("/default/events") { _, _ in
            Response(status: .ok, headers: [.contentType: "text/event-stream"], body: ResponseBody { writer in
                for await event in StreamWritingBenchmarks.Values(values: events) {
                    try await writer.write(ServerBenchmarks.handFormatted(event))
                }
                try await writer.finish(nil)
            })
        }
        addUploadRoutes(to: router)
        return router
    }

    /// The upload's file as multipart-kit hands it over, as Hummingbird's own multipart example
    /// declares one: the part's bytes in a `ByteBuffer`.
    struct PeerFile: MultipartPartConvertible, Decodable {
        let body: ByteBuffer
        var multipart: MultipartPart? { MultipartPart(headers: [:], body: body) }
        init?(multipart: MultipartPart) { body = multipart.body }
        init(from decoder: any Decoder) throws {
            throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath, debugDescription: "a file is read from its part"))
        }
    }

    struct PeerUpload: Decodable {
        var title: String
        var file: PeerFile
    }

    /// The §5 upload routes. Hummingbird reads no multipart itself: its documented way collects
    /// the body and hands it to multipart-kit's `FormDataDecoder`.
    static func addUploadRoutes(to router: Router<BasicRequestContext>) {
        let uploads = {
            var decoder = HTTPSerializationRequestDecoder()
            decoder.multipart = ServerUploadBenchmarks.decoder
            // Over the context's 2 MiB maxUploadSize, which would hold the upload too: the
            // route takes what the peer route, which collects without a limit, takes.
            decoder.maximumBodySize = 4 << 30
            return decoder
        }()
        router.post("/drain/upload") { request, _ -> String in
            var total = 0
            for try await chunk in request.body { total += chunk.readableBytes }
            return String(total)
        }
        router.post("/default/upload") { request, _ -> String in
            let contentType = request.headers[.contentType] ?? ""
            guard let boundary = contentType.split(separator: "boundary=").last.map(String.init) else { throw HTTPError(.badRequest) }
            let body = try await request.body.collect(upTo: .max)
            return String(try FormDataDecoder().decode(PeerUpload.self, from: body, boundary: boundary).file.body.readableBytes)
        }
        router.post("/ours/upload") { request, context -> String in
            String(try await uploads.decode(ServerUploadBenchmarks.Upload.self, from: request, context: context).file.size)
        }
    }

    /// Runs the app on 127.0.0.1 at an ephemeral port until `body` returns.
    static func serving<T: Sendable>(events: [ServerSentEvent], _ body: @Sendable (Int) async throws -> T) async throws -> T {
        let (ports, continuation) = AsyncStream<Int>.makeStream()
        // Quiet: ending the app by cancellation logs its shutdown as errors.
        var logger = Logger(label: "httpser-bench.hummingbird")
        logger.logLevel = .critical
        let app = Application(router: router(events: events), configuration: .init(address: .hostname("127.0.0.1", port: 0)),
                              onServerRunning: { channel in continuation.yield(channel.localAddress?.port ?? 0) }, logger: logger)
        let running = Task { try await app.runService(gracefulShutdownSignals: []) }
        defer { running.cancel() }
        var iterator = ports.makeAsyncIterator()
        guard let port = await iterator.next(), port > 0 else { throw ServerBenchmarks.Failure("Hummingbird did not start") }
        let result = try await body(port)
        running.cancel()
        _ = await running.result
        return result
    }
}
