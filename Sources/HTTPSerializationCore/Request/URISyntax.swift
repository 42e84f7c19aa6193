/// RFC 3986's grammar for the parts of a request target, checked byte by byte: what `URL`
/// takes without re-encoding (`URL(string:encodingInvalidCharacters: false)`), so every
/// transport and the curl command refuse the same targets.
enum URISyntax {
    /// A set of ASCII bytes as two 64-bit masks, one bit a byte: a shift and a test for each
    /// byte of a target, with nothing to load.
    struct ByteSet {
        let low: UInt64
        let high: UInt64

        @inline(__always)
        func contains(_ byte: UInt8) -> Bool {
            byte < 64 ? (low >> UInt64(byte)) & 1 != 0 : byte < 128 && (high >> UInt64(byte &- 64)) & 1 != 0
        }
    }

    /// `unreserved`: letters, digits, `-` `.` `_` `~`. (The masks are checked against RFC
    /// 3986's lists by a test.)
    static let unreserved = ByteSet(low: 0x03FF_6000_0000_0000, high: 0x47FF_FFFE_87FF_FFFE)
    /// `unreserved` and `sub-delims` (`!` `$` `&` `'` `(` `)` `*` `+` `,` `;` `=`): a host
    /// name's bytes.
    static let hostName = ByteSet(low: 0x2BFF_7FD2_0000_0000, high: 0x47FF_FFFE_87FF_FFFE)
    /// A host name's bytes and `:`: user information, and the inside of an IP literal.
    static let userInfo = ByteSet(low: 0x2FFF_7FD2_0000_0000, high: 0x47FF_FFFE_87FF_FFFE)
    /// `pchar` (a host name's bytes, `:` and `@`), `/` and `?`: a path with its query, or a fragment.
    static let pathQueryFragment = ByteSet(low: 0xAFFF_FFD2_0000_0000, high: 0x47FF_FFFE_87FF_FFFF)

    /// Whether every byte is in `allowed` or starts a `%` and two hex digits.
    static func isValid(_ bytes: UnsafeBufferPointer<UInt8>, allowing allowed: ByteSet) -> Bool {
        var index = 0
        let count = bytes.count
        while index < count {
            let byte = bytes[index]
            index &+= 1
            if allowed.contains(byte) { continue }
            guard byte == UInt8(ascii: "%"), index &+ 1 < count, JSONUTF8.hexValue(bytes[index]) != nil,
                  JSONUTF8.hexValue(bytes[index &+ 1]) != nil else { return false }
            index &+= 2
        }
        return true
    }

    /// A path with its query, or a fragment.
    static func isValidPathQueryOrFragment(_ text: String) -> Bool {
        var text = text
        return text.withUTF8 { isValid($0, allowing: pathQueryFragment) }
    }

    /// `[ userinfo "@" ] host [ ":" port ]`, with a host that is a name, an IPv4 address or a
    /// bracketed IP literal.
    static func isValidAuthority(_ authority: String) -> Bool {
        var authority = authority
        return authority.withUTF8 { bytes in
            var start = 0
            if let at = bytes.lastIndex(of: UInt8(ascii: "@")) {
                guard isValid(UnsafeBufferPointer(rebasing: bytes[..<at]), allowing: userInfo) else { return false }
                start = at &+ 1
            }
            var portStart: Int
            if start < bytes.count, bytes[start] == UInt8(ascii: "[") {
                // An IP literal: an IPv6 address or an IPvFuture, in the bytes `URL` takes there
                // (unreserved, sub-delims and `:`), then an RFC 6874 zone (`%25` and its name).
                guard let close = bytes[start...].firstIndex(of: UInt8(ascii: "]")) else { return false }
                let literal = (start &+ 1)..<close
                let zone = bytes[literal].firstIndex(of: UInt8(ascii: "%")) ?? close
                guard zone > literal.lowerBound, bytes[literal.lowerBound..<zone].allSatisfy(userInfo.contains) else { return false }
                if zone < close {
                    guard close - zone > 3, bytes[zone &+ 1] == UInt8(ascii: "2"), bytes[zone &+ 2] == UInt8(ascii: "5"),
                          isValid(UnsafeBufferPointer(rebasing: bytes[(zone &+ 3)..<close]), allowing: unreserved) else { return false }
                }
                portStart = close &+ 1
            } else {
                portStart = bytes[start...].firstIndex(of: UInt8(ascii: ":")) ?? bytes.count
                guard isValid(UnsafeBufferPointer(rebasing: bytes[start..<portStart]), allowing: hostName) else { return false }
            }
            guard portStart < bytes.count else { return true }
            guard bytes[portStart] == UInt8(ascii: ":") else { return false }
            portStart &+= 1
            return bytes[portStart...].allSatisfy { (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }
        }
    }
}
