#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import HTTPTypes

/// A request head from swift-http-types and the body to send with it: what every request
/// serializer takes and gives.
///
/// Server-side Swift (Hummingbird 2, swift-nio-extras, swift-openapi) speaks `HTTPRequest`;
/// this pairs one with the body the serializer made, so nothing is carried on the side.
///
/// ```swift
/// let serialized = try JSONRequestSerializer().httpRequest(
///     method: "POST", urlString: "https://example.com/items", parameters: ["name": "bang"])
/// serialized.request.headerFields[.contentType]  // "application/json"
/// serialized.body                                // .bytes({"name":"bang"})
/// ```
public struct SerializedRequest: Sendable {
    /// Method, scheme, authority, path with query, and header fields.
    public var request: HTTPRequest
    /// What goes on the wire after the head.
    public var body: RequestBody

    /// Pairs a request head with its body; no body by default.
    public init(request: HTTPRequest, body: RequestBody = .none) {
        self.request = request
        self.body = body
    }
}

/// The body of a serialized request: nothing, bytes, or a multipart form read lazily.
public enum RequestBody: Sendable {
    /// No body.
    case none
    /// The whole body in memory (a form, JSON or property-list body).
    case bytes(Data)
    /// A multipart form, streamed from its parts with an exact length.
    case multipart(MultipartFormData)

    /// The exact number of bytes the body holds.
    public var length: UInt64 {
        switch self {
        case .none: return 0
        case .bytes(let data): return UInt64(data.count)
        case .multipart(let form): return form.contentLength
        }
    }

    /// The bytes of a `.bytes` body; nil for the others.
    public var data: Data? {
        if case .bytes(let data) = self { return data }
        return nil
    }
}
