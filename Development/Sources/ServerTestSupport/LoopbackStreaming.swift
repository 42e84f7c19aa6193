// Pieces the server integrations' live tests share: a raw loopback client whose reading the
// test paces, and an endless event source that counts what it made.
import Foundation
import HTTPSerializationCore
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// Events made one at a time, forever, counting how many the route has taken.
public struct EndlessEvents: AsyncSequence, Sendable {
    public let taken: Counter
    /// Nanoseconds to wait before each event; 0 makes them as fast as they are taken.
    public var pause: UInt64

    /// How many values a source has made, read from another task.
    public final class Counter: Sendable {
        private let count = Atomic(0)
        public init() {}
        public func increment() { count.add(1, ordering: .relaxed) }
        public var value: Int { count.load(ordering: .relaxed) }

        /// Waits for the first value, then until the count has held still for half a second,
        /// and returns it (nil if it never did in ten seconds, or no value came in a minute).
        public func settled() async throws -> Int? {
            for _ in 0..<600 where value == 0 {
                try await Task.sleep(nanoseconds: 100_000_000)
            }
            guard value > 0 else { return nil }
            var last = value
            var still = 0
            for _ in 0..<100 {
                try await Task.sleep(nanoseconds: 100_000_000)
                let now = value
                still = now == last ? still + 1 : 0
                last = now
                if still >= 5 { return now }
            }
            return nil
        }
    }

    public struct AsyncIterator: AsyncIteratorProtocol {
        let taken: Counter
        let pause: UInt64
        public mutating func next() async throws -> ServerSentEvent? {
            if pause > 0 { try await Task.sleep(nanoseconds: pause) }
            taken.increment()
            return ServerSentEvent(data: String(repeating: "x", count: 1000))
        }
    }

    /// Events of 1,000 bytes of data, `pause` nanoseconds apart (1 ms by default; 0 as fast as taken).
    public init(taken: Counter, pause: UInt64 = 1_000_000) {
        self.taken = taken
        self.pause = pause
    }

    public func makeAsyncIterator() -> AsyncIterator { AsyncIterator(taken: taken, pause: pause) }
}

/// A blocking TCP client on 127.0.0.1 that reads only when told to, so a test controls the
/// pace at which a response is taken.
public final class LoopbackClient: Sendable {
    let socket: Int32

    /// Connects to `port` on 127.0.0.1, with a receive buffer of `receiveBuffer` bytes when
    /// given (a small one keeps what an unread response can fill small, and fixed).
    public init(port: Int, receiveBuffer: Int? = nil) throws {
        socket = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard socket >= 0 else { throw POSIXError(.EBADF) }
        if var size = receiveBuffer.map(Int32.init) {
            setsockopt(socket, SOL_SOCKET, SO_RCVBUF, &size, socklen_t(MemoryLayout<Int32>.size))
        }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(socket, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard connected == 0 else {
            close(socket)
            throw POSIXError(.ECONNREFUSED)
        }
    }

    deinit { close(socket) }

    /// Sends a GET for `path`.
    public func get(_ path: String) {
        let request = Array("GET \(path) HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n".utf8)
        _ = request.withUnsafeBytes { Glibc.send(socket, $0.baseAddress, $0.count, 0) }
    }

    /// Runs `body`'s blocking socket calls on a thread of their own: on the cooperative pool
    /// (two threads on a two-core machine) they would starve the server they wait for.
    public static func onThread<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
        try await withCheckedThrowingContinuation { continuation in
            Thread.detachNewThread { continuation.resume(with: Result { try body() }) }
        }
    }

    /// Reads until `bytes` bytes have come or the connection ends; returns how many came.
    public func receive(_ bytes: Int) -> Int {
        var received = 0
        var buffer = [UInt8](repeating: 0, count: 4096)
        while received < bytes {
            let count = buffer.withUnsafeMutableBytes { recv(socket, $0.baseAddress, $0.count, 0) }
            if count <= 0 { break }
            received += count
        }
        return received
    }

