#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// One pass over JSON bytes before Foundation sees them: nesting past the limit and
/// trailing commas (`[1,]`, which Linux's parser accepts and Apple's refuses) are refused,
/// so every platform agrees and no document can recurse deeper than the limit. The pass
/// also notes whether a `null` literal occurs, so null removal can skip documents without one.
enum JSONPreflight {
    struct Findings {
        /// Why the document is refused, or nil.
        var problem: String?
        /// Whether a `null` literal appears outside strings.
        var containsNull = false
    }

    static func scan(_ bytes: UnsafeRawBufferPointer, maximumDepth: Int) -> Findings {
        var findings = Findings()
        guard let base = bytes.baseAddress?.assumingMemoryBound(to: UInt8.self) else { return findings }
        let count = bytes.count
        var depth = 0
        var previous: UInt8 = 0
        var index = 0
        while index < count {
            let byte = base[index]
            switch byte {
            case UInt8(ascii: "\""):
                // Strings are most of the bytes: jump from quote to quote with memchr.
                guard let end = closingQuote(base, count: count, after: index) else {
                    return findings  // unterminated: the parser reports it
                }
                index = end + 1
                previous = byte
                continue
            case UInt8(ascii: "["), UInt8(ascii: "{"):
                depth += 1
                if depth > maximumDepth {
                    findings.problem = "it is nested more than \(maximumDepth) levels deep"
                    return findings
                }
            case UInt8(ascii: "]"), UInt8(ascii: "}"):
                if previous == UInt8(ascii: ",") {
                    findings.problem = "it has a trailing comma"
                    return findings
                }
                depth -= 1
            case UInt8(ascii: "n"):
                // Outside strings only the literal null has an "n".
                findings.containsNull = true
            case 0x20, 0x09, 0x0A, 0x0D:
                index += 1
                continue
            default:
                break
            }
            previous = byte
            index += 1
        }
        return findings
    }

    /// The index of the quote that closes the string opened at `start`: the next quote not
    /// preceded by an odd number of backslashes.
    private static func closingQuote(_ base: UnsafePointer<UInt8>, count: Int, after start: Int) -> Int? {
        var from = start + 1
        while from < count {
            guard let found = memchr(base + from, Int32(UInt8(ascii: "\"")), count - from) else { return nil }
            let quote = UnsafeRawPointer(found).assumingMemoryBound(to: UInt8.self) - base
            var backslashes = 0
            var position = quote - 1
            while position > start, base[position] == UInt8(ascii: "\\") {
                backslashes += 1
                position -= 1
            }
            if backslashes % 2 == 0 { return quote }
            from = quote + 1
        }
        return nil
    }
}
