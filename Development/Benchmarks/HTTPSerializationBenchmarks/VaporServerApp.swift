import Foundation
import HTTPSerializationVapor
import Vapor

/// The §5 routes on Vapor 4, each twice: `/default/…` through Vapor's default coders
/// (`JSONDecoder`/`JSONEncoder` with ISO 8601 dates, its `URLEncodedFormDecoder`), `/ours/…`
/// through `HTTPSerializationCoders`, with routing and HTTP the same.
enum VaporServerApp {
    static func addRoutes(to app: Application, events: [ServerSentEvent]) {
        let coders = HTTPSerializationCoders()
        let jsonDecoder = JSONDecoder.custom(dates: .iso8601), jsonEncoder = JSONEncoder.custom(dates: .iso8601)
        let formDecoder = URLEncodedFormDecoder()
        app.post("default", "records") { request async throws -> Response in
            let records = try request.content.decode([JSONBenchmarks.Record].self, using: jsonDecoder)
            let response = Response()
            try response.content.encode(records, using: jsonEncoder)
            return response
        }
        app.post("ours", "records") { request async throws -> Response in
            let records = try request.content.decode([JSONBenchmarks.Record].self, using: coders.jsonDecoder)
            let response = Response()
            try response.content.encode(records, using: coders.jsonEncoder)
            return response
        }
        app.post("default", "form") { request async throws -> String in
            String(try request.content.decode(JSONBenchmarks.Record.self, using: formDecoder).id)
        }
        app.post("ours", "form") { request async throws -> String in
            String(try request.content.decode(JSONBenchmarks.Record.self, using: coders.formDecoder).id)
        }
        app.get("ours", "events") { _ in
            Response.stream(StreamWritingBenchmarks.Values(values: events), writer: ServerSentEventWriter())
        }
        app.get("default", "events") { _ in
            var headers = HTTPHeaders()
            headers.replaceOrAdd(name: .contentType, value: "text/event-stream")
            return Response(status: .ok, headers: headers, body: .init(managedAsyncStream: { writer in
                for await event in StreamWritingBenchmarks.Values(values: events) {
                    try await writer.writeBuffer(ServerBenchmarks.handFormatted(event))
                }
            }))
        }
    }

    struct PeerUpload: Content {
        var title: String
        var file: File
    }

    /// The §5 upload routes: Vapor's own way collects the body (up to the route's limit) and
    /// decodes it with multipart-kit; ours reads it as it streams in.
    static func addUploadRoutes(to app: Application) {
        let uploads = ServerUploadBenchmarks.decoder
        app.on(.POST, "drain", "upload", body: .stream) { request async throws -> String in
            var total = 0
            for try await chunk in request.body { total += chunk.readableBytes }
            return String(total)
        }
        app.on(.POST, "default", "upload", body: .collect(maxSize: "4gb")) { request async throws -> String in
            String(try request.content.decode(PeerUpload.self).file.data.readableBytes)
        }
        app.on(.POST, "ours", "upload", body: .stream) { request async throws -> String in
            String(try await request.decodeMultipart(ServerUploadBenchmarks.Upload.self, using: uploads).file.size)
        }
    }

    /// Runs the app on 127.0.0.1 at an ephemeral port until `body` returns.
    static func serving<T: Sendable>(events: [ServerSentEvent], _ body: @Sendable (Int) async throws -> T) async throws -> T {
        // Arguments of its own, so Vapor does not read the benchmark's.
        let app = try await Application.make(Environment(name: "production", arguments: ["httpser-bench"]))
        app.logger.logLevel = .error
        app.http.server.configuration.hostname = "127.0.0.1"
        app.http.server.configuration.port = 0
        app.routes.defaultMaxBodySize = "4mb"
        addRoutes(to: app, events: events)
        addUploadRoutes(to: app)
        do {
            try await app.server.start(address: nil)
            guard let port = app.http.server.shared.localAddress?.port else { throw ServerBenchmarks.Failure("Vapor did not start") }
            let result = try await body(port)
            await app.server.shutdown()
            try await app.asyncShutdown()
            return result
        } catch {
            await app.server.shutdown()
            try? await app.asyncShutdown()
            throw error
        }
    }
}
