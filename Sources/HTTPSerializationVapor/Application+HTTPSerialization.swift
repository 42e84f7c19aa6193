#if Vapor
import HTTPSerializationCodable
public import Vapor

extension Application {
    /// The package's coders for this app: where its streamed uploads' limits are set.
    ///
    /// A streamed upload (`req.decodeMultipart` on a route registered with `body: .stream`)
    /// is read with ``HTTPSerializationCoders/multipart``: its limits are the only ones such a
    /// route has, since Vapor collects nothing for it, and they are this app's alone. Other
    /// bodies are collected by Vapor first, up to the route's `body: .collect(maxSize:)` or
    /// `app.routes.defaultMaxBodySize` (16 KiB unless set), then read by the coders registered
    /// in `ContentConfiguration.global`, which is process-wide: two apps in one process share
    /// those. The defaults:
    ///
    /// | body | held to |
    /// |---|---|
    /// | JSON, collected | Vapor's collect limit; 512 levels of nesting |
    /// | form or query, collected | Vapor's collect limit; 1,000 pairs, keys of 1 KiB |
    /// | multipart, collected | Vapor's collect limit and ``HTTPSerializationCoders/multipart``'s |
    /// | multipart, streamed | this app's ``HTTPSerializationCoders/multipart``: 1 GiB in all, 100 files on disk |
    ///
    /// Unset, it is nil, and `req.decodeMultipart` reads with the decoder registered for
    /// `multipart/form-data` when that is this package's; when it is not, with the package's
    /// defaults, saying so in a warning on the request's logger.
    ///
    /// ```swift
    /// var coders = HTTPSerializationCoders()
    /// coders.multipart.limits.maximumBodyBytes = 200 << 20
    /// app.useHTTPSerialization(coders)
    /// ```
    public var httpSerializationCoders: HTTPSerializationCoders? {
        get { storage[CodersKey.self] }
        set { storage[CodersKey.self] = newValue }
    }

    /// Makes `coders` this app's (``httpSerializationCoders``) and Vapor's content coders
    /// (`ContentConfiguration.global.useHTTPSerialization(_:)`, process-wide): call it once
    /// while configuring the app.
    ///
    /// ```swift
    /// app.useHTTPSerialization()
    /// ```
    public func useHTTPSerialization(_ coders: HTTPSerializationCoders = HTTPSerializationCoders()) {
        httpSerializationCoders = coders
        ContentConfiguration.global.useHTTPSerialization(coders)
    }

    private struct CodersKey: StorageKey {
        typealias Value = HTTPSerializationCoders
    }
}
#endif
