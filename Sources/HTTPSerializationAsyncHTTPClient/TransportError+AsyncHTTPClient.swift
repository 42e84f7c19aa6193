// Exists only with the package trait `AsyncHTTPClient`, like the rest of the bridge.
#if AsyncHTTPClient
import AsyncHTTPClient
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import HTTPSerializationCore
import NIOCore
import NIOHTTP1
import NIOPosix
import NIOSSL

extension TransportError {
    /// The typed form of an async-http-client or SwiftNIO failure for a request to `url`.
    ///
    /// For code that drives `HTTPClient` itself (streaming a download, following redirects
    /// its own way) and wants the errors `execute(_:serializer:)` throws. Nil for
    /// cancellation and for errors of this package, which pass through unchanged; `timeout`
    /// is the limit a timeout error reports.
    ///
    /// ```swift
    /// do {
    ///     let response = try await client.execute(request, timeout: .seconds(30))
    /// } catch {
    ///     throw TransportError(asyncHTTPClientError: error, url: request.url, timeout: .seconds(30)) ?? error
    /// }
    /// ```
    public init?(asyncHTTPClientError error: any Error, url: String, timeout: TimeAmount) {
        let seconds = Double(timeout.nanoseconds) / 1e9
        switch error {
        case is any HTTPSerializationError, is CancellationError:
            return nil
        case let error as HTTPClientError:
            switch error {
            case .cancelled:
                return nil
            case .deadlineExceeded, .readTimeout, .writeTimeout, .connectTimeout, .tlsHandshakeTimeout,
                 .getConnectionFromPoolTimeout:
                self = .timedOut(url: url, seconds: seconds)
            case .remoteConnectionClosed:
                self = .connectionLost(url: url)
            default:
                self = .failed(url: url, reason: "\(error)", underlying: UnderlyingError(error))
            }
        case let error as NIOConnectionError:
            if let failure = error.connectionErrors.first {
                self = TransportError(asyncHTTPClientError: failure.error, url: url, timeout: timeout)
                    ?? .failed(url: url, reason: "\(failure.error)", underlying: UnderlyingError(error))
            } else if error.dnsAError != nil || error.dnsAAAAError != nil {
                self = .hostNotFound(url: url)
            } else {
                self = .failed(url: url, reason: "\(error)", underlying: UnderlyingError(error))
            }
        case let error as IOError:
            switch error.errnoCode {
            case ECONNREFUSED: self = .connectionRefused(url: url)
            case ETIMEDOUT: self = .timedOut(url: url, seconds: seconds)
            case ECONNRESET, EPIPE: self = .connectionLost(url: url)
            default: self = .failed(url: url, reason: "\(error)", underlying: UnderlyingError(error))
            }
        case HTTPParserError.invalidEOFState:
            // The connection closed before the response's framing was complete.
            self = .connectionLost(url: url)
        case let error as ChannelError:
            if case .connectTimeout = error {
                self = .timedOut(url: url, seconds: seconds)
            } else {
                self = .failed(url: url, reason: "\(error)", underlying: UnderlyingError(error))
            }
        case is SocketAddressError:
            self = .hostNotFound(url: url)
        case let error as NIOSSLError:
            self = .tlsFailed(url: url, reason: Self.tlsReason(error))
        case let error as BoringSSLError:
            self = .tlsFailed(url: url, reason: "\(error)")
        case let error as NIOSSLExtraError:
            self = .tlsFailed(url: url, reason: "\(error)")
        default:
            self = .failed(url: url, reason: "\(error)", underlying: UnderlyingError(error))
        }
    }

    private static func tlsReason(_ error: NIOSSLError) -> String {
        switch error {
        case .handshakeFailed(let underlying): return "the handshake failed (\(underlying))"
        case .uncleanShutdown: return "the peer closed the connection without a TLS shutdown"
        default: return "\(error)"
        }
    }
}
#endif
