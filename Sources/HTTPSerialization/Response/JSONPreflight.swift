/// One pass over JSON bytes before Foundation sees them: nesting past the limit and
/// trailing commas (`[1,]`, which Linux's parser accepts and Apple's refuses) are refused,
/// so every platform agrees and no document can recurse deeper than the limit.
enum JSONPreflight {
    /// Nil when the bytes pass, else why not.
    static func problem(in bytes: UnsafeRawBufferPointer, maximumDepth: Int) -> String? {
        var depth = 0
        var inString = false
        var escaped = false
        var previous: UInt8 = 0
        for byte in bytes {
            if inString {
                if escaped {
                    escaped = false
                } else if byte == UInt8(ascii: "\\") {
                    escaped = true
                } else if byte == UInt8(ascii: "\"") {
                    inString = false
                }
                continue
            }
            switch byte {
            case UInt8(ascii: "\""):
                inString = true
            case UInt8(ascii: "["), UInt8(ascii: "{"):
                depth += 1
                if depth > maximumDepth { return "it is nested more than \(maximumDepth) levels deep" }
            case UInt8(ascii: "]"), UInt8(ascii: "}"):
                if previous == UInt8(ascii: ",") { return "it has a trailing comma" }
                depth -= 1
            case 0x20, 0x09, 0x0A, 0x0D:
                continue
            default:
                break
            }
            previous = byte
        }
        return nil
    }
}
