#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import HTTPSerializationCore

/// Whole-buffer compression, through the same ``DeflatingStream`` that compresses bodies as
/// they are sent.
package enum Deflater {
    /// `input` compressed as gzip (one member) or zlib-wrapped deflate, at `level` (1–9).
    package static func compress(_ input: [UInt8], as encoding: ContentEncoding, level: Int32 = 6) throws -> [UInt8] {
        let stream = try DeflatingStream(source: RequestBody.bytes(Data(input)).makeSource(), encoding: encoding, level: level)
        defer { stream.close() }
        var result: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let count = try chunk.withUnsafeMutableBytes { try stream.deflate(into: $0) }
            if count == 0 { return result }
            result += chunk[..<count]
        }
    }
}
