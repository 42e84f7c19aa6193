#if Hummingbird
import Foundation
import HTTPSerializationHummingbird
import Hummingbird
import HummingbirdTesting
import Synchronization
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// Events made one at a time, forever, counting how many the route has taken.
struct EndlessEvents: AsyncSequence, Sendable {
    let taken: Counter

    final class Counter: Sendable {
        private let count = Atomic(0)
        func increment() { count.add(1, ordering: .relaxed) }
        var value: Int { count.load(ordering: .relaxed) }
    }

    struct AsyncIterator: AsyncIteratorProtocol {
        let taken: Counter
        mutating func next() async throws -> ServerSentEvent? {
            try await Task.sleep(nanoseconds: 1_000_000)
            taken.increment()
            return ServerSentEvent(data: String(repeating: "x", count: 1000))
        }
    }

    func makeAsyncIterator() -> AsyncIterator { AsyncIterator(taken: taken) }
}

@Suite("Hummingbird: a streamed response stops when its client goes away")
struct HummingbirdDisconnectTests {
    /// Sends a GET for `path` on a raw socket, reads `bytes` bytes of the answer, and closes.
    static func readThenHangUp(port: Int, path: String, bytes: Int) throws -> Int {
        let socket = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard socket >= 0 else { throw POSIXError(.EBADF) }
        defer { close(socket) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(socket, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard connected == 0 else { throw POSIXError(.ECONNREFUSED) }
        let request = Array("GET \(path) HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n".utf8)
        _ = request.withUnsafeBytes { send(socket, $0.baseAddress, $0.count, 0) }
        var received = 0
        var buffer = [UInt8](repeating: 0, count: 4096)
        while received < bytes {
            let count = buffer.withUnsafeMutableBytes { recv(socket, $0.baseAddress, $0.count, 0) }
            if count <= 0 { break }
            received += count
        }
        return received
    }

    @Test("a client that hangs up mid-stream ends the route's reading of an endless source")
    func clientGoesAway() async throws {
        let taken = EndlessEvents.Counter()
        let router = Router(context: HTTPSerializationBasicRequestContext.self)
        router.get("/forever") { _, _ in Response.stream(EndlessEvents(taken: taken), writer: ServerSentEventWriter()) }
        try await Application(router: router).test(.live) { client in
            let port = try #require(client.port)
            let received = try await Task.detached { try Self.readThenHangUp(port: port, path: "/forever", bytes: 50_000) }.value
            #expect(received >= 50_000)
            // Once the hang-up is seen the source is read no more: wait until the count holds
            // still for half a second (at 1 ms a value it would otherwise grow by hundreds).
            var last = taken.value
            var still = 0
            for _ in 0..<100 where still < 5 {
                try await Task.sleep(nanoseconds: 100_000_000)
                let now = taken.value
                still = now == last ? still + 1 : 0
                last = now
            }
            #expect(still >= 5, "the source was still being read after the client left (\(last) values)")
        }
    }
}
#endif
