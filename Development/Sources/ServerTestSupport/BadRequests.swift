// Hostile or broken requests as raw bytes, sent on their own connection, for the live tests
// that check a server answers each and keeps serving.
import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// One broken request and the status a server should answer it with (nil: any 4xx, or the
/// connection closed, because the framework's HTTP parser rather than a route refuses it).
public struct BadRequest: Sendable {
    /// What the request is, for test messages.
    public let name: String
    /// The bytes sent.
    public let bytes: [UInt8]
    /// The write side is closed after the bytes: the body stops midway.
    public let stopsMidway: Bool
    /// The status the route answers with.
    public let status: Int?

    /// A request of `bytes`, answered with `status`.
    public init(name: String, bytes: [UInt8], stopsMidway: Bool, status: Int?) {
        self.name = name
        self.bytes = bytes
        self.stopsMidway = stopsMidway
        self.status = status
    }

    /// The broken requests every integration is held to, all posted to `path`, which decodes
    /// a model from JSON, form or multipart bodies.
    public static func all(path: String) -> [BadRequest] {
        func request(_ contentType: String, _ body: [UInt8], extraHeaders: String = "", length: Int? = nil) -> [UInt8] {
            Array("POST \(path) HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\nContent-Type: \(contentType)\r\n\(extraHeaders)Content-Length: \(length ?? body.count)\r\n\r\n".utf8) + body
        }
        let pairs = (0..<10_000).map { "k\($0)=v" }.joined(separator: "&")
        var parts = ""
        for index in 0..<5_000 { parts += "--b\r\nContent-Disposition: form-data; name=\"f\(index)\"\r\n\r\nv\r\n" }
        parts += "--b--\r\n"
        let header = "X-Padding: " + String(repeating: "a", count: 1 << 20) + "\r\n"
        return [
            BadRequest(name: "malformed JSON", bytes: request("application/json", Array("{\"id\": 7, \"item\": [".utf8)), stopsMidway: false, status: 400),
            BadRequest(name: "10,000 form pairs", bytes: request("application/x-www-form-urlencoded", Array(pairs.utf8)), stopsMidway: false, status: 413),
            BadRequest(name: "5,000 multipart parts", bytes: request("multipart/form-data; boundary=b", Array(parts.utf8)), stopsMidway: false, status: 413),
            BadRequest(name: "a 1 MiB header block", bytes: request("application/json", Array("{}".utf8), extraHeaders: header), stopsMidway: false, status: nil),
            BadRequest(name: "a JSON body that stops midway", bytes: request("application/json", Array("{\"id\": 7, \"it".utf8), length: 100_000),
                       stopsMidway: true, status: nil),
        ]
    }

    /// Whether `answer` (a status, or nil for a connection closed without one) is right for
    /// this request.
    public func isAnswered(by answer: Int?) -> Bool {
        if let status { return answer == status }
        return answer.map { (400..<500).contains($0) } ?? true
    }

    /// Sends the request on a new connection to `port` and returns the answer's status, or
    /// nil when the server closed the connection without one.
    public func send(port: Int) async throws -> Int? {
        try await LoopbackClient.onThread {
            let client = try LoopbackClient(port: port)
            client.send(bytes)
            if stopsMidway { client.stopWriting() }
            let answer = String(decoding: client.receiveUntilClosed(timeoutSeconds: 300), as: UTF8.self)
            guard answer.hasPrefix("HTTP/1.1 "), let code = Int(answer.dropFirst(9).prefix(3)) else { return nil }
            return code
        }
    }
}

extension LoopbackClient {
    /// Sends `bytes`, all of them unless the server closes first.
    public func send(_ bytes: [UInt8]) {
        var offset = 0
        while offset < bytes.count {
            let sent = bytes[offset...].withUnsafeBytes { Glibc.send(socket, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            if sent <= 0 { return }
            offset += sent
        }
    }

    /// Closes the writing side, as a client whose body ended early does.
    public func stopWriting() {
        shutdown(socket, Int32(SHUT_WR))
    }

    /// Reads until the server closes the connection, or `timeoutSeconds` pass with nothing read.
    public func receiveUntilClosed(timeoutSeconds: Int) -> [UInt8] {
        var timeout = timeval(tv_sec: timeoutSeconds, tv_usec: 0)
        setsockopt(socket, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        var received: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65_536)
        while true {
            let count = buffer.withUnsafeMutableBytes { recv(socket, $0.baseAddress, $0.count, 0) }
            if count <= 0 { return received }
            received += buffer[..<count]
        }
    }
}
