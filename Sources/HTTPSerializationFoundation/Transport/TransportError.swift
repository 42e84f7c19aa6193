import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import HTTPSerializationCore

/// A request that got no response: the connection was refused or lost, the host was not
/// found, the time ran out, or TLS failed. Both transport helpers throw it, with the same case
/// for the same failure.
///
/// `error as NSError` is the `NSURLErrorDomain` error URLSession reports for the same failure
/// (`-1004`, `-1003`, `-1001`, `-1200`, `-1005`), so code that checked those keeps working.
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

    /// The URL the request was sent to.
    public var url: String {
        switch self {
        case .connectionRefused(let url), .hostNotFound(let url), .timedOut(let url, _), .tlsFailed(let url, _),
             .connectionLost(let url), .failed(let url, _, _):
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

extension TransportError {
    /// The typed form of a URLSession failure for `request`; nil for errors that are not
    /// transport failures (cancellation, or errors of this package).
    package init?(urlSessionError error: any Error, request: URLRequest) {
        guard let error = error as? URLError else { return nil }
        let url = request.url?.absoluteString ?? ""
        switch error.code {
        case .cannotConnectToHost: self = .connectionRefused(url: url)
        case .cannotFindHost, .dnsLookupFailed: self = .hostNotFound(url: url)
        case .timedOut: self = .timedOut(url: url, seconds: request.timeoutInterval)
        case .secureConnectionFailed, .serverCertificateHasBadDate, .serverCertificateUntrusted,
             .serverCertificateHasUnknownRoot, .serverCertificateNotYetValid, .clientCertificateRejected,
             .clientCertificateRequired:
            self = .tlsFailed(url: url, reason: "the certificate or handshake was refused (NSURLError \(error.code.rawValue))")
        case .networkConnectionLost: self = .connectionLost(url: url)
        case .cancelled: return nil
        default:
            // corelibs reports some libcurl failures as NSURLErrorUnknown with curl's message:
            // TLS failures carry OpenSSL's, and a connection closed mid-response says so.
            let message = (error as NSError).localizedDescription
            if message.contains("SSL") || message.contains("TLS") {
                self = .tlsFailed(url: url, reason: message)
            } else if message.hasPrefix("transfer closed") || message.contains("Empty reply from server")
                        || message.contains("Connection reset by peer") {
                self = .connectionLost(url: url)
            } else {
                self = .failed(url: url, reason: "NSURLError \(error.code.rawValue): \(message)", underlying: UnderlyingError(error))
            }
        }
    }
}

/// `error as NSError` is the `NSURLErrorDomain` error URLSession reports for the same failure.
extension TransportError: LocalizedError, CustomNSError {
    /// The error's `description`, which `localizedDescription` returns.
    public var errorDescription: String? { description }
    /// `NSURLErrorDomain`, as URLSession reports transport failures.
    public static var errorDomain: String { NSURLErrorDomain }
    /// The `NSURLError` code: the error's `code`.
    public var errorCode: Int { code }
    /// The description, the failing URL, and the transport's own error.
    public var errorUserInfo: [String: Any] {
        var info: [String: Any] = [NSLocalizedDescriptionKey: description, NSURLErrorFailingURLStringErrorKey: url]
        if let url = URL(string: url) { info[NSURLErrorFailingURLErrorKey] = url }
        if let underlyingError { info[NSUnderlyingErrorKey] = underlyingError as NSError }
        return info
    }
}
