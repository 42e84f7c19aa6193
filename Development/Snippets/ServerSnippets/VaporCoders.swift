// The one-line Vapor setup of the article "Reading uploads on a server", compiled so the
// article's calls stay true. The region between `// snippet:` and `// end snippet` appears
// verbatim in the article (a test in HTTPSerializationTests checks it).
// snippet: vapor-coders
import Vapor
import HTTPSerializationVapor

struct Ticket: Content {
    var id: Int
    var title: String
}

struct Attachment: Decodable {
    var ticket: Int
    var file: MultipartFile
}

func configureTickets(_ app: Application, updates: StreamBroadcast<ServerSentEvent>) {
    // Streamed uploads of up to 200 MiB, at most 20 files on disk a request.
    var coders = HTTPSerializationCoders()
    coders.multipart.limits.maximumBodyBytes = 200 << 20
    coders.multipart.limits.maximumSpilledFiles = 20
    // The one line: req.content, req.query, Content answers and streamed uploads use the
    // package's coders, with their limits.
    app.useHTTPSerialization(coders)
    // JSON, JSON:API, a form or a multipart form; 400, 413 or 415 when it cannot be read.
    app.post("tickets") { request async throws -> Ticket in
        try request.content.decode(Ticket.self)
    }
    // A large upload read as it arrives, its files past 1 MiB in temporary files.
    app.on(.POST, "tickets", "attachments", body: .stream) { request async throws -> HTTPStatus in
        let attachment = try await request.decodeMultipart(Attachment.self)
        try attachment.file.move(to: URL(fileURLWithPath: "/srv/attachments/\(attachment.ticket)"))
        return .created
    }
    // Every update from the moment a client connects, and after a reconnection the kept
    // ones it missed (its Last-Event-ID); written as the client reads them.
    app.get("tickets", "events") { request in
        Response.stream(updates.subscribe(lastEventID: request.lastEventID),
                        writer: ServerSentEventWriter(), logger: request.logger)
    }
}
// end snippet
