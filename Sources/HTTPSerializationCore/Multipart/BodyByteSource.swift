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

/// Where body bytes come from (a part's, or a whole request body's); each enforces the
/// declared length exactly.
package protocol BodyByteSource: AnyObject {
    /// Fills up to `buffer.count` bytes; 0 only once the declared length has been delivered.
    func read(into buffer: UnsafeMutableRawBufferPointer) throws -> Int
    func close()
}

final class DataBodySource: BodyByteSource {
    private let data: Data
    private var offset = 0

    init(_ data: Data) {
        self.data = data
    }

    func read(into buffer: UnsafeMutableRawBufferPointer) throws -> Int {
        let count = min(buffer.count, data.count - offset)
        guard count > 0 else { return 0 }
        data.withUnsafeBytes { source in
            buffer.baseAddress!.copyMemory(from: source.baseAddress! + offset, byteCount: count)
        }
        offset += count
        return count
    }

    func close() {}
}

/// Reads a regular file with `read(2)`: straight into large destination buffers, through one
/// staging buffer (allocated once per part) for small ones.
final class FileBodySource: BodyByteSource {
    static let stagingSize = 256 * 1024

    private let label: String
    private let declared: UInt64
    private var remaining: UInt64
    private var descriptor: Int32
    private var staging: UnsafeMutableRawBufferPointer?
    private var stagedStart = 0
    private var stagedEnd = 0

    init(url: URL, declared: UInt64, label: String) throws {
        self.label = label
        self.declared = declared
        remaining = declared
        descriptor = open(url.path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else {
            throw RequestSerializationError.multipartSourceUnavailable(
                part: label, reason: "\(url.path) cannot be opened (\(POSIX.errorDescription))")
        }
        let size = try currentSize(path: url.path)
        if size != declared {
            close()
            throw RequestSerializationError.multipartLengthMismatch(part: label, declared: declared, actual: size)
        }
    }

    deinit {
        close()
    }

    func read(into buffer: UnsafeMutableRawBufferPointer) throws -> Int {
        guard remaining > 0 else { return try finish() }
        let wanted = Int(min(UInt64(buffer.count), remaining))
        if stagedEnd > stagedStart || wanted < Self.stagingSize / 4 {
            return try readStaged(into: buffer, wanted: wanted)
        }
        let count = try readFile(into: buffer.baseAddress!, count: wanted)
        remaining -= UInt64(count)
        return count
    }

    private func readStaged(into buffer: UnsafeMutableRawBufferPointer, wanted: Int) throws -> Int {
        if stagedEnd == stagedStart {
            if staging == nil { staging = .allocate(byteCount: Self.stagingSize, alignment: 16) }
            let refill = Int(min(UInt64(Self.stagingSize), remaining))
            stagedStart = 0
            stagedEnd = try readFile(into: staging!.baseAddress!, count: refill)
        }
        let count = min(wanted, stagedEnd - stagedStart)
        buffer.baseAddress!.copyMemory(from: staging!.baseAddress! + stagedStart, byteCount: count)
        stagedStart += count
        remaining -= UInt64(count)
        return count
    }

    /// One `read(2)` of up to `count` bytes; a file that ends before its declared size is an error.
    private func readFile(into pointer: UnsafeMutableRawPointer, count: Int) throws -> Int {
        while true {
            let result = POSIX.read(descriptor, pointer, count)
            if result > 0 { return result }
            if result == 0 {
                let delivered = declared - remaining
                throw RequestSerializationError.multipartLengthMismatch(part: label, declared: declared, actual: delivered)
            }
            if errno == EINTR { continue }
            throw RequestSerializationError.multipartSourceUnavailable(part: label, reason: "reading failed (\(POSIX.errorDescription))")
        }
    }

    /// After the declared bytes: a file that grew is an error too, though nothing past the
    /// declared length was sent.
    private func finish() throws -> Int {
        guard descriptor >= 0 else { return 0 }
        var info = stat()
        if fstat(descriptor, &info) == 0, UInt64(info.st_size) > declared {
            let size = UInt64(info.st_size)
            close()
            throw RequestSerializationError.multipartLengthMismatch(part: label, declared: declared, actual: size)
        }
        close()
        return 0
    }

    private func currentSize(path: String) throws -> UInt64 {
        var info = stat()
        guard fstat(descriptor, &info) == 0 else {
            close()
            throw RequestSerializationError.multipartSourceUnavailable(part: label, reason: "\(path) cannot be examined (\(POSIX.errorDescription))")
        }
        guard (info.st_mode & S_IFMT) == S_IFREG else {
            close()
            throw RequestSerializationError.multipartSourceUnavailable(part: label, reason: "\(path) is no longer a regular file")
        }
        return UInt64(info.st_size)
    }

    func close() {
        if descriptor >= 0 {
            POSIX.close(descriptor)
            descriptor = -1
        }
        staging?.deallocate()
        staging = nil
    }
}

/// Reads a part stream, never asking for more than the bytes still declared; a stream of
/// unknown length (a raw request body) is read until it ends.
final class StreamBodySource: BodyByteSource {
    private let stream: any MultipartPartStream
    private let label: String
    private let declared: UInt64?
    private var remaining: UInt64
    private var closed = false

