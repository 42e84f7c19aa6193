import Foundation
import NIOConcurrencyHelpers
import NIOCore
import NIOHTTP1
import NIOPosix

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

    /// `http://127.0.0.1:<port>`.
    public var baseURL: URL { URL(string: "http://127.0.0.1:\(port)")! }

    private init(channel: any Channel, port: Int, counter: NIOLockedValueBox<Int>) {
        self.channel = channel
        self.port = port
        self.counter = counter
    }

    /// Starts listening; `port` 0 picks a free one.
    ///
    /// - Parameter maximumBodySize: larger bodies are answered with 413 and not echoed.
    public static func start(host: String = "127.0.0.1", port: Int = 0, maximumBodySize: Int = 256 << 20) async throws -> EchoServer {
        let counter = NIOLockedValueBox(0)
        let channel = try await ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .serverChannelOption(ChannelOptions.socketOption(.so_reuseaddr), value: 1)
            .childChannelInitializer { channel in
                channel.eventLoop.makeCompletedFuture {
                    try channel.pipeline.syncOperations.configureHTTPServerPipeline(withErrorHandling: true)
                    try channel.pipeline.syncOperations.addHandler(EchoHandler(maximumBodySize: maximumBodySize, counter: counter))
                }
            }
            .bind(host: host, port: port)
            .get()
        guard let boundPort = channel.localAddress?.port else {
            try? await channel.close()
            throw EchoServerError.noPort
        }
        return EchoServer(channel: channel, port: boundPort, counter: counter)
    }

    /// Stops listening and closes the listening socket.
    public func stop() async throws {
        try await channel.close()
    }
}

public enum EchoServerError: Error {
    case noPort
}

/// What the server saw, as it reports it.
public struct EchoReport: Codable, Sendable, Equatable {
    public struct Header: Codable, Sendable, Equatable {
        public var name: String
        public var value: String
    }

    public var method: String
    /// The request target as sent: path and query.
    public var target: String
    public var headers: [Header]
    /// `content-length`, `chunked`, or `none`.
    public var framing: String
    public var bodySize: Int
    /// The body, Base64; empty when it was larger than the limit.
    public var body: String

    /// The decoded body bytes.
    public var bodyData: Data? { Data(base64Encoded: body) }

    /// Every value of a header, matched case-insensitively.
    public func values(of name: String) -> [String] {
        headers.filter { $0.name.caseInsensitiveCompare(name) == .orderedSame }.map(\.value)
    }
}

private final class EchoHandler: ChannelInboundHandler {
    typealias InboundIn = HTTPServerRequestPart
    typealias OutboundOut = HTTPServerResponsePart

    private let maximumBodySize: Int
    private let counter: NIOLockedValueBox<Int>
    private var head: HTTPRequestHead?
    private var body = ByteBuffer()
    private var bodySize = 0

    init(maximumBodySize: Int, counter: NIOLockedValueBox<Int>) {
        self.maximumBodySize = maximumBodySize
        self.counter = counter
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        switch unwrapInboundIn(data) {
        case .head(let requestHead):
            counter.withLockedValue { $0 += 1 }
            head = requestHead
            body = context.channel.allocator.buffer(capacity: 0)
            bodySize = 0
        case .body(var chunk):
            bodySize += chunk.readableBytes
            if bodySize <= maximumBodySize { body.writeBuffer(&chunk) }
        case .end:
            respond(context: context)
        }
    }

    private func respond(context: ChannelHandlerContext) {
        guard let head else { return }
        let tooLarge = bodySize > maximumBodySize
        let framing: String
        if head.headers.contains(where: { $0.name.lowercased() == "transfer-encoding" && $0.value.lowercased().contains("chunked") }) {
            framing = "chunked"
        } else if head.headers.contains(name: "content-length") {
            framing = "content-length"
        } else {
            framing = "none"
        }
        let report = EchoReport(
            method: head.method.rawValue, target: head.uri,
            headers: head.headers.map { EchoReport.Header(name: $0.name, value: $0.value) },
            framing: framing, bodySize: bodySize,
            body: tooLarge ? "" : Data(body.readableBytesView).base64EncodedString())
        let json = (try? JSONEncoder().encode(report)) ?? Data("{}".utf8)
        var headers = HTTPHeaders()
        headers.add(name: "Content-Type", value: "application/json")
        headers.add(name: "Content-Length", value: String(json.count))
        let status: HTTPResponseStatus = tooLarge ? .payloadTooLarge : .ok
        context.write(wrapOutboundOut(.head(HTTPResponseHead(version: head.version, status: status, headers: headers))), promise: nil)
        context.write(wrapOutboundOut(.body(.byteBuffer(ByteBuffer(bytes: json)))), promise: nil)
        context.writeAndFlush(wrapOutboundOut(.end(nil)), promise: nil)
        self.head = nil
    }
}
