#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Finds the delimiter `CRLF--BOUNDARY` in a part's body as it streams past, across chunk
/// edges. A body holding it would end its part early for every parser and let the bytes
/// after it pose as parts of their own (RFC 2046 §5.1.1 forbids it in an encapsulation).
///
/// `memchr` finds each carriage return at memory speed; only those are compared. The bytes
/// before a body end with the header block's CRLF, so a body that starts with `--BOUNDARY`
/// is caught too.
struct MultipartDelimiterScanner {
    private let delimiter: [UInt8]
    /// The last `delimiter.count - 1` bytes seen, to match across chunk edges.
    private var tail: [UInt8]

    init(boundary: String) {
        delimiter = [0x0D, 0x0A] + Array("--".utf8) + Array(boundary.utf8)
        tail = [0x0D, 0x0A]
    }

    /// Starts a new part body.
    mutating func reset() {
        tail = [0x0D, 0x0A]
    }

    /// Whether the delimiter ends in these bytes (a match may begin in earlier chunks).
    mutating func scan(_ chunk: UnsafeRawBufferPointer) -> Bool {
        guard chunk.count > 0 else { return false }
        let keep = delimiter.count - 1
        // Across the edge: what is kept from before, joined to the start of this chunk.
        if !tail.isEmpty {
            var joined = tail
            joined.append(contentsOf: UnsafeRawBufferPointer(rebasing: chunk.prefix(keep)))
            if Self.contains(joined, delimiter) { return true }
        }
        if Self.contains(chunk, delimiter) { return true }
        if chunk.count >= keep {
            tail = Array(UnsafeRawBufferPointer(rebasing: chunk.suffix(keep)))
        } else {
            tail.append(contentsOf: chunk)
            tail.removeFirst(max(0, tail.count - keep))
        }
        return false
    }

    /// Whether a whole in-memory body holds the delimiter (checked when it is appended), the
    /// header block's CRLF before it included.
    static func contains(_ bytes: UnsafeRawBufferPointer, boundary: String) -> Bool {
        var scanner = MultipartDelimiterScanner(boundary: boundary)
        return scanner.scan(bytes)
    }

    private static func contains(_ bytes: [UInt8], _ pattern: [UInt8]) -> Bool {
        bytes.withUnsafeBytes { contains($0, pattern) }
    }

    private static func contains(_ bytes: UnsafeRawBufferPointer, _ pattern: [UInt8]) -> Bool {
        guard bytes.count >= pattern.count, let base = bytes.baseAddress else { return false }
        return pattern.withUnsafeBytes { needle -> Bool in
            var start = base
            let end = base + bytes.count
            let lastStart = end - pattern.count
            while start <= lastStart, let hit = memchr(start, 0x0D, lastStart - start + 1) {
                let candidate = UnsafeRawPointer(hit)
                if memcmp(candidate, needle.baseAddress!, pattern.count) == 0 { return true }
                start = candidate + 1
            }
            return false
        }
    }
}
