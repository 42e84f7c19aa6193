import HTTPTypes

extension StreamBodyWriter {
    /// The header fields a response streaming this writer's body carries: its content type,
    /// and for an event stream `Cache-Control: no-cache`, so no proxy holds events back.
    ///
    /// One rule for every framework integration.
    package var responseHeaderFields: HTTPFields {
        var fields: HTTPFields = [.contentType: contentType]
        if contentType == "text/event-stream" { fields[.cacheControl] = "no-cache" }
        return fields
    }
}
