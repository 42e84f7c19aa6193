import AsyncHTTPClient
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import HTTPSerialization
import HTTPSerializationAsyncHTTPClient
import NIOHTTP1

/// A request as async-http-client writes it: the head from the same `HTTPClientRequest` the
/// tool sends, with the fields async-http-client adds itself, and where the body comes from.
///
/// `--offline` and `--print=HB` show this, so what is printed is what is sent; a test sends
/// requests to the echo server and compares what it received with this rendering.
struct WireRequest {
    var head: String
    var body: RequestBody
    var contentType: String?

    init(_ request: URLRequest, form: MultipartFormData?) throws {
        var serialized = try SerializedRequest(request)
        if let form { serialized.body = .multipart(form) }
        let clientRequest = try HTTPClientRequest(serialized)
        contentType = clientRequest.headers.first(name: "content-type")
        body = serialized.body
        guard let url = URL(string: clientRequest.url), let host = url.host else {
            throw RequestSerializationError.invalidURL(clientRequest.url)
        }
        // The request target, as async-http-client derives it from the URL.
        var target = url.path.isEmpty ? "/" : (URLComponents(url: url, resolvingAgainstBaseURL: true)?.percentEncodedPath ?? url.path)
        if let query = url.query { target += "?" + query }

        var lines = ["\(clientRequest.method.rawValue) \(target) HTTP/1.1"]
        var headers = clientRequest.headers
        // async-http-client's additions, in its order: `host` unless one was given (the port
        // only when it is not the scheme's), then the framing of the body.
        if !headers.contains(name: "host") {
            let defaultPort = url.scheme?.lowercased() == "https" ? 443 : 80
            // async-http-client writes an IPv6 host without its brackets.
            let bare = host.hasPrefix("[") && host.hasSuffix("]") ? String(host.dropFirst().dropLast()) : host
            headers.add(name: "host", value: bare + (url.port.map { $0 == defaultPort ? "" : ":\($0)" } ?? ""))
        }
        headers.remove(name: "content-length")
        headers.remove(name: "transfer-encoding")
        if let length = body.length {
            if length > 0 || !["GET", "HEAD", "DELETE", "CONNECT", "TRACE"].contains(clientRequest.method.rawValue) {
                headers.add(name: "Content-Length", value: String(length))
            }
        } else {
            headers.add(name: "Transfer-Encoding", value: "chunked")
        }
        for header in headers { lines.append("\(header.name): \(header.value)") }
        head = lines.joined(separator: "\r\n") + "\r\n\r\n"
    }

    /// The body's bytes in chunks, read lazily for a form or stream.
    func chunks(_ consume: (Data) async throws -> Void) async throws {
        switch body {
        case .none: return
        case .bytes(let data): try await consume(data)
        case .multipart, .stream:
            for try await chunk in body.chunks(size: 1 << 20) { try await consume(chunk) }
        }
    }
}
