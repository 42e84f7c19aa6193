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
/// buffer so that the file is written 256 KiB at a time, closed with its error checked. Opening,
/// writing and closing run through ``BlockingIO``, off Swift's cooperative pool.
///
/// `@unchecked Sendable` is sound: one download owns the sink and calls it in sequence, and a
/// call that runs through ``BlockingIO`` runs while that download's task awaits it, so the
/// descriptor and the buffer are never touched by two threads at once.
final class DownloadFileSink: @unchecked Sendable {
    static let bufferSize = 256 << 10
    let path: String
    private var descriptor: Int32
    private var buffer: [UInt8] = []

    /// The path of a file URL, or ``DownloadError/cannotWrite(path:reason:)``.
    static func path(of url: URL) throws -> String {
        guard url.isFileURL else { throw DownloadError.cannotWrite(path: url.absoluteString, reason: "it is not a file URL") }
        return url.path
    }

    /// Opens `path` empty, or (with `appendingAt`) at its end, which must be that offset.
    static func opening(path: String, appendingAt offset: Int64?) async throws -> DownloadFileSink {
        try await BlockingIO.run { try DownloadFileSink(path: path, appendingAt: offset) }
    }

    private init(path: String, appendingAt offset: Int64?) throws {
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
        buffer.reserveCapacity(Self.bufferSize)
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
        if descriptor >= 0 { POSIX.close(descriptor) }
    }

    /// Takes a chunk into the buffer; ``isFull`` says when to ``flush()``.
    func take(_ bytes: UnsafeBufferPointer<UInt8>) {
        buffer.append(contentsOf: bytes)
    }

    /// Whether the buffer holds a write's worth.
    var isFull: Bool { buffer.count >= Self.bufferSize }

    /// Writes what is buffered. The buffer is emptied even when the write fails part way, so
    /// the file keeps a prefix of the body and nothing is written twice.
    func flush() async throws {
        guard !buffer.isEmpty else { return }
        try await BlockingIO.run { try self.writeBuffered() }
    }

    /// Flushes and closes, reporting the deferred write errors `close(2)` may bring.
    func close() async throws {
        try await BlockingIO.run {
            try self.writeBuffered()
            let closed = POSIX.close(self.descriptor)
            self.descriptor = -1
            if !closed { throw DownloadError.cannotWrite(path: self.path, reason: POSIX.errorDescription) }
        }
    }

    private func writeBuffered() throws {
        guard !buffer.isEmpty, descriptor >= 0 else { return }
        defer { buffer.removeAll(keepingRoomUpTo: 2 * Self.bufferSize) }
        let failure = buffer.withUnsafeBytes { POSIX.writeAll(descriptor, $0.baseAddress!, $0.count) }
        if let failure { throw DownloadError.cannotWrite(path: path, reason: failure) }
    }
}
