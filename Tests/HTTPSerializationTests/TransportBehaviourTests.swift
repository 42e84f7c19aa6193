import AsyncHTTPClient
import EchoServer
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
#if canImport(Glibc)
import Glibc
#endif
import Testing
import HTTPSerialization
import HTTPSerializationAsyncHTTPClient

/// The two transport helpers, side by side: the same request gives the same result or the
/// same typed error through URLSession and through async-http-client.
@Suite("Transports: the same behaviour through URLSession and async-http-client")
struct TransportBehaviourTests {
    enum Transport: String, CaseIterable, CustomTestStringConvertible {
        case urlSession, asyncHTTPClient
        var testDescription: String { rawValue }

        func send<Serializer: ResponseSerializer>(
            _ request: URLRequest, serializer: Serializer
        ) async throws -> SerializedResponse<Serializer.Output> {
            switch self {
            case .urlSession:
                return try await URLSession(configuration: .ephemeral).response(for: request, serializer: serializer)
            case .asyncHTTPClient:
                let client = HTTPClient(eventLoopGroupProvider: .singleton)
                do {
                    let result = try await client.execute(
                        SerializedRequest(request), serializer: serializer, timeout: .timeoutInterval(request.timeoutInterval))
                    try await client.shutdown()
                    return result
                } catch {
                    try await client.shutdown()
                    throw error
                }
            }
        }
    }

    struct Item: Decodable, Sendable, Equatable { var name: String }

    static func request(_ method: String, _ url: URL) -> URLRequest {
        var request = URLRequest(url: url)
        request.httpMethod = method
        return request
    }

    @Test("a HEAD response decodes as empty: the request's method reaches the serializer", arguments: Transport.allCases)
    func headIsEmptyByDesign(transport: Transport) async throws {
        let server = try await EchoServer.start()
        let head = Self.request("HEAD", server.baseURL.appendingPathComponent("json"))
        let empty = try await transport.send(head, serializer: DecodableResponseSerializer(EmptyResponse.self))
        #expect(empty.output == EmptyResponse())
        #expect(empty.response.status.code == 200)
        let optional = try await transport.send(head, serializer: DecodableResponseSerializer(Item?.self))
        #expect(optional.output == nil)
        try await server.stop()
    }

    @Test("204 and 205 decode as empty through both transports", arguments: Transport.allCases, ["empty", "respond?status=205"])
    func emptyStatusCodes(transport: Transport, path: String) async throws {
        let server = try await EchoServer.start()
        let url = URL(string: server.baseURL.absoluteString + "/" + path)!
        let result = try await transport.send(Self.request("GET", url), serializer: DecodableResponseSerializer(Item?.self))
        #expect(result.output == nil)
        #expect([204, 205].contains(result.response.status.code))
        try await server.stop()
    }

    @Test("a response comes back Sendable, so a send can run in a child task", arguments: Transport.allCases)
    func sendableResult(transport: Transport) async throws {
        let server = try await EchoServer.start()
        let request = Self.request("GET", server.baseURL.appendingPathComponent("json"))
        let result = try await Task { try await transport.send(request, serializer: DecodableResponseSerializer(Item.self)) }.value
        #expect(result.output == Item(name: "httpser"))
        try await server.stop()
    }

