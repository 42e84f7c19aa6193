// Whole answers of streamed routes read off the socket, to check what a client of an event
// stream sees: the events, and whether the body ended with its closing chunk or was cut.
import Foundation
import HTTPSerializationCore
#if canImport(Glibc)
import Glibc
#endif

/// One response read from the socket: its head, its body with the chunking removed, and
/// whether the body ended as HTTP/1.1 ends one (the zero-size chunk) rather than being cut.
public struct StreamedAnswer: Sendable {
    /// The status line and header lines.
    public let head: String
    /// The body's bytes.
    public let body: [UInt8]
    /// Whether the closing chunk, or all of a `Content-Length` body, came before the connection ended.
    public let endedCleanly: Bool

    /// The status code.
    public var status: Int { Int(head.split(separator: " ").dropFirst().first ?? "") ?? 0 }

    /// The value of the header `name`, compared without case.
    public func header(_ name: String) -> String? {
        for line in head.split(separator: "\r\n").dropFirst() {
            let parts = line.split(separator: ":", maxSplits: 1)
            if parts.count == 2, parts[0].lowercased() == name.lowercased() {
                return parts[1].trimmingCharacters(in: .whitespaces)
            }
        }
        return nil
    }

    /// The body's events, as a browser's `EventSource` reads them.
    public func events() async throws -> [ServerSentEvent] {
        var events: [ServerSentEvent] = []
        let head = HTTPResponse(status: .ok, headerFields: [.contentType: "text/event-stream"])
        for try await event in ServerSentEventsResponseSerializer().values(for: head, body: ArrayValues([body[...]])) {
            events.append(event)
        }
        return events
    }
}

extension LoopbackClient {
    /// Sends a GET for `path` with `headers`, then reads the whole answer on a thread of its
    /// own (its end, a cut connection, or 30 seconds of silence).
    public static func streamedAnswer(port: Int, path: String, headers: [String: String] = [:]) async throws -> StreamedAnswer {
        let client = try LoopbackClient(port: port)
        var request = "GET \(path) HTTP/1.1\r\nHost: 127.0.0.1\r\n"
        for (name, value) in headers { request += "\(name): \(value)\r\n" }
        request += "\r\n"
        client.send(Array(request.utf8))
        return try await onThread { client.readAnswer() }
    }

    /// Reads one answer, chunked or with a `Content-Length`.
    func readAnswer() -> StreamedAnswer {
        var timeout = timeval(tv_sec: 30, tv_usec: 0)
        setsockopt(socket, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        var received: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 16 << 10)
        func more() -> Bool {
            let count = buffer.withUnsafeMutableBytes { recv(socket, $0.baseAddress, $0.count, 0) }
            guard count > 0 else { return false }
            received += buffer[..<count]
            return true
        }
        let separator: [UInt8] = Array("\r\n\r\n".utf8)
        var headEnd: Int?
        while headEnd == nil {
            guard more() else { return StreamedAnswer(head: String(decoding: received, as: UTF8.self), body: [], endedCleanly: false) }
            headEnd = received.firstRange(of: separator)?.upperBound
        }
        let head = String(decoding: received[..<(headEnd! - 4)], as: UTF8.self)
        var position = headEnd!
        if let length = StreamedAnswer(head: head, body: [], endedCleanly: false).header("Content-Length").flatMap({ Int($0) }) {
            while received.count - position < length, more() {}
            let end = min(received.count, position + length)
            return StreamedAnswer(head: head, body: Array(received[position..<end]), endedCleanly: end - position == length)
        }
        var body: [UInt8] = []
        while true {
            // A chunk: its size in hex, CRLF, its bytes, CRLF.
            var lineEnd = received[position...].firstRange(of: [0x0D, 0x0A])
            while lineEnd == nil {
                guard more() else { return StreamedAnswer(head: head, body: body, endedCleanly: false) }
                lineEnd = received[position...].firstRange(of: [0x0D, 0x0A])
            }
            let sizeText = String(decoding: received[position..<lineEnd!.lowerBound], as: UTF8.self)
            guard let size = Int(sizeText.split(separator: ";").first ?? "", radix: 16) else {
                return StreamedAnswer(head: head, body: body, endedCleanly: false)
            }
            position = lineEnd!.upperBound
            while received.count < position + size + 2 {
                guard more() else { return StreamedAnswer(head: head, body: body, endedCleanly: false) }
            }
            if size == 0 { return StreamedAnswer(head: head, body: body, endedCleanly: true) }
            body += received[position..<(position + size)]
            position += size + 2
        }
    }
}

/// What clients of a route serving a ``StreamBroadcast`` of events receive.
public enum BroadcastClients {
    /// Connects `clients` clients to `path` at once, waits until `broadcast` has them all,
    /// sends `count` events (ids 1 to `count`), finishes the broadcast, and returns each answer.
    public static func receive(clients: Int, port: Int, path: String, broadcast: StreamBroadcast<ServerSentEvent>,
                               count: Int) async throws -> [StreamedAnswer] {
        try await withThrowingTaskGroup(of: StreamedAnswer.self) { group in
            for _ in 0..<clients {
                group.addTask { try await LoopbackClient.streamedAnswer(port: port, path: path) }
            }
            try await waitFor(subscribers: clients, of: broadcast)
            for id in 1...count { broadcast.send(ServerSentEvent(event: "tick", data: "update \(id)", id: String(id))) }
            broadcast.finish()
            var answers: [StreamedAnswer] = []
            for try await answer in group { answers.append(answer) }
            return answers
        }
    }

    /// Waits up to 60 seconds until `broadcast` has `subscribers` subscribers, and throws if it
    /// never does.
    public static func waitFor(subscribers: Int, of broadcast: StreamBroadcast<ServerSentEvent>) async throws {
        for _ in 0..<6000 where broadcast.subscriberCount < subscribers {
            try await Task.sleep(nanoseconds: 10_000_000)
        }
        guard broadcast.subscriberCount >= subscribers else { throw SubscribersMissing(expected: subscribers, found: broadcast.subscriberCount) }
    }

    /// Fewer clients subscribed than a test connected.
    public struct SubscribersMissing: Error {
        public let expected: Int
        public let found: Int
    }
}
