import AsyncHTTPClient
import EchoServer
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import HTTPSerializationAsyncHTTPClient
import Testing
@testable import HTTPSerialization
@testable import HTTPSerializationCodable
@testable import HTTPSerializationCore
@testable import HTTPSerializationFoundation
@testable import HTTPSerializationImages
@testable import HTTPSerializationXML

/// A request handed in from outside, with a method or URL no serializer built.
private func handed(_ method: String, _ url: String = "http://127.0.0.1:9/x") -> URLRequest {
    var request = URLRequest(url: URL(string: url)!)
    request.httpMethod = method
    return request
}

@Suite("Requests handed in are checked before they reach the wire")
struct RequestValidationTests {
    static let serializers: [any RequestSerializer] = [
        HTTPRequestSerializer(), JSONRequestSerializer(), PropertyListRequestSerializer(),
    ]

    @Test("every serializer refuses a handed-in method with CR/LF (request splitting)", arguments: 0..<3)
    func methodSplitting(index: Int) {
        let serializer = Self.serializers[index]
        let method = "GET / HTTP/1.1\r\nHost: evil\r\n\r\nGET"
        #expect(throws: RequestSerializationError.invalidHTTPMethod(method)) {
            try serializer.serialize(handed(method), parameters: ["a": 1])
        }
        #expect(throws: RequestSerializationError.invalidHTTPMethod("POST X")) {
            try serializer.serialize(handed("POST X"), parameters: nil)
        }
    }

    @Test("every serializer refuses a handed-in http URL without a host; relative URLs pass as in AFNetworking", arguments: 0..<3)
    func urlChecks(index: Int) throws {
        let serializer = Self.serializers[index]
        _ = try serializer.serialize(handed("GET", "relative/path"), parameters: nil)
        #expect(throws: RequestSerializationError.invalidURL("http:///path")) {
            try serializer.serialize(handed("GET", "http:///path"), parameters: nil)
        }
    }

    @Test("URLSession helpers refuse a CR/LF method before anything is sent")
    func urlSessionRefuses() async throws {
        let server = try await EchoServer.start()
        let request = handed("GET\r\nX-Injected: 1", server.baseURL.absoluteString + "/echo")
        let session = URLSession(configuration: .ephemeral)
        await #expect(throws: RequestSerializationError.invalidHTTPMethod("GET\r\nX-Injected: 1")) {
            try await session.response(for: request, serializer: HTTPResponseSerializer())
        }
        var form = try MultipartFormData(boundary: "b")
        try form.appendPart(formData: Data("1".utf8), name: "a")
        await #expect(throws: RequestSerializationError.invalidHTTPMethod("GET\r\nX-Injected: 1")) {
            try await session.uploadMultipart(request, form: form, serializer: HTTPResponseSerializer())
        }
        #expect(server.requestCount == 0)
        try await server.stop()
    }

    @Test("the async-http-client bridge refuses a CR/LF method before anything is sent")
    func asyncHTTPClientRefuses() async throws {
        let server = try await EchoServer.start()
        let client = HTTPClient(eventLoopGroupProvider: .singleton)
        let request = handed("POST\r\nX-Injected: 1", server.baseURL.absoluteString + "/echo")
        await #expect(throws: RequestSerializationError.invalidHTTPMethod("POST\r\nX-Injected: 1")) {
            try await client.execute(SerializedRequest(request), serializer: HTTPResponseSerializer())
        }
        #expect(throws: RequestSerializationError.invalidHTTPMethod("POST\r\nX-Injected: 1")) {
            try HTTPClientRequest(SerializedRequest(request))
        }
        try await client.shutdown()
        #expect(server.requestCount == 0)
        try await server.stop()
    }
}
