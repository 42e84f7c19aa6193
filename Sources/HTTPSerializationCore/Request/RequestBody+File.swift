#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

extension RequestBody {
    /// Writes the body to a file: for transports that upload from a file to send a real
    /// `Content-Length` where a stream would go chunked (URLSession on Linux).
    ///
    /// `progress` receives the bytes written so far (and the total, when known) after every
    /// write. A multipart form's throttle applies. A failed or cancelled write removes the
    /// partial file.
    ///
    /// - Throws: ``RequestSerializationError/fileWriteFailed(path:reason:)`` and what reading the
    ///   body throws (a missing file, a short stream, …).
    public func write(to fileURL: URL, progress: (@Sendable (TransferProgress) -> Void)? = nil) async throws {
        if let factory = asyncChunks {
            let chunks = AsyncChunkBuffer(factory.makeReader())
            return try await BodyFileWriter.write(to: fileURL, total: nil, throttle: nil, progress: progress) { buffer in
                guard let chunk = try await chunks.next(upTo: buffer.count) else { return 0 }
                chunk.withUnsafeBytes { buffer.copyMemory(from: $0) }
                return chunk.count
            }
        }
        let source = try makeSource()
        defer { source.close() }
        try await BodyFileWriter.write(to: fileURL, total: length, throttle: throttle, progress: progress) {
            try source.read(into: $0)
        }
    }
}
