import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import HTTPTypes
import HTTPSerializationCore

// The one conversion pair between the request path and `URLRequest`: every builder makes a
// `SerializedRequest` once, and the `URLRequest` forms only convert it, here.

extension HTTPRequestSerializerComposing {
    /// `serialized` as the `URLRequest` AFNetworking's builders return: the request properties
    /// this serializer sets (timeout, cache policy and the rest), and the URL as `urlString`
    /// spells what the head cannot (its fragment, no `/` after a bare host), as AFNetworking
    /// kept it.
    func urlRequest(_ serialized: SerializedRequest, urlString: String) throws -> URLRequest {
        // The fragment is checked as every other part of the target was.
        let target = RequestTarget(urlString)
        try target.validate()
        return try base.makeRequest(method: serialized.request.method.rawValue, urlString: urlString)
            .applying(serialized, as: target)
    }
}

extension URLRequest {
    /// This request taken apart into an `HTTPRequest` and body, handed to `serialize`, and the
    /// result written back onto a copy, so the request's own properties stay: the `URLRequest`
    /// form of every serializer method that takes a request.
    func serialized(by serialize: (HTTPRequest, RequestBody) throws -> SerializedRequest) throws -> URLRequest {
        let parts = try serializationParts()
        return try applying(serialize(parts.request, parts.body), as: parts.target)
    }
}
