import HTTPSerializationCore
/// RFC 3986 `URI-reference` syntax, which libxml2 requires of namespace names (FoundationXML
/// then reports a parse error), checked over ASCII bytes, with libxml2's narrowing of ports:
/// a port after a colon has at least one digit and fits an `int`.
enum URIReferenceSyntax {
    /// Whether a valid reference starts with a scheme (is not relative): libxml2 warns of a
    /// relative default namespace, and FoundationXML reports its warnings as errors.
    static func hasScheme(_ text: String) -> Bool {
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: ":"): return true
            case UInt8(ascii: "/"), UInt8(ascii: "?"), UInt8(ascii: "#"): return false
            default: continue
            }
        }
        return false
    }

    static func isValid(_ text: String) -> Bool {
        var bytes = Array(text.utf8)[...]
        if let hash = bytes.firstIndex(of: UInt8(ascii: "#")) {
            guard isQueryOrFragment(bytes[(hash + 1)...]) else { return false }
            bytes = bytes[..<hash]
        }
        if let question = bytes.firstIndex(of: UInt8(ascii: "?")) {
            guard isQueryOrFragment(bytes[(question + 1)...]) else { return false }
            bytes = bytes[..<question]
        }
        // scheme ":" hier-part, or a relative part whose first segment has no colon.
        if let colon = bytes.firstIndex(of: UInt8(ascii: ":")),
           bytes[..<colon].firstIndex(of: UInt8(ascii: "/")) == nil {
            guard isScheme(bytes[..<colon]) else { return false }
            bytes = bytes[(colon + 1)...]
        }
        if bytes.starts(with: Array("//".utf8)) {
            let authorityEnd = bytes[(bytes.startIndex + 2)...].firstIndex(of: UInt8(ascii: "/")) ?? bytes.endIndex
            guard isAuthority(bytes[(bytes.startIndex + 2)..<authorityEnd]) else { return false }
            bytes = bytes[authorityEnd...]
        }
        return isPercentEncoded(bytes) { isPathCharacter($0) || $0 == UInt8(ascii: "/") }
    }

    private static func isUnreserved(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
             UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "~"):
            return true
        default:
            return false
        }
    }

    private static func isSubDelimiter(_ byte: UInt8) -> Bool {
        Array("!$&'()*+,;=".utf8).contains(byte)
    }

    /// `pchar` without its percent-encoded form.
    private static func isPathCharacter(_ byte: UInt8) -> Bool {
        isUnreserved(byte) || isSubDelimiter(byte) || byte == UInt8(ascii: ":") || byte == UInt8(ascii: "@")
    }

    private static func isQueryOrFragment(_ bytes: ArraySlice<UInt8>) -> Bool {
        isPercentEncoded(bytes) { isPathCharacter($0) || $0 == UInt8(ascii: "/") || $0 == UInt8(ascii: "?") }
    }

    private static func isScheme(_ bytes: ArraySlice<UInt8>) -> Bool {
        guard let first = bytes.first, (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(first | 0x20) else { return false }
        return bytes.allSatisfy { byte in
            isUnreserved(byte) && byte != UInt8(ascii: "_") && byte != UInt8(ascii: "~") || byte == UInt8(ascii: "+")
        }
    }

    private static func isAuthority(_ bytes: ArraySlice<UInt8>) -> Bool {
        var host = bytes
        if let at = bytes.lastIndex(of: UInt8(ascii: "@")) {
            guard isPercentEncoded(bytes[..<at], where: { isUnreserved($0) || isSubDelimiter($0) || $0 == UInt8(ascii: ":") }) else { return false }
            host = bytes[(at + 1)...]
        }
        if host.first == UInt8(ascii: "[") {
            guard let close = host.firstIndex(of: UInt8(ascii: "]")) else { return false }
            let literal = host[(host.startIndex + 1)..<close]
            guard !literal.isEmpty, literal.allSatisfy({ isUnreserved($0) || isSubDelimiter($0) || $0 == UInt8(ascii: ":") }) else { return false }
            host = host[(close + 1)...]
            guard host.isEmpty || host.first == UInt8(ascii: ":") else { return false }
        }
        if let colon = host.lastIndex(of: UInt8(ascii: ":")) {
            // RFC 3986 allows an empty port and any number; libxml2 wants a digit after the
            // colon and a value that fits an `int`.
            let port = host[(colon + 1)...]
            guard !port.isEmpty else { return false }
            var value: Int32 = 0
            for byte in port {
                guard (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) else { return false }
                // Checked before it is computed, so a 32-bit `Int` cannot overflow either.
                let digit = Int32(byte - UInt8(ascii: "0"))
                guard value <= (Int32.max - digit) / 10 else { return false }
                value = value * 10 + digit
            }
            host = host[..<colon]
        }
        return isPercentEncoded(host) { isUnreserved($0) || isSubDelimiter($0) }
    }

    /// Every byte is allowed by `allowed` or starts a `%XX` escape.
    private static func isPercentEncoded(_ bytes: ArraySlice<UInt8>, where allowed: (UInt8) -> Bool) -> Bool {
        var index = bytes.startIndex
        while index < bytes.endIndex {
            if bytes[index] == UInt8(ascii: "%") {
                guard index + 2 < bytes.endIndex,
                      bytes[index + 1].isHexDigit, bytes[index + 2].isHexDigit else { return false }
                index += 3
                continue
            }
            guard allowed(bytes[index]) else { return false }
            index += 1
        }
        return true
    }
}

extension UInt8 {
    fileprivate var isHexDigit: Bool {
        (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(self) || (UInt8(ascii: "a")...UInt8(ascii: "f")).contains(self | 0x20)
    }
}
