import AsyncHTTPClient
import EchoServer
import Foundation
import HTTPTypes
import NIOCore
import NIOHTTP1
import Testing
import HTTPSerializationAsyncHTTPClient
import HTTPSerializationCodable
import HTTPSerializationCore

/// The async-http-client bridge on the core: swift-http-types in, swift-http-types out.
@Suite("async-http-client bridge: HTTPRequest and HTTPResponse both ways")
struct AsyncHTTPClientBridgeTests {
    static func withServer(_ body: (EchoServer, HTTPClient) async throws -> Void) async throws {
        let server = try await EchoServer.start()
        let client = HTTPClient(eventLoopGroupProvider: .singleton)
        do {
            try await body(server, client)
        } catch {
            try await client.shutdown()
            try await server.stop()
            throw error
        }
        try await client.shutdown()
        try await server.stop()
    }

    @Test("header fields go out in their order, repeated names kept")
    func requestFieldsKeepOrderAndRepeats() async throws {
        try await Self.withServer { server, client in
            var fields = HTTPFields()
            fields.append(HTTPField(name: HTTPField.Name("X-Second")!, value: "b1"))
            fields.append(HTTPField(name: HTTPField.Name("X-First")!, value: "a"))
            fields.append(HTTPField(name: HTTPField.Name("X-Second")!, value: "b2"))
            let head = HTTPRequest(method: .get, scheme: "http", authority: "127.0.0.1:\(server.port)", path: "/echo?x=1", headerFields: fields)
            let result = try await client.execute(SerializedRequest(request: head), serializer: DecodableResponseSerializer(EchoReport.self))
            let sent = result.output.headers.filter { $0.name.lowercased().hasPrefix("x-") }.map { "\($0.name): \($0.value)" }
            #expect(sent == ["X-Second: b1", "X-First: a", "X-Second: b2"])
            #expect(result.output.target == "/echo?x=1")
            #expect(result.response.status == .ok)
            #expect(result.url?.absoluteString == server.baseURL.absoluteString + "/echo?x=1")
        }
    }

    @Test("a response's header fields arrive in their order, repeated names kept")
    func responseFieldsKeepOrderAndRepeats() {
        let headers = HTTPHeaders([("Set-Cookie", "a=1"), ("Content-Type", "text/plain"), ("Set-Cookie", "b=2"), ("X-Empty", "")])
        let response = HTTPResponse(HTTPClientResponse(status: .created, headers: headers))
        #expect(response.status.code == 201)
        #expect(response.status.reasonPhrase == "Created")
        #expect(response.headerFields.map { "\($0.name.rawName): \($0.value)" } == ["Set-Cookie: a=1", "Content-Type: text/plain", "Set-Cookie: b=2", "X-Empty: "])
        #expect(response.headerFields[values: .setCookie] == ["a=1", "b=2"])
    }

    @Test("a body's framing comes from the body: the request's own Content-Length is not copied")
    func framingComesFromTheBody() throws {
        var head = HTTPRequest(method: .post, scheme: "http", authority: "127.0.0.1", path: "/")
        head.headerFields[.contentLength] = "999"
        head.headerFields[.contentType] = "text/plain"
        let request = try HTTPClientRequest(SerializedRequest(request: head, body: .bytes(Data("four".utf8))))
        #expect(request.headers["content-length"].isEmpty)
        #expect(request.headers["content-type"] == ["text/plain"])
        #expect(request.method == .POST)
        #expect(request.url == "http://127.0.0.1/")
    }

    @Test("a target with a control character is refused before anything is sent")
    func refusesBrokenTarget() async throws {
        try await Self.withServer { server, client in
            let head = HTTPRequest(method: .get, scheme: "http", authority: "127.0.0.1:\(server.port)", path: "/echo\r\nX-Injected: 1")
            await #expect(throws: RequestSerializationError.self) {
                try await client.execute(SerializedRequest(request: head), serializer: HTTPResponseSerializer())
            }
            #expect(server.requestCount == 0)
        }
    }

    @Test("a zero or negative timeout is TransportError.timedOut before anything is sent", arguments: [0, -5] as [Int64])
    func nonPositiveTimeout(milliseconds: Int64) async throws {
        try await Self.withServer { server, client in
            let head = HTTPRequest(method: .get, scheme: "http", authority: "127.0.0.1:\(server.port)", path: "/json")
            let error = await #expect(throws: TransportError.self) {
                try await client.execute(SerializedRequest(request: head), serializer: HTTPResponseSerializer(), timeout: .milliseconds(milliseconds))
            }
            #expect(error == .timedOut(url: "http://127.0.0.1:\(server.port)/json", seconds: Double(milliseconds) / 1000))
            #expect(server.requestCount == 0)
        }
    }
}
