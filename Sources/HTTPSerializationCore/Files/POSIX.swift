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

    /// Writes all `count` bytes, going on after short writes and `EINTR`: nil, or why not.
    static func writeAll(_ descriptor: Int32, _ start: UnsafeRawPointer, _ count: Int) -> String? {
        var offset = 0
        while offset < count {
            let result = write(descriptor, start + offset, count - offset)
            if result > 0 {
                offset += result
            } else if result < 0, errno == EINTR {
                continue
            } else {
                return result == 0 ? "nothing was written" : errorDescription
            }
        }
        return nil
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

    /// Whether `path` is a regular file, a directory or something else, and its size; nil
    /// when it cannot be examined.
    static func fileStatus(_ path: String) -> (isRegular: Bool, isDirectory: Bool, size: UInt64)? {
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        let kind = info.st_mode & S_IFMT
        return (kind == S_IFREG, kind == S_IFDIR, UInt64(info.st_size))
    }

    /// Blocks the calling thread for `seconds` (throttling pauses a reading thread only).
    static func sleep(seconds: Double) {
        guard seconds > 0 else { return }
        var request = timespec(tv_sec: Int(seconds), tv_nsec: Int((seconds - seconds.rounded(.down)) * 1_000_000_000))
        var remaining = timespec()
        while nanosleep(&request, &remaining) != 0 && errno == EINTR { request = remaining }
    }

    static var errorDescription: String {
        String(cString: strerror(errno))
    }
}
