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

extension MultipartFormData {
    /// The whole body in memory, for small forms and tests.
    ///
    /// - Throws: what reading the parts throws (a missing file, a short stream, …).
    public func encodedData() throws -> Data {
        if throttle == nil, let data = encodedInMemory() { return data }
        var data = Data(count: Int(contentLength))
        let reader = MultipartBodyReader(form: self)
        var throttle = ThrottleState(throttle)
        let produced = try data.withUnsafeMutableBytes { buffer in
            var offset = 0
            while offset < buffer.count {
                let pause = throttle.pauseBeforeNextPacket()
                if pause > 0 { POSIX.sleep(seconds: pause) }
                let end = offset + throttle.cap(buffer.count - offset)
                let count = try reader.read(into: UnsafeMutableRawBufferPointer(rebasing: buffer[offset..<end]))
                guard count > 0 else { break }
                offset += count
            }
            return offset
        }
        // The sources enforce every declared length, so this only guards the arithmetic.
        guard produced == data.count, reader.isAtEnd else {
            throw RequestSerializationError.multipartLengthMismatch(part: "the body", declared: contentLength, actual: UInt64(produced))
        }
        return data
    }

    /// A form whose parts are all bytes in memory, each checked for the delimiter when it was
    /// appended, written in one pass into a buffer of its exact length; nil for any other form.
    private func encodedInMemory() -> Data? {
        for part in parts {
            guard part.body.isInMemory, part.isCheckedForDelimiter else { return nil }
        }
        guard !parts.isEmpty else { return Data() }
        let length = Int(contentLength)
        let buffer = UnsafeMutableBufferPointer<UInt8>.allocate(capacity: length)
        var writer = ByteWriter(buffer)
        var boundary = boundary
        boundary.withUTF8 { boundary in
            for (index, part) in parts.enumerated() {
                writer.write(index == 0 ? "--" : "\r\n--")
                writer.write(boundary)
                writer.write("\r\n")
                part.headerBlock.withUnsafeBufferPointer { writer.write($0) }
                part.body.withBytes { writer.write($0) }
            }
            writer.write("\r\n--")
            writer.write(boundary)
            writer.write("--\r\n")
        }
        // The length is the parts' own sum, so this only guards the arithmetic: the reader's
        // path then reports the mismatch as a typed error.
        guard !writer.overflowed, writer.offset == length, let base = buffer.baseAddress else {
            buffer.deallocate()
            return nil
        }
        return Data(bytesNoCopy: base, count: length, deallocator: .custom { pointer, _ in pointer.deallocate() })
    }

    /// Writes the body to a file, for uploads that need a real `Content-Length` where a
    /// stream would be sent chunked (URLSession on Linux).
    ///
    /// `progress` receives the bytes written so far and the total after every write.
    /// A failed or cancelled write removes the partial file.
    public func writeEncodedBody(to fileURL: URL, progress: (@Sendable (TransferProgress) -> Void)? = nil) async throws {
        try await RequestBody.multipart(self).write(to: fileURL, progress: progress)
    }
}

/// Copies a body, chunk by chunk through one 1 MiB buffer, into a file.
package enum BodyFileWriter {
    package static let bufferSize = 1 << 20

    package static func write(
        to fileURL: URL, total: UInt64?, throttle: MultipartFormData.Throttle?,
        progress: (@Sendable (TransferProgress) -> Void)?,
        read: (UnsafeMutableRawBufferPointer) async throws -> Int
    ) async throws {
        guard fileURL.isFileURL else {
            throw RequestSerializationError.fileWriteFailed(path: fileURL.absoluteString, reason: "it is not a file URL")
        }
        let path = fileURL.path
        let descriptor = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else {
            throw RequestSerializationError.fileWriteFailed(path: path, reason: POSIX.errorDescription)
        }
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: bufferSize, alignment: 16)
        defer { buffer.deallocate() }
        var state = ThrottleState(throttle)
        var written: UInt64 = 0
        do {
            while true {
                try Task.checkCancellation()
                let pause = state.pauseBeforeNextPacket()
                if pause > 0 { try await Task.sleep(nanoseconds: UInt64(pause * 1e9)) }
                let count = try await read(UnsafeMutableRawBufferPointer(rebasing: buffer[..<state.cap(bufferSize)]))
                guard count > 0 else { break }
                try writeAll(descriptor, buffer.baseAddress!, count, path: path)
                written += UInt64(count)
                progress?(TransferProgress(completed: Int64(written), total: total.map { Int64($0) }))
            }
            guard POSIX.close(descriptor) else {
                throw RequestSerializationError.fileWriteFailed(path: path, reason: POSIX.errorDescription)
            }
        } catch {
            POSIX.close(descriptor)
            unlink(path)
            throw error
        }
    }

    private static func writeAll(_ descriptor: Int32, _ start: UnsafeMutableRawPointer, _ count: Int, path: String) throws {
        if let reason = POSIX.writeAll(descriptor, start, count) {
            throw RequestSerializationError.fileWriteFailed(path: path, reason: reason)
        }
    }

}
