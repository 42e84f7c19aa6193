import Checksums
import Foundation
import HTTPSerializationCore

/// Reads a `multipart/form-data` body into the parts an echo report lists, with the
/// package's own parser, each part's bytes hashed as they pass. multipart-kit and the Python
/// parsers stay independent oracles in the tests.
enum MultipartSplitter {
    /// Loose limits: the echo server reports what it was sent, and its body size limit
    /// already bounds the work.
    static var limits: MultipartParsingLimits {
        var limits = MultipartParsingLimits()
        limits.maximumPartCount = nil
        limits.maximumHeaderBytes = 1 << 20
        limits.maximumHeaderCount = 10_000
        limits.maximumFieldBytes = nil
        limits.maximumFileBytes = nil
        limits.maximumBodyBytes = nil
        return limits
    }

    static func parts(_ body: Data, contentType: String) throws -> [EchoReport.Part] {
        var parts: [EchoReport.Part] = []
        var hasher = SHA256()
        do {
            var parser = try MultipartBodyParser(contentType: contentType, limits: limits)
            try body.withUnsafeBytes { bytes in
                try parser.parse(Span(_unsafeBytes: bytes)) { event in
                    switch event {
                    case .head(let head):
                        hasher = SHA256()
                        parts.append(EchoReport.Part(headers: head.headers.map { EchoReport.Header(name: $0.name, value: $0.value) },
                                                     name: head.name, fileName: head.fileName, size: 0, sha256: ""))
                    case .body(let chunk):
                        chunk.withUnsafeBytes { hasher.update($0) }
                        parts[parts.count - 1].size += chunk.count
                    case .end:
                        parts[parts.count - 1].sha256 = hasher.hexDigest()
                    }
                }
            }
            try parser.finish()
        } catch let error as MultipartParsingError {
            throw EchoServerError.malformed(error.description)
        }
        return parts
    }
}
