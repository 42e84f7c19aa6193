import Foundation

/// The method, URL and items of `httpser [METHOD] URL [ITEM ...]`, with HTTPie's shorthands
/// resolved.
struct CommandLineTarget: Equatable {
    /// The method as given, or nil when it is left to the data (GET without, POST with).
    var method: String?
    /// An absolute URL with a scheme, its user info removed.
    var url: String
    var items: [String]
    /// Credentials from the URL's user info, percent-decoded.
    var credentials: (user: String, password: String)?

    static func == (lhs: Self, rhs: Self) -> Bool {
        lhs.method == rhs.method && lhs.url == rhs.url && lhs.items == rhs.items
            && lhs.credentials?.user == rhs.credentials?.user && lhs.credentials?.password == rhs.credentials?.password
    }

    /// Splits the positional arguments as HTTPie does: the first is the method when it is
    /// letters only and something follows it, else it is the URL.
    init(arguments: [String], defaultScheme: String = "http") throws {
        guard let first = arguments.first else { throw RequestItemError(description: "a URL is required") }
        var rest = arguments.dropFirst()
        var given = first
        if rest.first != nil, !first.isEmpty, first.allSatisfy({ $0.isASCII && $0.isLetter }) {
            method = first.uppercased()
            given = rest.removeFirst()
        } else {
            method = nil
        }
        items = Array(rest)
        (url, credentials) = try Self.normalize(given, defaultScheme: defaultScheme)
    }

    /// `:3000/x` is `http://localhost:3000/x`, a URL without a scheme gets `http://`, user
    /// info moves out of the URL into credentials, and characters a URL cannot hold (spaces,
    /// non-ASCII) in the path, query and fragment are percent-encoded as HTTPie does.
    static func normalize(_ text: String, defaultScheme: String) throws -> (String, (user: String, password: String)?) {
        var url = text
        if url.hasPrefix(":") {
            let afterColon = url.dropFirst()
            let port = afterColon.prefix { $0.isASCII && $0.isNumber }
            let rest = afterColon.dropFirst(port.count)
            guard rest.isEmpty || rest.first == "/" || rest.first == "?" else {
                throw RequestItemError(description: "\"\(text)\" is not a URL (:PORT/path stands for http://localhost:PORT/path)")
            }
            url = "localhost" + (port.isEmpty ? "" : ":" + port) + rest
        }
        if !hasScheme(url) { url = defaultScheme + "://" + url }

        // Split scheme://authority from the rest, which may need escaping.
        guard let schemeEnd = url.range(of: "://") else { throw RequestItemError(description: "\"\(text)\" is not a URL") }
        let afterScheme = url[schemeEnd.upperBound...]
        let authorityEnd = afterScheme.firstIndex { $0 == "/" || $0 == "?" || $0 == "#" } ?? afterScheme.endIndex
        var authority = String(afterScheme[..<authorityEnd])
        var credentials: (user: String, password: String)?
        if let at = authority.lastIndex(of: "@") {
            let userInfo = authority[..<at]
            let (user, password) = userInfo.firstIndex(of: ":").map { (userInfo[..<$0], userInfo[userInfo.index(after: $0)...]) }
                ?? (userInfo, Substring(""))
            credentials = (String(user).removingPercentEncoding ?? String(user), String(password).removingPercentEncoding ?? String(password))
            authority = String(authority[authority.index(after: at)...])
        }
        let rest = escapeIllegal(afterScheme[authorityEnd...])
        return (String(url[..<schemeEnd.upperBound]) + authority + rest, credentials)
    }

    private static func hasScheme(_ url: String) -> Bool {
        guard let range = url.range(of: "://"), let first = url.first, first.isASCII, first.isLetter else { return false }
        return url[..<range.lowerBound].allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || "+-.".contains($0)) }
    }

    /// Percent-encodes the bytes that may not appear in a URL's path, query or fragment
    /// (brackets too, which Foundation's URL refuses there, and a `%` that starts no escape),
    /// leaving existing escapes and every other character alone.
    private static func escapeIllegal(_ text: Substring) -> String {
        let bytes = Array(text.utf8)
        var result = ""
        for (index, byte) in bytes.enumerated() {
            switch byte {
            case 0x25 where index + 2 < bytes.count && isHexDigit(bytes[index + 1]) && isHexDigit(bytes[index + 2]):
                result.append("%")  // an existing escape
            case 0x21, 0x23, 0x24, 0x26...0x3B, 0x3D, 0x3F...0x5A, 0x5F, 0x61...0x7A, 0x7E:
                result.append(Character(Unicode.Scalar(byte)))
            default:
                result += "%" + String(byte, radix: 16, uppercase: true).leftPadded(to: 2)
            }
        }
        return result
    }

    private static func isHexDigit(_ byte: UInt8) -> Bool {
        (0x30...0x39).contains(byte) || (0x41...0x46).contains(byte) || (0x61...0x66).contains(byte)
    }
}

private extension String {
    func leftPadded(to width: Int) -> String {
        count >= width ? self : String(repeating: "0", count: width - count) + self
    }
}