    @Test("a refused connection is TransportError.connectionRefused, as NSURLErrorCannotConnectToHost", arguments: Transport.allCases)
    func connectionRefused(transport: Transport) async throws {
        // Bound but not listening for the whole test: refused, and no parallel test's server
        // can take the port in between (a port closed and handed back could be).
        let closed = try LoopbackListener(listens: false)
        defer { _ = Glibc.close(closed.descriptor) }
        let url = URL(string: "http://127.0.0.1:\(closed.port)/json")!
        let error = await #expect(throws: TransportError.self) {
            try await transport.send(Self.request("GET", url), serializer: HTTPResponseSerializer())
        }
        #expect(error == .connectionRefused(url: url.absoluteString))
        #expect(error.map { $0 as NSError }?.domain == NSURLErrorDomain)
        #expect(error.map { $0 as NSError }?.code == -1004)
        // The failing URL under both of URLSession's keys (the string one by its value, as its
        // constant is deprecated).
        #expect(error.map { $0 as NSError }?.userInfo[NSURLErrorFailingURLErrorKey] as? URL == url)
        #expect(error.map { $0 as NSError }?.userInfo["NSErrorFailingURLStringKey"] as? String == url.absoluteString)
        #expect(error?.description == "Could not connect to \(url.absoluteString): the connection was refused.")
    }

    @Test("a host that does not resolve is TransportError.hostNotFound", arguments: Transport.allCases)
    func hostNotFound(transport: Transport) async throws {
        let url = URL(string: "http://no-such-host.httpser.invalid/json")!
        let error = await #expect(throws: TransportError.self) {
            try await transport.send(Self.request("GET", url), serializer: HTTPResponseSerializer())
        }
        #expect(error == .hostNotFound(url: url.absoluteString))
    }

    @Test("the request's timeoutInterval bounds the wait on both transports, as TransportError.timedOut",
          arguments: Transport.allCases)
    func timeoutInterval(transport: Transport) async throws {
        let listener = try SilentListener()
        defer { listener.close() }
        var request = Self.request("GET", URL(string: "http://127.0.0.1:\(listener.port)/slow")!)
        request.timeoutInterval = 1
        let error = await #expect(throws: TransportError.self) {
            try await transport.send(request, serializer: HTTPResponseSerializer())
        }
        #expect(error == .timedOut(url: request.url!.absoluteString, seconds: 1))
        #expect(error.map { $0 as NSError }?.code == -1001)
    }

    @Test("the bridge's timeout argument bounds the wait")
    func bridgeTimeoutOverride() async throws {
        let listener = try SilentListener()
        defer { listener.close() }
        let request = Self.request("GET", URL(string: "http://127.0.0.1:\(listener.port)/slow")!)
        let client = HTTPClient(eventLoopGroupProvider: .singleton)
        let error = await #expect(throws: TransportError.self) {
            try await client.execute(SerializedRequest(request), serializer: HTTPResponseSerializer(), timeout: .milliseconds(500))
        }
        try await client.shutdown()
        #expect(error == .timedOut(url: request.url!.absoluteString, seconds: 0.5))
    }

    @Test("a timeoutInterval of zero, infinity or NaN is the default limit as a TimeAmount, never a trap",
          arguments: [0, -1, .infinity, .nan, 1e300] as [Double])
    func unusualTimeoutIntervals(interval: Double) async throws {
        let server = try await EchoServer.start()
        var request = Self.request("GET", server.baseURL.appendingPathComponent("json"))
        request.timeoutInterval = interval
        let result = try await Transport.asyncHTTPClient.send(request, serializer: DecodableResponseSerializer(Item.self))
        #expect(result.output == Item(name: "httpser"))
        try await server.stop()
    }

    @Test("TLS to a server that does not speak it is TransportError.tlsFailed", arguments: Transport.allCases)
    func tlsFailure(transport: Transport) async throws {
        let server = try await EchoServer.start()
        let url = URL(string: "https://127.0.0.1:\(server.port)/json")!
        var request = Self.request("GET", url)
        // async-http-client retries the handshake until the timeout, then reports the last TLS
        // error; under ThreadSanitizer on two loaded cores no attempt had failed within 10 s.
        request.timeoutInterval = 30
        let error = await #expect(throws: TransportError.self) {
            try await transport.send(request, serializer: HTTPResponseSerializer())
        }
        if case .tlsFailed(let failing, let reason) = error {
            #expect(failing == url.absoluteString)
            #expect(!reason.isEmpty)
        } else {
            Issue.record("expected tlsFailed, got \(String(describing: error))")
        }
        try await server.stop()
    }

    @Test("a redirected request with a body is the same typed error on both transports", arguments: Transport.allCases)
    func redirectedBody(transport: Transport) async throws {
        let server = try await EchoServer.start()
        let base = server.baseURL.absoluteString
        var request = Self.request("POST", URL(string: base + "/redirect?status=307&to=/echo")!)
        request.httpBody = Data("a=1".utf8)
        let expected = TransportError.redirectedWithBody(url: base + "/redirect?status=307&to=/echo", to: base + "/echo")
        await #expect(throws: expected) { try await transport.send(request, serializer: HTTPResponseSerializer()) }
        // Without a body, a redirect is followed on both.
        let get = try await transport.send(Self.request("GET", URL(string: base + "/redirect?status=302&to=/json")!),
                                           serializer: DecodableResponseSerializer(Item.self))
        #expect(get.output == Item(name: "httpser"))
        #expect(get.url?.path == "/json")
        try await server.stop()
    }

    /// A port nothing listens on: bound, read, then closed.
}

/// A server that has stopped responding: it listens, the kernel completes handshakes, and
/// nothing ever reads or answers.
final class SilentListener: Sendable {
    private let listener: LoopbackListener
    var port: Int { listener.port }

    init() throws {
        listener = try LoopbackListener(backlog: 16)
    }

    func close() {
        _ = Glibc.close(listener.descriptor)
    }
}

extension TransportBehaviourTests {
    @Test("a connection closed in the middle of the body is TransportError.connectionLost", arguments: Transport.allCases)
    func connectionLost(transport: Transport) async throws {
        // 100 bytes promised, 9 sent, then the connection closes.
        let server = try ScriptedServer(response: "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{\"name\":")
        defer { server.close() }
        let url = URL(string: "http://127.0.0.1:\(server.port)/cut")!
        var request = Self.request("GET", url)
        request.timeoutInterval = 10
        let error = await #expect(throws: TransportError.self) {
            try await transport.send(request, serializer: HTTPResponseSerializer())
        }
        #expect(error == .connectionLost(url: url.absoluteString))
        #expect(error.map { $0 as NSError }?.code == -1005)
    }
}

/// A loopback server that answers every request with fixed bytes, then closes the connection
/// or keeps it open without sending more: a response cut short, or a body that never ends.
final class ScriptedServer: Sendable {
    private let listener: LoopbackListener
    var port: Int { listener.port }

    init(response: String, keepsConnectionOpen: Bool = false) throws {
        listener = try LoopbackListener(backlog: 16)
        let descriptor = listener.descriptor
        let bytes = Array(response.utf8)
        Thread.detachNewThread {
            while true {
                let client = accept(descriptor, nil, nil)
                guard client >= 0 else { return }
                var request = [UInt8](repeating: 0, count: 64 * 1024)
                _ = read(client, &request, request.count)
                _ = bytes.withUnsafeBytes { send(client, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
                guard keepsConnectionOpen else {
                    _ = Glibc.close(client)
                    continue
                }
                // Nothing more is sent; the connection closes when the client closes it.
                Thread.detachNewThread {
                    var sink = [UInt8](repeating: 0, count: 1024)
                    while read(client, &sink, sink.count) > 0 {}
                    _ = Glibc.close(client)
                }
            }
        }
    }

    /// Stops accepting: shutting a listening socket down wakes the blocked `accept` on Linux.
    func close() {
        _ = shutdown(listener.descriptor, Int32(SHUT_RDWR))
        _ = Glibc.close(listener.descriptor)
    }
}
