import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import HTTPSerializationCore

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
        // URLSession still sets the failing URL's string under this key, whose constant
        // (`NSURLErrorFailingURLStringErrorKey`) is deprecated: spelled out, it stays without a warning.
        var info: [String: Any] = [NSLocalizedDescriptionKey: description, "NSErrorFailingURLStringKey": url]
        if let url = URL(string: url) { info[NSURLErrorFailingURLErrorKey] = url }
        if let underlyingError { info[NSUnderlyingErrorKey] = underlyingError as NSError }
        return info
    }
}
