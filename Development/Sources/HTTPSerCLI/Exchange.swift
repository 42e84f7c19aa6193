import AsyncHTTPClient
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import HTTPSerialization
import HTTPSerializationAsyncHTTPClient
import NIOCore
import NIOHTTP1
import NIOSSL

/// One request sent through async-http-client, with redirects followed by the tool itself so
/// a byte body and a multipart form are treated alike.
struct Exchange {
    let client: HTTPClient
    /// Follow 3xx responses that have a `Location`, as `--follow` asks.
    var follow = false
    var maximumRedirects = 30
    /// `--timeout`, which async-http-client applies to connecting and to each wait for data.
    var timeout: TimeAmount?

    struct TooManyRedirects: Error, CustomStringConvertible {
        var count: Int
        var description: String { "too many redirects (--max-redirects=\(count))" }
    }

    /// A response whose body is still to be read, and the request that got it.
    struct Hop {
        var request: URLRequest
        var response: HTTPClientResponse
    }

    /// A client without async-http-client's own redirect handling, with `--timeout` as its
    /// connect and read timeouts (HTTPie's meaning: how long to wait, not how long in all).
    static func makeClient(timeout: TimeAmount?, tls: TLSConfiguration?) -> HTTPClient {
        var configuration = HTTPClient.Configuration(
            tlsConfiguration: tls, redirectConfiguration: .disallow, timeout: .init(connect: timeout, read: timeout))
        // HTTP/1.1 always, so what --offline prints is what goes out, even to an h2 server.
        configuration.httpVersion = .http1Only
        return HTTPClient(eventLoopGroupProvider: .singleton, configuration: configuration)
    }

    /// Sends `request`, following redirects when asked; `onHop` sees each response redirected
    /// from, whose body is dropped unread (which closes its connection rather than waiting for
    /// a body that may never end).
    func send(
        _ request: URLRequest, form: MultipartFormData?, uploadProgress: (@Sendable (TransferProgress) -> Void)?,
        onHop: (Hop) async throws -> Void = { _ in }
    ) async throws -> Hop {
        var current = request
        var currentForm = form
        var redirects = 0
        while true {
            let hop = Hop(request: current, response: try await sendOnce(current, form: currentForm, uploadProgress: uploadProgress))
            guard follow, let next = Self.redirect(from: hop) else { return hop }
            guard redirects < maximumRedirects else { throw TooManyRedirects(count: maximumRedirects) }
            redirects += 1
            try await onHop(hop)
            if next.httpBody == nil && next.httpBodyStream == nil { currentForm = nil }
            current = next
        }
    }

    private func sendOnce(
        _ request: URLRequest, form: MultipartFormData?, uploadProgress: (@Sendable (TransferProgress) -> Void)?
    ) async throws -> HTTPClientResponse {
        var serialized = try SerializedRequest(request)
        if let form { serialized.body = .multipart(form) }
        let clientRequest = try HTTPClientRequest(serialized, uploadProgress: uploadProgress)
        do {
            return try await client.execute(clientRequest, deadline: .distantFuture)
        } catch {
            // Without --timeout only connecting has a limit: async-http-client's 10 seconds.
            throw TransportError(asyncHTTPClientError: error, url: clientRequest.url, timeout: timeout ?? .seconds(10)) ?? error
        }
    }

    /// The request a 3xx response with a `Location` leads to, by the rules of HTTPie's
    /// transport (requests): a 303 or 302 becomes a GET (a HEAD stays a HEAD), a 301 after a
    /// POST becomes a GET, and only 307 and 308 keep the body. Credentials and cookies are
    /// not sent to another origin.
    static func redirect(from hop: Hop) -> URLRequest? {
        let status = Int(hop.response.status.code)
        guard [301, 302, 303, 307, 308].contains(status),
              let location = hop.response.headers.first(name: "location"),
              let from = hop.request.url,
              let target = URL(string: location, relativeTo: from)?.absoluteURL,
              target.scheme == "http" || target.scheme == "https" else { return nil }
        var next = hop.request
        next.url = target
        let method = hop.request.httpMethod ?? "GET"
        if (status == 303 || status == 302) && method != "HEAD" || status == 301 && method == "POST" {
            next.httpMethod = "GET"
        }
        if status != 307 && status != 308 {
            next.httpBody = nil
            next.httpBodyStream = nil
            for name in ["Content-Type", "Content-Length", "Transfer-Encoding"] { next.setValue(nil, forHTTPHeaderField: name) }
        }
        if target.host?.lowercased() != from.host?.lowercased() || target.scheme?.lowercased() != from.scheme?.lowercased()
            || target.port != from.port {
            for name in ["Authorization", "Proxy-Authorization", "Cookie"] { next.setValue(nil, forHTTPHeaderField: name) }
        }
        // The original Host item belonged to the original server.
        if target.host != from.host || target.port != from.port { next.setValue(nil, forHTTPHeaderField: "Host") }
        return next
    }
}

extension Exchange.Hop {
    /// Reads the response body chunk by chunk; a failure of the transport while reading (a
    /// read timeout, a connection closed early) is the same `TransportError` as before the head.
    func readBody(timeout: TimeAmount?, _ consume: (ByteBuffer) async throws -> Void) async throws {
        var iterator = response.body.makeAsyncIterator()
        while true {
            let chunk: ByteBuffer?
            do {
                chunk = try await iterator.next()
            } catch {
                throw TransportError(asyncHTTPClientError: error, url: request.url?.absoluteString ?? "", timeout: timeout ?? .seconds(10)) ?? error
            }
            guard let chunk else { return }
            try await consume(chunk)
        }
    }
}
