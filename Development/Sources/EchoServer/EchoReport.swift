import Foundation

/// What the server saw, as it reports it: the request line, headers in order, how the body
/// was framed, its size and SHA-256, and the body parsed by code independent of the
/// library (its own form decoding and multipart splitting).
public struct EchoReport: Codable, Sendable, Equatable {
    public struct Header: Codable, Sendable, Equatable {
        public var name: String
        public var value: String
    }

    public struct Pair: Codable, Sendable, Equatable {
        public var name: String
        public var value: String
    }

    public struct Part: Codable, Sendable, Equatable {
        public var headers: [Header]
        public var name: String?
        public var fileName: String?
        public var size: Int
        public var sha256: String
    }

    public var method: String
    /// The request target as sent: path and query.
    public var target: String
    public var path: String
    /// The raw query, without `?`.
    public var query: String?
    /// The query decoded as a form (`+` and `%XX` decoded), in order.
    public var queryPairs: [Pair]
    public var headers: [Header]
    /// `content-length`, `chunked`, or `none`.
    public var framing: String
    public var bodySize: Int
    public var bodySHA256: String
    /// The body in Base64 when it is at most the server's report limit, else nil.
    public var body: String?
    /// Fields of an `application/x-www-form-urlencoded` body, in order.
    public var form: [Pair]?
    /// Parts of a `multipart/form-data` body, in order.
    public var parts: [Part]?

    /// The decoded body bytes, when the report carries them.
    public var bodyData: Data? { body.flatMap { Data(base64Encoded: $0) } }

    /// Every value of a header, matched case-insensitively.
    public func values(of name: String) -> [String] {
        headers.filter { $0.name.caseInsensitiveCompare(name) == .orderedSame }.map(\.value)
    }
}

/// Form decoding as browsers and servers do it, written here independently of the package:
/// pairs split on `&` and the first `=`, `+` as space, `%XX` as bytes.
enum FormDecoding {
    static func pairs(_ text: String) -> [EchoReport.Pair] {
        text.split(separator: "&", omittingEmptySubsequences: true).map { item in
            let parts = item.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            return EchoReport.Pair(name: decode(parts[0]), value: parts.count > 1 ? decode(parts[1]) : "")
        }
    }

    static func decode(_ text: Substring) -> String {
        var bytes: [UInt8] = []
        var iterator = Array(text.utf8).makeIterator()
        while let byte = iterator.next() {
            switch byte {
            case UInt8(ascii: "+"):
                bytes.append(UInt8(ascii: " "))
            case UInt8(ascii: "%"):
                let high = iterator.next(), low = iterator.next()
                if let high, let low, let value = UInt8(String(decoding: [high, low], as: UTF8.self), radix: 16) {
                    bytes.append(value)
                } else {
                    bytes.append(byte)
                    if let high { bytes.append(high) }
                    if let low { bytes.append(low) }
                }
            default:
                bytes.append(byte)
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }
}
