import Checksums
import Foundation

/// Reads a `multipart/form-data` body into parts (RFC 7578 / RFC 2046 framing).
///
/// Written for the echo server apart from the library, which only writes multipart bodies;
/// delimiters are found with `Data.range(of:)`, so it stays fast in debug builds where a
/// byte-by-byte parser is not. The tests check it against multipart-kit's parser.
enum MultipartSplitter {
    static func parts(_ body: Data, boundary: String) throws -> [EchoReport.Part] {
        let delimiter = Data("--\(boundary)".utf8)
        let crlf = Data("\r\n".utf8)
        guard var cursor = body.range(of: delimiter)?.upperBound else {
            throw EchoServerError.malformed("the body has no \"--\(boundary)\" delimiter")
        }
        var parts: [EchoReport.Part] = []
        while true {
            // After a delimiter: "--" ends the body, CRLF starts a part.
            if body[cursor...].starts(with: Data("--".utf8)) { return parts }
            guard body[cursor...].starts(with: crlf) else { throw EchoServerError.malformed("a delimiter is not followed by CRLF") }
            cursor += 2
            guard let headerEnd = body.range(of: Data("\r\n\r\n".utf8), in: cursor..<body.endIndex)
                ?? (body[cursor...].starts(with: crlf) ? cursor..<cursor + 2 : nil) else {
                throw EchoServerError.malformed("part \(parts.count + 1) has no end to its headers")
            }
            let headerText = String(decoding: body[cursor..<headerEnd.lowerBound], as: UTF8.self)
            var headers: [EchoReport.Header] = []
            for line in headerText.components(separatedBy: "\r\n") where !line.isEmpty {
                guard let colon = line.firstIndex(of: ":") else { throw EchoServerError.malformed("a part header has no colon: \(line)") }
                headers.append(EchoReport.Header(
                    name: String(line[..<colon]),
                    value: line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)))
            }
            let bodyStart = headerEnd.upperBound
            guard let next = body.range(of: crlf + delimiter, in: bodyStart..<body.endIndex) else {
                throw EchoServerError.malformed("part \(parts.count + 1) has no closing delimiter")
            }
            var hasher = SHA256()
            body[bodyStart..<next.lowerBound].withUnsafeBytes { hasher.update($0) }
            let disposition = headers.first { $0.name.lowercased() == "content-disposition" }?.value ?? ""
            parts.append(EchoReport.Part(
                headers: headers, name: parameter("name", in: disposition), fileName: parameter("filename", in: disposition),
                size: next.lowerBound - bodyStart, sha256: hasher.hexDigest()))
            cursor = next.upperBound
        }
    }

    /// A quoted parameter of a Content-Disposition value.
    static func parameter(_ name: String, in value: String) -> String? {
        guard let range = value.range(of: "; \(name)=\"") else { return nil }
        let rest = value[range.upperBound...]
        return rest.firstIndex(of: "\"").map { String(rest[..<$0]) }
    }
}
