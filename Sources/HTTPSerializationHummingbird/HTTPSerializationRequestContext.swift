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
///
/// A context that takes only one of the two conforms to
/// ``HTTPSerializationDecodingContext`` or ``HTTPSerializationEncodingContext``; the other
/// stays Hummingbird's `JSONDecoder` or `JSONEncoder`.
public protocol HTTPSerializationRequestContext: HTTPSerializationDecodingContext, HTTPSerializationEncodingContext {}

/// A request context whose bodies are read by the package's
/// ``HTTPSerializationRequestDecoder``, its answers written by Hummingbird's `JSONEncoder` or
/// whatever encoder the context names.
///
/// ```swift
/// struct AppContext: HTTPSerializationDecodingContext {
///     var coreContext: CoreRequestContextStorage
///     init(source: ApplicationRequestContextSource) { coreContext = .init(source: source) }
/// }
/// ```
public protocol HTTPSerializationDecodingContext: RequestContext where Decoder == HTTPSerializationRequestDecoder {}

extension HTTPSerializationDecodingContext {
    /// The package's decoder, with its defaults; a context returns its own to set limits.
    public var requestDecoder: HTTPSerializationRequestDecoder { HTTPSerializationRequestDecoder() }
}

/// A request context whose answers are written by the package's
/// ``HTTPSerializationResponseEncoder``, its bodies read by Hummingbird's `JSONDecoder` or
/// whatever decoder the context names.
public protocol HTTPSerializationEncodingContext: RequestContext where Encoder == HTTPSerializationResponseEncoder {}

extension HTTPSerializationEncodingContext {
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
