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

/// The body of a serialized request: nothing, bytes, a multipart form, or a stream, each
/// read lazily by the transport that sends it.
public enum RequestBody: Sendable {
    /// No body.
    case none
    /// The whole body in memory (a form, JSON or property-list body, or raw bytes).
    case bytes(Data)
    /// A multipart form, streamed from its parts with an exact length.
    case multipart(MultipartFormData)
    /// A file or stream read on demand; sent chunked when its length is unknown.
    case stream(RequestBodyStream)

    /// The exact number of bytes the body holds; nil only for a stream of unknown length.
    public var length: UInt64? {
        switch self {
        case .none: return 0
        case .bytes(let data): return UInt64(data.count)
        case .multipart(let form): return form.contentLength
        case .stream(let stream): return stream.length
        }
    }

    /// The bytes of a `.bytes` body; nil for the others.
    public var data: Data? {
        if case .bytes(let data) = self { return data }
        return nil
    }

    /// Whether anything goes on the wire after the head (an empty form or byte body does not).
    public var isEmpty: Bool {
        length == 0
    }

    /// The whole body in memory, for small bodies and tests: a form is encoded, a stream read to its end.
    ///
    /// A body read from an async sequence blocks the calling thread while the sequence
    /// delivers: from async code, read ``chunks(size:)`` instead.
    ///
    /// - Throws: what reading the body throws (a missing file, a short stream, …).
    public func collect() throws -> Data {
        switch self {
        case .none: return Data()
        case .bytes(let data): return data
        case .multipart(let form): return try form.encodedData()
        case .stream:
            let source = try makeSource()
            defer { source.close() }
            var data = Data()
            var buffer = [UInt8](repeating: 0, count: 64 * 1024)
            while true {
                let count = try buffer.withUnsafeMutableBytes { try source.read(into: $0) }
                if count == 0 { return data }
                data.append(contentsOf: buffer[..<count])
            }
        }
    }

    /// The async sequence a stream body is read from, when it has one.
    package var asyncChunks: AsyncChunkFactory? {
        if case .stream(let stream) = self { return stream.asyncChunks }
        return nil
    }

    /// The throttle a multipart form asks for; nil for other bodies.
    package var throttle: MultipartFormData.Throttle? {
        if case .multipart(let form) = self { return form.throttle }
        return nil
    }

    /// A fresh reader over the whole body, from its first byte.
    package func makeSource() throws -> any BodyByteSource {
        switch self {
        case .none: return DataBodySource(Data())
        case .bytes(let data): return DataBodySource(data)
        case .multipart(let form): return MultipartBodyReader(form: form)
        case .stream(let stream): return try stream.makeSource()
        }
    }
}
