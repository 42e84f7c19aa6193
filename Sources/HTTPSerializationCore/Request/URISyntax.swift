/// RFC 3986's grammar for the parts of a request target, checked byte by byte: what `URL`
/// takes without re-encoding (`URL(string:encodingInvalidCharacters: false)`), so every
/// transport and the curl command refuse the same targets.
enum URISyntax {
    /// `unreserved`: letters, digits, `-` `.` `_` `~`.
    static func isUnreserved(_ byte: UInt8) -> Bool {
        byte.isASCIIAlphanumeric || byte == UInt8(ascii: "-") || byte == UInt8(ascii: ".")
            || byte == UInt8(ascii: "_") || byte == UInt8(ascii: "~")
    }

    /// `sub-delims`: `!` `$` `&` `'` `(` `)` `*` `+` `,` `;` `=`.
    static func isSubDelimiter(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "!"), UInt8(ascii: "$"), UInt8(ascii: "&")...UInt8(ascii: ","), UInt8(ascii: ";"), UInt8(ascii: "="):
            return true
        default:
            return false
        }
    }

    static func isHexDigit(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "A")...UInt8(ascii: "F"), UInt8(ascii: "a")...UInt8(ascii: "f"):
            return true
        default:
            return false
        }
    }

    /// Whether every byte is `allowed` or starts a `%` and two hex digits.
    static func isValid(_ bytes: Substring.UTF8View, allowing allowed: (UInt8) -> Bool) -> Bool {
        var index = bytes.startIndex
        while index != bytes.endIndex {
            let byte = bytes[index]
            bytes.formIndex(after: &index)
            if allowed(byte) { continue }
            guard byte == UInt8(ascii: "%"), index != bytes.endIndex, isHexDigit(bytes[index]) else { return false }
            bytes.formIndex(after: &index)
            guard index != bytes.endIndex, isHexDigit(bytes[index]) else { return false }
            bytes.formIndex(after: &index)
        }
        return true
    }

    /// A path with its query, or a fragment: `pchar`, `/` and `?`.
    static func isValidPathQueryOrFragment(_ text: Substring) -> Bool {
        isValid(text.utf8) { byte in
            isUnreserved(byte) || isSubDelimiter(byte) || byte == UInt8(ascii: "/") || byte == UInt8(ascii: "?")
                || byte == UInt8(ascii: ":") || byte == UInt8(ascii: "@")
        }
    }

    /// `[ userinfo "@" ] host [ ":" port ]`, with a host that is a name, an IPv4 address or a
    /// bracketed IP literal.
    static func isValidAuthority(_ authority: Substring) -> Bool {
        var hostAndPort = authority
        if let at = authority.lastIndex(of: "@") {
            let userInfo = authority[..<at]
            guard isValid(userInfo.utf8, allowing: { isUnreserved($0) || isSubDelimiter($0) || $0 == UInt8(ascii: ":") }) else {
                return false
            }
            hostAndPort = authority[authority.index(after: at)...]
        }
        let port: Substring
        if hostAndPort.hasPrefix("[") {
            guard let close = hostAndPort.firstIndex(of: "]") else { return false }
            let literal = hostAndPort[hostAndPort.index(after: hostAndPort.startIndex)..<close]
            // An IPv6 address (hex digits, `:` and a dotted IPv4 tail) or an IPvFuture.
            guard !literal.isEmpty, literal.utf8.allSatisfy({ isUnreserved($0) || isSubDelimiter($0) || $0 == UInt8(ascii: ":") }) else {
                return false
            }
            port = hostAndPort[hostAndPort.index(after: close)...]
        } else {
            let colon = hostAndPort.firstIndex(of: ":") ?? hostAndPort.endIndex
            guard isValid(hostAndPort[..<colon].utf8, allowing: { isUnreserved($0) || isSubDelimiter($0) }) else { return false }
            port = hostAndPort[colon...]
        }
        guard let first = port.utf8.first else { return true }
        return first == UInt8(ascii: ":") && port.utf8.dropFirst().allSatisfy { (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }
    }
}
