#if Hummingbird
public import Hummingbird
public import HTTPSerializationCodable

extension RequestBodyFailure: HTTPResponseError {
    /// The failure as Hummingbird's `HTTPError` answers one with a message: its status, and the
    /// message as `{"error":{"message":"…"}}` written by the context's response encoder.
    ///
    /// The decoder throws the failure itself, so a middleware can read its
    /// ``/HTTPSerializationCodable/RequestBodyFailure/underlyingError`` and the server's log
    /// shows its description, underlying error included; the client sees only the message.
    public func response(from request: Request, context: some RequestContext) throws -> Response {
        try HTTPError(status, message: message).response(from: request, context: context)
    }
}
#endif
