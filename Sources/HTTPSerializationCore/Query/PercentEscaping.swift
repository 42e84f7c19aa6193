/// Percent-escapes a string with AFNetworking's character set.
///
/// Only ALPHA, DIGIT, `-`, `.`, `_`, `~`, `/` and `?` stay literal; every other UTF-8 byte
/// becomes `%XX` in upper-case hex, so `%` is always escaped and never decoded twice. This
/// is RFC 3986's query set less the sub-delimiters, `:`, `@`, `#`, `[` and `]`, which
/// servers may read as structure.
///
/// ```swift
/// percentEscaped(":#[]@!$&'()*+,;=?/")  // "%3A%23%5B%5D%40%21%24%26%27%28%29%2A%2B%2C%3B%3D?/"
/// ```
public func percentEscaped(_ string: String) -> String {
    PercentEscaping.escape(string)
}

/// The byte-level engine shared by `percentEscaped(_:)` and the query-string writer.
///
/// Branchless: each input byte indexes a table holding its 1- or 3-byte output packed in a
/// `UInt32` and that output's length; the writer always stores 4 bytes and advances by the
/// length, so random text costs no branch mispredictions.
enum PercentEscaping {
    /// Bytes a target must have past `escapedLength(source)` for the 4-byte stores.
    static let writeSlack = 3

    /// Per byte: its escaped form, little-endian packed.
    static let encoded: [UInt32] = (0..<256).map { byte in
        let byte = UInt32(byte)
        if isLiteral(UInt8(byte)) { return byte }
        let hex = Array("0123456789ABCDEF".utf8).map(UInt32.init)
        return UInt32(UInt8(ascii: "%")) | hex[Int(byte >> 4)] << 8 | hex[Int(byte & 0x0F)] << 16
    }

    /// Per byte: how many bytes its escaped form has (1 or 3).
    static let lengths: [UInt8] = (0..<256).map { isLiteral(UInt8($0)) ? 1 : 3 }

    static func isLiteral(_ byte: UInt8) -> Bool {
        byte.isASCIIAlphanumeric || "-._~/?".utf8.contains(byte)
    }

    static func escape(_ string: String) -> String {
        var string = string
        let (length, count) = string.withUTF8 { (escapedLength($0), $0.count) }
        if length == count { return string }
        return string.withUTF8 { source in
            String(unsafeUninitializedCapacity: length + writeSlack) { target in
                write(source, to: target.baseAddress!)
            }
        }
    }

    /// How many bytes `source` takes once escaped.
    @inline(__always)
    static func escapedLength(_ source: UnsafeBufferPointer<UInt8>) -> Int {
        lengths.withUnsafeBufferPointer { lengths in
            var total = 0
            for byte in source { total &+= Int(lengths[Int(byte)]) }
            return total
        }
    }

    /// Writes the escaped form of `source` at `target`, which must have room for
    /// `escapedLength(source) + writeSlack` bytes; returns the number of bytes that count.
    @inline(__always)
    static func write(_ source: UnsafeBufferPointer<UInt8>, to target: UnsafeMutablePointer<UInt8>) -> Int {
        encoded.withUnsafeBufferPointer { encoded in
            lengths.withUnsafeBufferPointer { lengths in
                let raw = UnsafeMutableRawPointer(target)
                var out = 0
                for byte in source {
                    raw.storeBytes(of: encoded[Int(byte)].littleEndian, toByteOffset: out, as: UInt32.self)
                    out &+= Int(lengths[Int(byte)])
                }
                return out
            }
        }
    }
}

extension UInt8 {
    /// `A`–`Z` or `a`–`z`.
    var isASCIILetter: Bool {
        (self | 0x20) >= UInt8(ascii: "a") && (self | 0x20) <= UInt8(ascii: "z")
    }

    /// `A`–`Z`, `a`–`z` or `0`–`9`.
    var isASCIIAlphanumeric: Bool {
        switch self {
        case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "0")...UInt8(ascii: "9"):
            return true
        default:
            return false
        }
    }
}
