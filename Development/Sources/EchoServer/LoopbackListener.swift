#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A listening TCP socket on 127.0.0.1 with a port the system picked, for servers that must
/// be plainer than the echo server: one that never answers (timeout tests) or one that only
/// reads (upload benchmarks). The kernel completes handshakes up to the backlog on its own.
public struct LoopbackListener: Sendable {
    /// The listening descriptor; the owner closes it.
    public let descriptor: Int32
    /// The port it listens on.
    public let port: Int

    /// Binds and listens, or throws the `errno` of the step that failed.
    ///
    /// With `listens` false the socket is only bound: connections to its port are refused,
    /// and no other socket can take the port while it is open (a reliably closed port).
    public init(backlog: Int32 = 64, listens: Bool = true) throws {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw POSIXErrorCode(rawValue: errno).map(SocketFailure.init) ?? SocketFailure(code: nil) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = 0
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let named = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
        }
        guard bound == 0, !listens || listen(fd, backlog) == 0, named == 0 else {
            let failure = SocketFailure(code: POSIXErrorCode(rawValue: errno))
            close(fd)
            throw failure
        }
        descriptor = fd
        port = Int(UInt16(bigEndian: address.sin_port))
    }

    /// Why a loopback socket could not be set up.
    public struct SocketFailure: Error, Sendable {
        /// The `errno` of the failed call, when it names one.
        public var code: POSIXErrorCode?
    }
}
