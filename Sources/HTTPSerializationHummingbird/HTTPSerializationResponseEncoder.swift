#if Hummingbird
public import Hummingbird
public import HTTPSerializationCodable

/// Hummingbird's response encoder, writing JSON with this package's encoder.
///
/// What `JSONEncoder`'s conformance writes (status 200, `application/json; charset=utf-8`,
/// `Content-Length`), from ``/HTTPSerializationCodable/JSONBodyEncoder``'s own
/// `ResponseEncoder` conformance. A context that answers forms instead sets its `Encoder` to
/// ``/HTTPSerializationCodable/FormEncoder``.
public struct HTTPSerializationResponseEncoder: ResponseEncoder, Sendable {
    /// Encodes the values; its strategies and output formatting apply.
    public var json = JSONBodyEncoder()

    /// An encoder with `JSONEncoder`'s defaults.
    public init() {}

    /// `value` as a JSON response.
    ///
    /// - Throws: what ``/HTTPSerializationCodable/JSONBodyEncoder/encode(_:)`` throws.
    public func encode(_ value: some Encodable, from request: Request, context: some RequestContext) throws -> Response {
        try json.encode(value, from: request, context: context)
    }
}
#endif
