/// Multipart boundaries: random by default, validated when injected.
enum MultipartBoundary {
    /// `Boundary-` and 32 hex digits: 128 bits from the system CSPRNG (`getrandom`/`arc4random`).
    static func random() -> String {
        var generator = SystemRandomNumberGenerator()
        let high = generator.next() as UInt64
        let low = generator.next() as UInt64
        return "Boundary-" + hex(high) + hex(low)
    }

    private static func hex(_ value: UInt64) -> String {
        let digits = String(value, radix: 16, uppercase: true)
        return String(repeating: "0", count: 16 - digits.count) + digits
    }

    /// RFC 2046 §5.1.1: 1–70 `bchars`, the last not a space.
    static func validate(_ boundary: String) throws {
        var text = boundary
        let fault: String? = text.withUTF8 { bytes in
            guard !bytes.isEmpty, bytes.count <= 70 else { return "it must be 1 to 70 characters long" }
            if let bad = bytes.first(where: { !isBChar($0) }) {
                let shown = bad < 0x20 || bad >= 0x7F ? "byte 0x\(String(bad, radix: 16, uppercase: true))" : "\"\(Character(Unicode.Scalar(bad)))\""
                return "\(shown) is not allowed in a boundary"
            }
            return bytes.last == UInt8(ascii: " ") ? "it must not end with a space" : nil
        }
        if let fault { throw RequestSerializationError.invalidBoundary(boundary, reason: fault) }
    }

    /// Whether the boundary holds an RFC 2045 `tspecial` (space, `( ) , / : = ?`), so the
    /// `Content-Type` parameter must be a quoted string: most parsers cannot read it bare.
    static func needsQuoting(_ boundary: String) -> Bool {
        boundary.utf8.contains { "()<>@,;:\\\"/[]?= ".utf8.contains($0) }
    }

    private static func isBChar(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"): return true
        case UInt8(ascii: "'"), UInt8(ascii: "("), UInt8(ascii: ")"), UInt8(ascii: "+"), UInt8(ascii: "_"), UInt8(ascii: ","), UInt8(ascii: "-"),
             UInt8(ascii: "."), UInt8(ascii: "/"), UInt8(ascii: ":"), UInt8(ascii: "="), UInt8(ascii: "?"), UInt8(ascii: " "): return true
        default: return false
        }
    }
}
