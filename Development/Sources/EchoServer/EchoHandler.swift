import Checksums
import Foundation
import NIOConcurrencyHelpers
import NIOCore
import NIOHTTP1

final class EchoHandler: ChannelInboundHandler {
    typealias InboundIn = HTTPServerRequestPart
    typealias OutboundOut = HTTPServerResponsePart

    private let configuration: EchoServer.Configuration
    private let counter: NIOLockedValueBox<Int>
    private var head: HTTPRequestHead?
    private var body = ByteBuffer()
    private var bodySize = 0
    private var hasher = SHA256()
    /// The body being streamed, while one is.
    private var streaming: StreamingRoutes.Route?
    private var pausing = false
    private var pumping = false

    init(configuration: EchoServer.Configuration, counter: NIOLockedValueBox<Int>) {
        self.configuration = configuration
        self.counter = counter
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        switch unwrapInboundIn(data) {
        case .head(let requestHead):
            counter.withLockedValue { $0 += 1 }
            head = requestHead
            body = context.channel.allocator.buffer(capacity: 0)
            bodySize = 0
            hasher = SHA256()
        case .body(let chunk):
            bodySize += chunk.readableBytes
            chunk.withUnsafeReadableBytes { hasher.update($0) }
            if bodySize <= configuration.maximumBodySize {
                var chunk = chunk
                body.writeBuffer(&chunk)
            }
        case .end:
            respond(context: context)
        }
    }

    private func respond(context: ChannelHandlerContext) {
        guard let head else { return }
        self.head = nil
        let (path, query) = Self.split(head.uri)
        if bodySize > configuration.maximumBodySize {
            return send(context, head, status: 413, contentType: "text/plain",
                        body: Data("body of \(bodySize) bytes exceeds the \(configuration.maximumBodySize)-byte limit\n".utf8))
        }
        if let route = StreamingRoutes.route(path: path, query: query) {
            return startStreaming(context, head, route: route)
        }
        if let canned = EchoRoutes.canned(path: path, query: query, range: head.headers.first(name: "range")) {
            return send(context, head, status: canned.status, contentType: canned.contentType, body: canned.body, location: canned.location,
                        extraHeaders: canned.extraHeaders)
        }
        let bodyData = Data(body.readableBytesView)
        var report = EchoReport(
            method: head.method.rawValue, target: head.uri, path: path, query: query,
            queryPairs: query.map(FormDecoding.pairs) ?? [],
            headers: head.headers.map { EchoReport.Header(name: $0.name, value: $0.value) },
            framing: Self.framing(head.headers), bodySize: bodySize, bodySHA256: hasher.hexDigest(),
            body: bodySize <= configuration.reportBodyLimit ? bodyData.base64EncodedString() : nil)
        let contentType = head.headers.first(name: "content-type") ?? ""
        if contentType.lowercased().hasPrefix("application/x-www-form-urlencoded") {
            report.form = FormDecoding.pairs(String(decoding: bodyData, as: UTF8.self))
        } else if contentType.lowercased().hasPrefix("multipart/form-data") {
            do {
                report.parts = try MultipartSplitter.parts(bodyData, contentType: contentType)
            } catch {
                return send(context, head, status: 400, contentType: "text/plain", body: Data("malformed multipart body: \(error)\n".utf8))
            }
        }
        let json = (try? JSONEncoder().encode(report)) ?? Data("{}".utf8)
        send(context, head, status: 200, contentType: "application/json", body: json)
    }

    private func send(
        _ context: ChannelHandlerContext, _ head: HTTPRequestHead, status: Int, contentType: String?, body: Data, location: String? = nil,
        extraHeaders: [(String, String)] = []
    ) {
        var headers = HTTPHeaders()
        if let contentType { headers.add(name: "Content-Type", value: contentType) }
        if let location { headers.add(name: "Location", value: location) }
        for (name, value) in extraHeaders { headers.add(name: name, value: value) }
        let omitsBody = status == 204 || status == 304 || head.method == .HEAD
        if status != 204 && status != 304 { headers.add(name: "Content-Length", value: String(body.count)) }
        let responseHead = HTTPResponseHead(version: head.version, status: HTTPResponseStatus(statusCode: status), headers: headers)
        context.write(wrapOutboundOut(.head(responseHead)), promise: nil)
        if !omitsBody, !body.isEmpty {
            context.write(wrapOutboundOut(.body(.byteBuffer(ByteBuffer(bytes: body)))), promise: nil)
        }
        context.writeAndFlush(wrapOutboundOut(.end(nil)), promise: nil)
    }

    /// Writes a streamed route's head, then its pieces as fast as the client reads them
    /// (while the channel is writable), pausing where the route asks.
    private func startStreaming(_ context: ChannelHandlerContext, _ head: HTTPRequestHead, route: StreamingRoutes.Route) {
        var headers = HTTPHeaders()
        headers.add(name: "Content-Type", value: route.contentType)
        headers.add(name: "Cache-Control", value: "no-cache")
        if route.compress { headers.add(name: EchoServer.compressionMarker, value: "1") }
        // No Content-Length: the body goes out chunked.
        context.write(wrapOutboundOut(.head(HTTPResponseHead(version: head.version, status: .ok, headers: headers))), promise: nil)
        guard head.method != .HEAD else {
            context.writeAndFlush(wrapOutboundOut(.end(nil)), promise: nil)
            return
        }
        streaming = route
        pump(context)
    }

    private func pump(_ context: ChannelHandlerContext) {
        // A flush can re-enter through channelWritabilityChanged, and writing `.end` can start
        // the next request's stream: one loop at a time, and it carries on with a new stream.
        guard !pumping else { return }
        pumping = true
        defer { pumping = false }
        while !pausing, streaming != nil, context.channel.isActive, context.channel.isWritable {
            guard let piece = streaming?.pieces.next() else {
                let (holdsOpen, aborts) = (streaming?.holdsOpen ?? false, streaming?.aborts ?? false)
                streaming = nil
                if aborts {
                    context.close(promise: nil)
                } else if !holdsOpen {
                    context.writeAndFlush(wrapOutboundOut(.end(nil)), promise: nil)
                }
                continue
            }
            context.writeAndFlush(wrapOutboundOut(.body(.byteBuffer(context.channel.allocator.buffer(bytes: piece)))), promise: nil)
            if let pieces = streaming?.pieces, pieces.pausesNow {
                pausing = true
                context.eventLoop.assumeIsolated().scheduleTask(in: .milliseconds(Int64(pieces.pauseMilliseconds))) {
                    self.pausing = false
                    self.pump(context)
                }
            }
        }
    }

    func channelWritabilityChanged(context: ChannelHandlerContext) {
        pump(context)
        context.fireChannelWritabilityChanged()
    }

    func channelInactive(context: ChannelHandlerContext) {
        streaming = nil
        pausing = false
        context.fireChannelInactive()
    }

    static func split(_ uri: String) -> (path: String, query: String?) {
        guard let mark = uri.firstIndex(of: "?") else { return (uri, nil) }
        return (String(uri[..<mark]), String(uri[uri.index(after: mark)...]))
    }

    static func framing(_ headers: HTTPHeaders) -> String {
        if headers.contains(where: { $0.name.lowercased() == "transfer-encoding" && $0.value.lowercased().contains("chunked") }) {
            return "chunked"
        }
        return headers.contains(name: "content-length") ? "content-length" : "none"
    }
}
