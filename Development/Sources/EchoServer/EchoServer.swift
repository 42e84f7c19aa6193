import Foundation
import NIOConcurrencyHelpers
import NIOCore
import NIOHTTP1
import NIOHTTPCompression
import NIOPosix
import NIOSSL

/// A loopback HTTP/1.1 server that answers every request with JSON describing exactly what
/// it received: method, target, headers in order, body framing and the body itself.
///
/// For tests and the demo: it binds 127.0.0.1 on an ephemeral port by default and never
/// reaches beyond the machine.
///
/// ```swift
/// let server = try await EchoServer.start()
/// // … send requests to server.baseURL …
/// try await server.stop()
/// ```
public final class EchoServer: Sendable {
    private let channel: any Channel
    private let counter: NIOLockedValueBox<Int>
    /// The port the server listens on.
    public let port: Int

    /// How many requests the server has answered.
    public var requestCount: Int { counter.withLockedValue { $0 } }

    /// `http://127.0.0.1:<port>`, or `https://` when the server speaks TLS.
    public var baseURL: URL { URL(string: "\(scheme)://127.0.0.1:\(port)")! }

    private let scheme: String

    private init(channel: any Channel, port: Int, counter: NIOLockedValueBox<Int>, scheme: String) {
        self.channel = channel
        self.port = port
        self.counter = counter
        self.scheme = scheme
    }

    /// What the server accepts and how much it reports.
    public struct Configuration: Sendable {
        /// Larger bodies are answered with 413 and not echoed. 256 MiB by default.
        public var maximumBodySize: Int
        /// Bodies up to this size are returned in the report (Base64); larger ones only by
        /// size and SHA-256. 4 MiB by default.
        public var reportBodyLimit: Int

        /// When set, the server speaks HTTPS with this configuration (for TLS tests).
        public var tls: TLSConfiguration?

        public init(maximumBodySize: Int = 256 << 20, reportBodyLimit: Int = 4 << 20, tls: TLSConfiguration? = nil) {
            self.maximumBodySize = maximumBodySize
            self.reportBodyLimit = reportBodyLimit
            self.tls = tls
        }
    }

    /// A configuration that speaks TLS with a PEM certificate and key, for TLS tests; with
    /// `clientCertificateFile`, a client must present that (self-signed) certificate.
    public static func tlsConfiguration(
        certificateFile: String, keyFile: String, clientCertificateFile: String? = nil
    ) throws -> Configuration {
        var tls = TLSConfiguration.makeServerConfiguration(
            certificateChain: try NIOSSLCertificate.fromPEMFile(certificateFile).map { .certificate($0) },
            privateKey: .privateKey(try NIOSSLPrivateKey(file: keyFile, format: .pem)))
        if let clientCertificateFile {
            tls.certificateVerification = .noHostnameVerification
            tls.trustRoots = .certificates(try NIOSSLCertificate.fromPEMFile(clientCertificateFile))
        }
        return Configuration(tls: tls)
    }

    /// Starts listening; `port` 0 picks a free one.
    ///
    /// - Parameter maximumBodySize: larger bodies are answered with 413 and not echoed.
    public static func start(host: String = "127.0.0.1", port: Int = 0, maximumBodySize: Int = 256 << 20) async throws -> EchoServer {
        try await start(host: host, port: port, configuration: Configuration(maximumBodySize: maximumBodySize))
    }

    /// Starts listening with a full configuration; `port` 0 picks a free one.
    public static func start(host: String = "127.0.0.1", port: Int = 0, configuration: Configuration) async throws -> EchoServer {
        let counter = NIOLockedValueBox(0)
        let context = try configuration.tls.map(NIOSSLContext.init(configuration:))
        let channel = try await ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .serverChannelOption(ChannelOptions.socketOption(.so_reuseaddr), value: 1)
            .childChannelInitializer { channel in
                channel.eventLoop.makeCompletedFuture {
                    if let context { try channel.pipeline.syncOperations.addHandler(NIOSSLServerHandler(context: context)) }
                    try channel.pipeline.syncOperations.configureHTTPServerPipeline(withErrorHandling: true)
                    // Compresses only the responses a route marks, and only as the client's
                    // Accept-Encoding asks: an independent gzip and deflate writer.
                    try channel.pipeline.syncOperations.addHandler(HTTPResponseCompressor { head, _ in
                        guard head.headers.contains(name: compressionMarker) else { return .doNotCompress }
                        head.headers.remove(name: compressionMarker)
                        return .compressIfPossible
                    })
                    try channel.pipeline.syncOperations.addHandler(EchoHandler(configuration: configuration, counter: counter))
                }
            }
            .bind(host: host, port: port)
            .get()
        guard let boundPort = channel.localAddress?.port else {
            try? await channel.close()
            throw EchoServerError.noPort
        }
        return EchoServer(channel: channel, port: boundPort, counter: counter, scheme: context == nil ? "http" : "https")
    }

    /// The header a route sets to have its response compressed; never sent.
    static let compressionMarker = "X-Echo-Compress"

    /// Stops listening and closes the listening socket.
    public func stop() async throws {
        try await channel.close()
    }
}

public enum EchoServerError: Error, CustomStringConvertible {
    case noPort
    case malformed(String)

    public var description: String {
        switch self {
        case .noPort: return "the server has no port"
        case .malformed(let reason): return reason
        }
    }
}
