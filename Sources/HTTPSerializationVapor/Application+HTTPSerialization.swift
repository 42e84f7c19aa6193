#if Vapor
import HTTPSerializationCodable
public import Vapor

extension Application {
    /// The package's coders for this app: the one place its limits are set.
    ///
    /// A streamed upload (`req.decodeMultipart` on a route registered with `body: .stream`)
    /// is read with ``HTTPSerializationCoders/multipart``: its limits are the only ones such a
    /// route has, since Vapor collects nothing for it. Other bodies are collected by Vapor first,
    /// up to the route's `body: .collect(maxSize:)` or `app.routes.defaultMaxBodySize`
    /// (16 KiB unless set), and then held to the coders' own limits. The defaults:
    ///
    /// | body | held to |
    /// |---|---|
    /// | JSON, collected | Vapor's collect limit; 512 levels of nesting |
    /// | form or query, collected | Vapor's collect limit; 1,000 pairs, keys of 1 KiB |
    /// | multipart, collected | Vapor's collect limit and ``HTTPSerializationCoders/multipart``'s |
    /// | multipart, streamed | ``HTTPSerializationCoders/multipart``'s: 1 GiB in all, 100 files on disk |
    ///
    /// Unset, it reads as the default coders with, as ``HTTPSerializationCoders/multipart``,
    /// the decoder registered for `multipart/form-data` when that is this package's; when it
    /// is not, the app's log says once that uploads use the defaults.
    ///
    /// ```swift
    /// var coders = HTTPSerializationCoders()
    /// coders.multipart.limits.maximumBodyBytes = 200 << 20
    /// app.useHTTPSerialization(coders)
    /// ```
    public var httpSerializationCoders: HTTPSerializationCoders {
        get {
            if let coders = storage[CodersKey.self] { return coders }
            var coders = HTTPSerializationCoders()
            if let registered = (try? ContentConfiguration.global.requireDecoder(for: .formData)) as? MultipartFormDecoder {
                coders.multipart = registered
            } else if storage[DefaultsNoticeKey.self] == nil {
                storage[DefaultsNoticeKey.self] = true
                logger.warning("""
                    Streamed multipart uploads use HTTPSerialization's default limits (1 GiB a body, 100 files on disk): \
                    call app.useHTTPSerialization(_:) to set them.
                    """)
            }
            return coders
        }
        set { storage[CodersKey.self] = newValue }
    }

    /// Makes `coders` this app's (``httpSerializationCoders``) and Vapor's content coders
    /// (`ContentConfiguration.global.useHTTPSerialization(_:)`): call it once while
    /// configuring the app.
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

    private struct DefaultsNoticeKey: StorageKey {
        typealias Value = Bool
    }
}
#endif
