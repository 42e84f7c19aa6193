#if Hummingbird
public import Hummingbird

/// A request context whose coders are this package's: conform an app's context to it, or use
/// ``HTTPSerializationBasicRequestContext``.
///
/// ```swift
/// let router = Router(context: HTTPSerializationBasicRequestContext.self)
/// router.post("/orders") { request, context in
///     try await request.decode(as: Order.self, context: context)   // JSON, form or multipart
/// }
/// ```
public protocol HTTPSerializationRequestContext: RequestContext
where Decoder == HTTPSerializationRequestDecoder, Encoder == HTTPSerializationResponseEncoder {}

extension HTTPSerializationRequestContext {
    /// The package's decoder, with its defaults.
    public var requestDecoder: HTTPSerializationRequestDecoder { HTTPSerializationRequestDecoder() }
    /// The package's encoder, with its defaults.
    public var responseEncoder: HTTPSerializationResponseEncoder { HTTPSerializationResponseEncoder() }
}

/// Hummingbird's `BasicRequestContext` with this package's coders: the one line that makes them
/// an app's.
public struct HTTPSerializationBasicRequestContext: HTTPSerializationRequestContext {
    /// Hummingbird's per-request storage.
    public var coreContext: CoreRequestContextStorage

    /// A context for a request from `source`.
    public init(source: ApplicationRequestContextSource) {
        coreContext = .init(source: source)
    }
}
#endif
