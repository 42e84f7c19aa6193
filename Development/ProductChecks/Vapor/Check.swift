// README row `HTTPSerializationVapor`: Vapor 4's content coders, streamed multipart reads and
// streamed responses (with the package trait Vapor). It brings the coders, the failure
// they throw, their limits, multipart forms and the stream writers, and no more.
import HTTPSerializationVapor
import Vapor

struct CheckedUpload: Content {
    var title: String
}

public func checkVapor(_ app: Application) {
    var coders = HTTPSerializationCoders()
    coders.multipart.limits = MultipartParsingLimits()
    app.useHTTPSerialization(coders)
    app.on(.POST, "uploads", body: .stream) { request -> CheckedUpload in
        try await request.decodeMultipart(CheckedUpload.self)
    }
    app.get("lines") { _ in
        Response.stream(AsyncStream<CheckedUpload> { $0.finish() }, writer: JSONStreamWriter<CheckedUpload>(format: .lines))
    }
    app.get("events") { request in
        Response.stream(StreamBroadcast<ServerSentEvent>().subscribe(lastEventID: request.lastEventID),
                        writer: ServerSentEventWriter(), logger: request.logger)
    }
    _ = RequestBodyFailure.bodyTooLarge(limit: 1).underlyingError
}
