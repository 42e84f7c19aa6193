import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import HTTPSerializationCore

/// Settings only `URLRequest` has. They live in this layer; the core keeps them by name
/// (`LayerSettings`) so a serializer still carries and archives them as AFNetworking's did.
extension HTTPRequestSerializer {
    /// The `URLRequest` timeout, applied to requests made by `request(method:urlString:parameters:)`
    /// only when set, so `URLRequest`'s own defaults stay in force otherwise.
    public var timeoutInterval: TimeInterval? {
        get { layerSettings[double: "timeoutInterval"] }
        set { layerSettings[double: "timeoutInterval"] = newValue }
    }

    /// `URLRequest.cachePolicy`, applied to requests this serializer makes only when set.
    public var cachePolicy: URLRequest.CachePolicy? {
        get { layerSettings[unsigned: "cachePolicy"].flatMap(URLRequest.CachePolicy.init(rawValue:)) }
        set { layerSettings[unsigned: "cachePolicy"] = newValue?.rawValue }
    }

    /// `URLRequest.allowsCellularAccess`, applied only when set.
    public var allowsCellularAccess: Bool? {
        get { layerSettings[bool: "allowsCellularAccess"] }
        set { layerSettings[bool: "allowsCellularAccess"] = newValue }
    }

    /// `URLRequest.httpShouldHandleCookies`, applied only when set.
    public var httpShouldHandleCookies: Bool? {
        get { layerSettings[bool: "httpShouldHandleCookies"] }
        set { layerSettings[bool: "httpShouldHandleCookies"] = newValue }
    }

    /// `URLRequest.httpShouldUsePipelining`, applied only when set.
    public var httpShouldUsePipelining: Bool? {
        get { layerSettings[bool: "httpShouldUsePipelining"] }
        set { layerSettings[bool: "httpShouldUsePipelining"] = newValue }
    }

    /// `URLRequest.networkServiceType`, applied to requests this serializer makes only when set.
    public var networkServiceType: URLRequest.NetworkServiceType? {
        get { layerSettings[unsigned: "networkServiceType"].flatMap(URLRequest.NetworkServiceType.init(rawValue:)) }
        set { layerSettings[unsigned: "networkServiceType"] = newValue?.rawValue }
    }
}
