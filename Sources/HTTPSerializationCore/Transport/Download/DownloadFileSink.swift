#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The file a download writes: opened to replace or to append, chunks gathered into one
/// buffer so small chunks cost one write each 256 KiB, closed with its error checked.
final class DownloadFileSink {
    static let bufferSize = 256 << 10
    let path: String
    private var descriptor: Int32
    private let buffer: UnsafeMutableRawBufferPointer
    private var buffered = 0

    /// The path of a file URL, or ``DownloadError/cannotWrite(path:reason:)``.
    static func path(of url: URL) throws -> String {
        guard url.isFileURL else { throw DownloadError.cannotWrite(path: url.absoluteString, reason: "it is not a file URL") }
        return url.path
    }

    /// Opens `path` empty, or (with `appendingAt`) at its end, which must be that offset.
    init(path: String, appendingAt offset: Int64?) throws {
        self.path = path
        let flags = offset == nil ? O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC : O_WRONLY | O_APPEND | O_CLOEXEC
        let descriptor = open(path, flags, 0o644)
        guard descriptor >= 0 else {
            if let offset, errno == ENOENT { throw DownloadError.fileChanged(path: path, expectedLength: offset, actualLength: 0) }
            throw DownloadError.cannotWrite(path: path, reason: POSIX.errorDescription)
        }
        if let offset {
            var info = stat()
            let examined = fstat(descriptor, &info) == 0
            guard examined, (info.st_mode & S_IFMT) == S_IFREG, Int64(info.st_size) == offset else {
                POSIX.close(descriptor)
                guard examined else { throw DownloadError.cannotWrite(path: path, reason: POSIX.errorDescription) }
                throw DownloadError.fileChanged(path: path, expectedLength: offset, actualLength: Int64(info.st_size))
            }
        }
        self.descriptor = descriptor
        buffer = .allocate(byteCount: Self.bufferSize, alignment: 16)
    }

    /// Why `path` cannot take a download, or nil: a folder, a pipe or socket (opening one
    /// would wait for a reader), or a folder that does not exist. A device such as `/dev/null`
    /// is allowed.
    static func destinationProblem(_ path: String) -> String? {
        var info = stat()
        if stat(path, &info) == 0 {
            switch info.st_mode & S_IFMT {
            case S_IFDIR: return "it is a folder"
            case S_IFIFO, S_IFSOCK: return "it is a pipe or socket"
            default: return nil
            }
        }
        let folder = path.lastIndex(of: "/").map { String(path[..<$0]) } ?? "."
        guard POSIX.fileStatus(folder.isEmpty ? "/" : folder)?.isDirectory == true else { return "its folder does not exist" }
        return nil
    }

    /// Removes a download's file after a failure, when it is a regular file: never a device
    /// such as `/dev/null`, a pipe, or a symbolic link (the bytes went to its target).
    static func remove(_ path: String) {
        var info = stat()
        guard lstat(path, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG else { return }
        unlink(path)
    }

    /// The length of the regular file at `path`, nil when there is none.
    static func regularFileLength(_ path: String) -> Int64? {
        guard let status = POSIX.fileStatus(path), status.isRegular else { return nil }
        return Int64(clamping: status.size)
    }

    deinit {
        buffer.deallocate()
        if descriptor >= 0 { POSIX.close(descriptor) }
    }

    /// Takes a chunk: copied into the buffer, or (when large) written at once after what is buffered.
    func write(_ bytes: UnsafeBufferPointer<UInt8>) throws {
        guard let start = bytes.baseAddress, !bytes.isEmpty else { return }
        if bytes.count >= Self.bufferSize / 2 {
            try flush()
            try writeAll(UnsafeRawPointer(start), bytes.count)
        } else {
            if buffered + bytes.count > Self.bufferSize { try flush() }
            (buffer.baseAddress! + buffered).copyMemory(from: start, byteCount: bytes.count)
            buffered += bytes.count
        }
    }

    /// Writes what is buffered. The buffer is emptied even when the write fails part way, so
    /// the file keeps a prefix of the body and nothing is written twice.
    func flush() throws {
        guard buffered > 0 else { return }
        let count = buffered
        buffered = 0
        try writeAll(UnsafeRawPointer(buffer.baseAddress!), count)
    }

    /// Flushes and closes, reporting the deferred write errors `close(2)` may bring.
    func close() throws {
        try flush()
        let closed = POSIX.close(descriptor)
        descriptor = -1
        if !closed { throw DownloadError.cannotWrite(path: path, reason: POSIX.errorDescription) }
    }

    private func writeAll(_ start: UnsafeRawPointer, _ count: Int) throws {
        if let reason = POSIX.writeAll(descriptor, start, count) {
            throw DownloadError.cannotWrite(path: path, reason: reason)
        }
    }
}