    /// Sends a GET for `path`, reads `bytes` bytes of the answer, and closes.
    public static func readThenHangUp(port: Int, path: String, bytes: Int) async throws -> Int {
        try await onThread {
            let client = try LoopbackClient(port: port)
            client.get(path)
            return client.receive(bytes)
        }
    }

    /// What a route serving `EndlessBlocks(taken: taken)` through `BlockWriter` at `path` does
    /// for a client with a 16 KiB receive buffer that reads nothing, then reads what was made
    /// and 4 MiB more.
    public static func pacing(port: Int, path: String, taken: EndlessEvents.Counter) async throws -> Pacing {
        let reader = try LoopbackClient(port: port, receiveBuffer: 16 << 10)
        reader.get(path)
        guard let stalled = try await taken.settled() else { return Pacing(stalled: nil, made: taken.value) }
        let wanted = stalled * EndlessBlocks.size + (4 << 20)
        let read = try await onThread { reader.receive(wanted) }
        return Pacing(stalled: stalled, made: read >= wanted ? taken.value : 0)
    }

    /// ``pacing(port:path:taken:)`` at `path`, and when that fails, once more at `retry` (a
    /// second route with its own source and count). On two busy cores NIO can hear that the
    /// socket is full late enough for the queue to pass the bound (14,760 blocks once, in a
    /// full suite); a writer that never waits fails both.
    public static func pacing(port: Int, path: String, taken: EndlessEvents.Counter,
                              retry: String, retaken: EndlessEvents.Counter) async throws -> Pacing {
        let first = try await pacing(port: port, path: path, taken: taken)
        guard first.failure != nil else { return first }
        return try await pacing(port: port, path: retry, taken: retaken)
    }
}

/// How a streamed route followed a reader that stopped and started again.
public struct Pacing: Sendable {
    /// The blocks made once the source settled; nil if it never did.
    public let stalled: Int?
    /// The blocks made by the end: about 64 more than `stalled` if the source resumed, 0 if the
    /// body ended first.
    public let made: Int

    /// Why the route did not go at its reader's pace, or nil when it did: the source settled
    /// while nothing was read, below 2,048 blocks (128 MiB, which only a writer that never
    /// waits reaches), and made more once the reader read.
    public var failure: String? {
        guard let stalled else { return "the source kept being read with no reader" }
        if stalled >= 2_048 { return "\(stalled) blocks were made for a client that read none" }
        if made <= stalled + 32 { return "reading past them drew \(made - stalled) more blocks (0: the body ended)" }
        return nil
    }
}

/// The values of an array as an async sequence that can be iterated again, for stream routes.
public struct ArrayValues<Value: Sendable>: AsyncSequence, Sendable {
    let values: [Value]

    /// A sequence of `values`, in order.
    public init(_ values: [Value]) { self.values = values }

    public struct AsyncIterator: AsyncIteratorProtocol {
        let values: [Value]
        var index = 0

        public mutating func next() async -> Value? {
            guard index < values.count else { return nil }
            defer { index += 1 }
            return values[index]
        }
    }

    public func makeAsyncIterator() -> AsyncIterator { AsyncIterator(values: values) }
}

/// Blocks of 64 KiB made as fast as they are taken, forever, counted: a source whose writing
/// costs nothing, so a pacing test measures the route and not the writer.
public struct EndlessBlocks: AsyncSequence, Sendable {
    /// The bytes in each block.
    public static let size = 64 << 10
    let taken: EndlessEvents.Counter

    /// Blocks counted in `taken`.
    public init(taken: EndlessEvents.Counter) { self.taken = taken }

    public struct AsyncIterator: AsyncIteratorProtocol {
        let taken: EndlessEvents.Counter
        let block = [UInt8](repeating: 0x61, count: EndlessBlocks.size)

        public mutating func next() async -> [UInt8]? {
            taken.increment()
            return block
        }
    }

    public func makeAsyncIterator() -> AsyncIterator { AsyncIterator(taken: taken) }
}

/// Writes each block of bytes as it is, as `application/octet-stream`.
public struct BlockWriter: StreamBodyWriter {
    public let contentType = "application/octet-stream"

    public init() {}

    public func write(_ value: [UInt8], index: Int, into bytes: inout [UInt8]) {
        bytes += value
    }
}
