#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// An exchange that failed on the way: the connection was refused or lost, the host was not
/// found, the time ran out, TLS failed, or a request with a body was redirected. Every
/// transport (URLSession's helpers and the async-http-client bridge) throws it, with the same
/// case for the same failure.
///
/// With the Foundation layer, `error as NSError` is the `NSURLErrorDomain` error URLSession
/// reports for the same failure (`-1004`, `-1003`, `-1001`, `-1200`, `-1005`), so code that
/// checked those keeps working.
///
/// ```swift
/// do {
///     let result = try await URLSession.shared.response(for: request, serializer: serializer)
/// } catch let error as TransportError {
///     print(error)   // "Could not connect to http://127.0.0.1:9/: the connection was refused."
/// }
/// ```
public enum TransportError: Error, Sendable, Equatable, CustomStringConvertible {
    /// Nothing accepted the connection at the request's host and port.
    case connectionRefused(url: String)
    /// The request's host name did not resolve.
    case hostNotFound(url: String)
    /// No response came within the time limit, in seconds.
    case timedOut(url: String, seconds: Double)
    /// The TLS handshake failed: an untrusted or invalid certificate, or a peer that does not
    /// speak TLS.
    case tlsFailed(url: String, reason: String)
    /// The connection closed before the response was complete.
    case connectionLost(url: String)
    /// Any other failure to exchange the request, with the transport's own error.
    case failed(url: String, reason: String, underlying: UnderlyingError? = nil)
    /// A request with a body was redirected from `url` to `to`: URLSession on Linux drops the
    /// body after a 307 or 308 without saying so, and 301–303 turn it into a GET, so the body
    /// may not have reached the final URL.
    case redirectedWithBody(url: String, to: String)

    /// The URL the request was sent to.
    public var url: String {
        switch self {
        case .connectionRefused(let url), .hostNotFound(let url), .timedOut(let url, _), .tlsFailed(let url, _),
             .connectionLost(let url), .failed(let url, _, _), .redirectedWithBody(let url, _):
            return url
        }
    }

    /// The `NSURLError` code URLSession uses for this failure.
    public var code: Int {
        switch self {
        case .connectionRefused: return -1004  // NSURLErrorCannotConnectToHost
        case .hostNotFound: return -1003  // NSURLErrorCannotFindHost
        case .timedOut: return -1001  // NSURLErrorTimedOut
        case .tlsFailed: return -1200  // NSURLErrorSecureConnectionFailed
        case .connectionLost: return -1005  // NSURLErrorNetworkConnectionLost
        case .failed: return -1  // NSURLErrorUnknown
        case .redirectedWithBody: return -1011  // NSURLErrorBadServerResponse: the answer came from elsewhere
        }
    }

    /// A sentence that says what failed and where.
    public var description: String {
        switch self {
        case .connectionRefused(let url):
            return "Could not connect to \(url): the connection was refused."
        case .hostNotFound(let url):
            return "Could not connect to \(url): the host was not found."
        case .timedOut(let url, let seconds):
            return "The request to \(url) timed out after \(Self.format(seconds)) s."
        case .tlsFailed(let url, let reason):
            return "A secure connection to \(url) could not be made: \(reason)."
        case .connectionLost(let url):
            return "The connection to \(url) closed before the response was complete."
        case .failed(let url, let reason, _):
            return "The request to \(url) failed: \(reason)."
        case .redirectedWithBody(let url, let to):
            return "The request to \(url) was redirected to \(to); its body may not have been sent again."
        }
    }

    /// The transport's own error, for the cases that keep it.
    public var underlyingError: (any Error)? {
        if case .failed(_, _, let underlying) = self { return underlying?.error }
        return nil
    }

    private static func format(_ seconds: Double) -> String {
        seconds == seconds.rounded() ? String(Int(seconds)) : String(seconds)
    }
}

