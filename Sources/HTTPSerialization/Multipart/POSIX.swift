#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The C library's file calls under names that methods called `read` and `close` do not shadow.
enum POSIX {
    static func read(_ descriptor: Int32, _ buffer: UnsafeMutableRawPointer, _ count: Int) -> Int {
        #if canImport(Glibc)
        Glibc.read(descriptor, buffer, count)
        #elseif canImport(Musl)
        Musl.read(descriptor, buffer, count)
        #else
        Darwin.read(descriptor, buffer, count)
        #endif
    }

    static func write(_ descriptor: Int32, _ buffer: UnsafeRawPointer, _ count: Int) -> Int {
        #if canImport(Glibc)
        Glibc.write(descriptor, buffer, count)
        #elseif canImport(Musl)
        Musl.write(descriptor, buffer, count)
        #else
        Darwin.write(descriptor, buffer, count)
        #endif
    }

    /// False when `close(2)` fails, which is where some file systems report a deferred
    /// write error such as a full disk.
    @discardableResult
    static func close(_ descriptor: Int32) -> Bool {
        #if canImport(Glibc)
        Glibc.close(descriptor) == 0
        #elseif canImport(Musl)
        Musl.close(descriptor) == 0
        #else
        Darwin.close(descriptor) == 0
        #endif
    }

    static var errorDescription: String {
        String(cString: strerror(errno))
    }
}