    init(stream: any MultipartPartStream, declared: UInt64?, label: String) {
        self.stream = stream
        self.label = label
        self.declared = declared
        remaining = declared ?? .max
    }

    /// A source over a stream `factory` makes now; its failure is named after `label`.
    convenience init(opening factory: () throws -> any MultipartPartStream, declared: UInt64?, label: String) throws {
        let stream: any MultipartPartStream
        do {
            stream = try factory()
        } catch let error as RequestSerializationError {
            // Already names its body or part (a factory over another body, say), as reads do.
            throw error
        } catch {
            throw RequestSerializationError.multipartSourceUnavailable(part: label, reason: "the stream factory failed: \(error)")
        }
        self.init(stream: stream, declared: declared, label: label)
    }

    /// A source over a single-use stream; a second claim is an error.
    convenience init(claiming oneShot: OneShotStream, declared: UInt64?, label: String) throws {
        guard let stream = oneShot.claim() else {
            throw RequestSerializationError.multipartStreamAlreadyConsumed(part: label)
        }
        self.init(stream: stream, declared: declared, label: label)
    }

    deinit {
        close()
    }

    func read(into buffer: UnsafeMutableRawBufferPointer) throws -> Int {
        guard let declared else { return try readUndeclared(into: buffer) }
        guard remaining > 0 else { return try finish(declared: declared) }
        let wanted = Int(min(UInt64(buffer.count), remaining))
        let count = try readStream(into: UnsafeMutableRawBufferPointer(rebasing: buffer[..<wanted]))
        if count == 0 {
            throw RequestSerializationError.multipartLengthMismatch(part: label, declared: declared, actual: declared - remaining)
        }
        remaining -= UInt64(count)
        return count
    }

    private func readUndeclared(into buffer: UnsafeMutableRawBufferPointer) throws -> Int {
        guard !closed, buffer.count > 0 else { return 0 }
        let count = try readStream(into: buffer)
        if count == 0 { close() }
        return count
    }

    /// One probe read past the declared length tells a stream that is longer than declared.
    private func finish(declared: UInt64) throws -> Int {
        guard !closed else { return 0 }
        var probe: UInt8 = 0
        let extra = try withUnsafeMutableBytes(of: &probe) { try readStream(into: $0) }
        close()
        if extra > 0 {
            throw RequestSerializationError.multipartLengthMismatch(part: label, declared: declared, actual: declared + UInt64(extra))
        }
        return 0
    }

    /// The stream's own read, its failures named after the part.
    private func readStream(into buffer: UnsafeMutableRawBufferPointer) throws -> Int {
        let target = buffer.bindMemory(to: UInt8.self)
        var output = OutputSpan(buffer: target, initializedCount: 0)
        do {
            try stream.read(into: &output)
        } catch let error as RequestSerializationError {
            throw error
        } catch let error as MultipartStreamError {
            throw RequestSerializationError.multipartSourceUnavailable(part: label, reason: error.reason)
        } catch {
            throw RequestSerializationError.multipartSourceUnavailable(part: label, reason: "the stream failed: \(error)")
        }
        return output.finalize(for: target)
    }

    func close() {
        guard !closed else { return }
        closed = true
        stream.close()
    }
}
