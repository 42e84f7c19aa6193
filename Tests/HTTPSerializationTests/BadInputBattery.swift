import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
#if canImport(FoundationXML)
import FoundationXML
#endif
import EchoServer
import Testing
@testable import HTTPSerialization
@testable import HTTPSerializationCodable
@testable import HTTPSerializationCore
@testable import HTTPSerializationFoundation
@testable import HTTPSerializationImages
@testable import HTTPSerializationXML

/// One bad input and the exact typed error it must produce: the error's case and its full
/// description (AFNetworking's words where it had any).
struct BadInput: Sendable, CustomTestStringConvertible {
    let name: String
    let errorCase: String
    let message: String
    let run: @Sendable () async throws -> Void

    var testDescription: String { name }

    init(_ name: String, _ errorCase: String, _ message: String, _ run: @escaping @Sendable () async throws -> Void) {
        self.name = name
        self.errorCase = errorCase
        self.message = message
        self.run = run
    }
}

private let plain = HTTPRequestSerializer(headers: HTTPHeaderFields())
private let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("httpser-battery")
private let lol = (1...9).map { level in
    "<!ENTITY lol\(level) \"" + String(repeating: "&lol\(level - 1);", count: 10) + "\">"
}.joined()
private let billionLaughs = Data(#"<?xml version="1.0"?><!DOCTYPE lolz [<!ENTITY lol0 "lol">"#.utf8) + Data(lol.utf8) + Data("]><lolz>&lol9;</lolz>".utf8)

private func file(_ name: String, _ contents: String) throws -> URL {
    try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
    let url = scratch.appendingPathComponent("\(UUID().uuidString)-\(name)")
    try Data(contents.utf8).write(to: url)
    return url
}

private func deep(_ levels: Int) -> ParameterValue {
    var value: ParameterValue = 1
    for _ in 0..<levels { value = [value] }
    return value
}

private struct User: Decodable { var name: String }

private struct FactoryFailure: Error, CustomStringConvertible {
    var description: String { "disk unplugged" }
}

@Suite("Bad-input battery: every bad input is an exact typed error")
struct BadInputBattery {
    static let cases: [BadInput] = [
        // URLs and methods
        BadInput("empty URL string", "invalidURL", #"The URL string "" is not a valid URL."#) { _ = try plain.request(method: "GET", urlString: "") },
        BadInput("URL with a space", "invalidURL", #"The URL string "http://a b/" is not a valid URL."#) { _ = try plain.request(method: "GET", urlString: "http://a b/") },
        BadInput("URL with an open IPv6 bracket", "invalidURL", #"The URL string "http://[::1" is not a valid URL."#) { _ = try plain.request(method: "GET", urlString: "http://[::1") },
        BadInput("URL with a control character", "invalidURL", "The URL string \"http://x/\u{1}\" is not a valid URL.") { _ = try plain.request(method: "GET", urlString: "http://x/\u{1}") },
        BadInput("method with a space", "invalidHTTPMethod", #"The HTTP method "GE T" is not a valid token."#) { _ = try plain.request(method: "GE T", urlString: "http://x") },
        BadInput("method with CRLF (request splitting)", "invalidHTTPMethod", "The HTTP method \"GET\r\nX: 1\" is not a valid token.") { _ = try plain.request(method: "GET\r\nX: 1", urlString: "http://x") },
        BadInput("empty method", "invalidHTTPMethod", #"The HTTP method "" is not a valid token."#) { _ = try plain.request(method: "", urlString: "http://x") },
        BadInput("custom query that is not URL-safe", "invalidURL", #"The URL string "http://x/?a b" is not a valid URL."#) {
            var serializer = plain
            serializer.queryStringSerialization = { _, _ in "a b" }
            _ = try serializer.request(method: "GET", urlString: "http://x", parameters: ["k": "v"])
        },
        // Headers
        BadInput("header value with CR LF (header injection)", "invalidHeaderField", #"The header field "X" is invalid: the value contains a carriage return (CR)."#) {
            var headers = HTTPHeaderFields(); try headers.setValue("a\r\nEvil: 1", forHTTPHeaderField: "X")
        },
        BadInput("header value with a bare LF", "invalidHeaderField", #"The header field "X" is invalid: the value contains a line feed (LF)."#) {
            var headers = HTTPHeaderFields(); try headers.setValue("a\nb", forHTTPHeaderField: "X")
        },
        BadInput("header value with NUL", "invalidHeaderField", #"The header field "X" is invalid: the value contains a NUL."#) {
            var headers = HTTPHeaderFields(); try headers.setValue("a\u{0}", forHTTPHeaderField: "X")
        },
        BadInput("header value with BEL", "invalidHeaderField", #"The header field "X" is invalid: the value contains a control character 0x7."#) {
            var headers = HTTPHeaderFields(); try headers.setValue("a\u{7}", forHTTPHeaderField: "X")
        },
        BadInput("header value with DEL", "invalidHeaderField", #"The header field "X" is invalid: the value contains a control character 0x7F."#) {
            var headers = HTTPHeaderFields(); try headers.setValue("a\u{7F}", forHTTPHeaderField: "X")
        },
        BadInput("empty header name", "invalidHeaderField", #"The header field "" is invalid: the name is empty."#) {
            var headers = HTTPHeaderFields(); try headers.setValue("v", forHTTPHeaderField: "")
        },
        BadInput("header name with a space", "invalidHeaderField", #"The header field "A B" is invalid: the name is not an RFC 9110 token."#) {
            var headers = HTTPHeaderFields(); try headers.setValue("v", forHTTPHeaderField: "A B")
        },
        BadInput("header name with a colon", "invalidHeaderField", #"The header field "A:B" is invalid: the name is not an RFC 9110 token."#) {
            var headers = HTTPHeaderFields(); try headers.setValue("v", forHTTPHeaderField: "A:B")
        },
        BadInput("header name with non-ASCII", "invalidHeaderField", #"The header field "Ä" is invalid: the name is not an RFC 9110 token."#) {
            var headers = HTTPHeaderFields(); try headers.setValue("v", forHTTPHeaderField: "Ä")
        },
        BadInput("archived header with CRLF", "invalidHeaderField", #"The header field "X" is invalid: the value contains a carriage return (CR)."#) {
            _ = try JSONDecoder().decode(HTTPRequestSerializer.self, from: Data(#"{"headers":[{"name":"X","value":"a\r\nb"}]}"#.utf8))
        },
        BadInput("Basic user name with a colon", "invalidCredentials", #"The credentials are invalid: a Basic user name cannot contain ":"."#) {
            var serializer = plain; try serializer.setAuthorizationHeader(username: "a:b", password: "c")
        },
        BadInput("Bearer token with a space", "invalidCredentials", "The credentials are invalid: a Bearer token is visible ASCII without spaces or control characters.") {
            var serializer = plain; try serializer.setAuthorizationHeader(bearerToken: "a b")
        },
        BadInput("empty Bearer token", "invalidCredentials", "The credentials are invalid: a Bearer token cannot be empty.") {
            var serializer = plain; try serializer.setAuthorizationHeader(bearerToken: "")
        },
        // Parameters
        BadInput("non-string dictionary key", "invalidParameter", "The parameter at the top level is invalid: dictionary key 42 is not a string.") {
            _ = try ParameterValue(any: [42: "v"])
        },
        BadInput("nested non-string key", "invalidParameter", "The parameter at `a.b` is invalid: dictionary key 1 is not a string.") {
            _ = try ParameterValue(any: ["a": ["b": [1: "x"]]] as [String: Any])
        },
        BadInput("object with no parameter form", "invalidParameter", "The parameter at `x[1]` is invalid: a value of type NSObject has no parameter form.") {
            _ = try ParameterValue(any: ["x": [1, NSObject()]] as [String: Any])
        },
        BadInput("Foundation graph nested past the limit", "nestingTooDeep", "The parameters are nested more than 3 levels deep at `[0][0][0]`.") {
            _ = try ParameterValue(any: [[[[1]]]], maximumDepth: 3)
        },
        BadInput("Encodable nested past the limit", "nestingTooDeep", "The parameters are nested more than 2 levels deep at `[0][0][0]`.") {
            _ = try ParameterValue(encoding: [[[1]]], maximumDepth: 2)
        },
        BadInput("Encodable that encodes nothing", "invalidParameter", "The parameter at the top level is invalid: Silent did not encode any value.") {
            struct Silent: Encodable { func encode(to encoder: any Encoder) throws {} }
            _ = try ParameterValue(encoding: Silent())
        },
        BadInput("query parameters past the depth limit", "nestingTooDeep", "The parameters are nested more than 512 levels deep at the top level.") {
            _ = try plain.request(method: "GET", urlString: "http://x", parameters: deep(600))
        },
        // JSON and property-list requests
        BadInput("NaN in JSON", "invalidJSONParameters", "The `parameters` argument is not valid JSON. The value at `x` is invalid: nan is not a JSON number.") {
            _ = try JSONRequestSerializer(base: plain).request(method: "POST", urlString: "http://x", parameters: ["x": .double(.nan)])
        },
        BadInput("infinity in JSON", "invalidJSONParameters", "The `parameters` argument is not valid JSON. The value at `x` is invalid: inf is not a JSON number.") {
            _ = try JSONRequestSerializer(base: plain).request(method: "POST", urlString: "http://x", parameters: ["x": .double(.infinity)])
        },
        BadInput("a set in JSON", "invalidJSONParameters", "The `parameters` argument is not valid JSON. The value at `s` is invalid: a set has no JSON form; use an array.") {
            _ = try JSONRequestSerializer(base: plain).request(method: "POST", urlString: "http://x", parameters: ["s": .set([1])])
        },
        BadInput("binary data in JSON", "invalidJSONParameters", "The `parameters` argument is not valid JSON. The value at `d` is invalid: binary data has no JSON form; encode it as a string first.") {
            _ = try JSONRequestSerializer(base: plain).request(method: "POST", urlString: "http://x", parameters: ["d": .data(Data([1]))])
        },
        BadInput("a date in JSON", "invalidJSONParameters", "The `parameters` argument is not valid JSON. The value at `t` is invalid: a date has no JSON form; encode it as a string or number first.") {
            _ = try JSONRequestSerializer(base: plain).request(method: "POST", urlString: "http://x", parameters: ["t": .date(Date())])
        },
        BadInput("top-level JSON scalar without fragments", "invalidJSONParameters", "The `parameters` argument is not valid JSON. A top-level scalar needs the .fragmentsAllowed writing option.") {
            _ = try JSONRequestSerializer(base: plain).request(method: "POST", urlString: "http://x", parameters: 1)
        },
        BadInput("JSON body past the depth limit", "nestingTooDeep", "The parameters are nested more than 512 levels deep at the top level.") {
            _ = try JSONRequestSerializer(base: plain).request(method: "POST", urlString: "http://x", parameters: deep(513))
        },
        BadInput("null in a property list", "invalidPropertyListParameters", "The `parameters` argument is not a valid property list. The value at `n` is invalid: property lists have no null.") {
            _ = try PropertyListRequestSerializer(base: plain).request(method: "POST", urlString: "http://x", parameters: ["n": nil])
        },
        BadInput("a set in a property list", "invalidPropertyListParameters", "The `parameters` argument is not a valid property list. The value at `s` is invalid: a set has no property list form; use an array.") {
            _ = try PropertyListRequestSerializer(base: plain).request(method: "POST", urlString: "http://x", parameters: ["s": .set([1])])
        },
        BadInput("OpenStep property list output (Foundation crashes)", "invalidPropertyListParameters", "The `parameters` argument is not a valid property list. Only the XML and binary formats can be written.") {
            _ = try PropertyListRequestSerializer(base: plain, format: .openStep).request(method: "POST", urlString: "http://x", parameters: ["a": 1])
        },
        BadInput("text the string encoding cannot hold", "stringEncodingFailed", "The text cannot be represented in \(String.Encoding.ascii).") {
            var serializer = plain
            serializer.stringEncoding = .ascii
            serializer.queryStringSerialization = { _, _ in "é" }
            _ = try serializer.request(method: "POST", urlString: "http://x", parameters: [:])
        },
        // Multipart
        BadInput("empty boundary", "invalidBoundary", #"The multipart boundary "" is invalid: it must be 1 to 70 characters long."#) { _ = try MultipartFormData(boundary: "") },
        BadInput("71-character boundary", "invalidBoundary", "The multipart boundary \"\(String(repeating: "b", count: 71))\" is invalid: it must be 1 to 70 characters long.") {
            _ = try MultipartFormData(boundary: String(repeating: "b", count: 71))
        },
        BadInput("boundary with a semicolon", "invalidBoundary", #"The multipart boundary "a;b" is invalid: ";" is not allowed in a boundary."#) { _ = try MultipartFormData(boundary: "a;b") },
        BadInput("boundary with CR", "invalidBoundary", "The multipart boundary \"a\rb\" is invalid: byte 0xD is not allowed in a boundary.") { _ = try MultipartFormData(boundary: "a\rb") },
        BadInput("boundary ending in a space", "invalidBoundary", #"The multipart boundary "ab " is invalid: it must not end with a space."#) { _ = try MultipartFormData(boundary: "ab ") },
        BadInput("part MIME type with CRLF", "invalidHeaderField", #"The header field "Content-Type" is invalid: the value contains a carriage return (CR)."#) {
            var form = MultipartFormData(); try form.appendPart(fileData: Data(), name: "f", fileName: "f", mimeType: "a\r\nb")
        },
        BadInput("part name with a control character", "invalidHeaderField", #"The header field "Content-Disposition" is invalid: the value contains a control character 0x1B."#) {
            var form = MultipartFormData(); try form.appendPart(formData: Data(), name: "a\u{1B}[31m")
        },
        BadInput("file part from a web URL", "multipartSourceUnavailable", #"The source of part 1 "f" (x) cannot be read: https://example.com/x is not a file URL."#) {
            var form = MultipartFormData(); try form.appendPart(fileURL: URL(string: "https://example.com/x")!, name: "f")
        },
        BadInput("file part from a missing file", "multipartSourceUnavailable", #"The source of part 1 "f" (missing.bin) cannot be read: /nonexistent-httpser/missing.bin does not exist or cannot be read."#) {
            var form = MultipartFormData(); try form.appendPart(fileURL: URL(fileURLWithPath: "/nonexistent-httpser/missing.bin"), name: "f")
        },
        BadInput("file part from a directory", "multipartSourceUnavailable", #"The source of part 1 "f" (tmp) cannot be read: /tmp is a directory."#) {
            var form = MultipartFormData(); try form.appendPart(fileURL: URL(fileURLWithPath: "/tmp"), name: "f")
        },
        BadInput("GET with a multipart body", "multipartMethodNotAllowed", "A multipart body cannot be sent with GET.") {
            _ = try plain.multipartFormRequest(method: "GET", urlString: "http://x")
        },
        BadInput("HEAD with a multipart body", "multipartMethodNotAllowed", "A multipart body cannot be sent with HEAD.") {
            _ = try plain.multipartFormRequest(method: "HEAD", urlString: "http://x")
        },
        BadInput("stream shorter than declared", "multipartLengthMismatch", #"The source of part 1 "s" (s) ended after 3 of its declared 10 bytes."#) {
            var form = try MultipartFormData(boundary: "b")
            try form.appendPart(streamFactory: { InputStream(data: Data("abc".utf8)) }, name: "s", fileName: "s", length: 10, mimeType: "x/y")
            _ = try form.encodedData()
        },
        BadInput("stream longer than declared", "multipartLengthMismatch", #"The source of part 1 "s" (s) holds 3 bytes or more, past its declared 2."#) {
            var form = try MultipartFormData(boundary: "b")
            try form.appendPart(streamFactory: { InputStream(data: Data("abc".utf8)) }, name: "s", fileName: "s", length: 2, mimeType: "x/y")
            _ = try form.encodedData()
        },
        BadInput("single-use stream read twice", "multipartStreamAlreadyConsumed", #"The input stream of part 1 "s" (s) was already read; append a stream factory to replay a body."#) {
            var form = try MultipartFormData(boundary: "b")
            try form.appendPart(inputStream: InputStream(data: Data("ab".utf8)), name: "s", fileName: "s", length: 2, mimeType: "x/y")
            _ = try form.encodedData()
            _ = try form.encodedData()
        },
        BadInput("stream factory that throws", "multipartSourceUnavailable", #"The source of part 1 "s" (s) cannot be read: the stream factory failed: disk unplugged."#) {
            var form = try MultipartFormData(boundary: "b")
            try form.appendPart(streamFactory: { throw FactoryFailure() }, name: "s", fileName: "s", length: 1, mimeType: "x/y")
            _ = try form.encodedData()
        },
        BadInput("file that grew after it was appended", "multipartLengthMismatch", #"The source of part 1 "f" (grow.txt) holds 6 bytes or more, past its declared 3."#) {
            let url = try file("grow.txt", "abc")
            var form = try MultipartFormData(boundary: "b")
            try form.appendPart(fileURL: url, name: "f", fileName: "grow.txt", mimeType: "text/plain")
            try Data("abcdef".utf8).write(to: url)
            _ = try form.encodedData()
        },
        BadInput("file that shrank after it was appended", "multipartLengthMismatch", #"The source of part 1 "f" (shrink.txt) ended after 1 of its declared 3 bytes."#) {
            let url = try file("shrink.txt", "abc")
            var form = try MultipartFormData(boundary: "b")
            try form.appendPart(fileURL: url, name: "f", fileName: "shrink.txt", mimeType: "text/plain")
            try Data("a".utf8).write(to: url)
            _ = try form.encodedData()
        },
        BadInput("writing a body into a missing folder", "fileWriteFailed", #"Writing "/nonexistent-httpser/body.bin" failed: No such file or directory."#) {
            var form = try MultipartFormData(boundary: "b")
            try form.appendPart(formData: Data("x".utf8), name: "x")
            try await form.writeEncodedBody(to: URL(fileURLWithPath: "/nonexistent-httpser/body.bin"))
        },
        BadInput("writing a request without a body stream", "multipartSourceUnavailable", "The source of the request body cannot be read: the request has no body stream.") {
            _ = try await plain.request(withMultipartFormRequest: URLRequest(url: URL(string: "http://x")!), writingStreamContentsTo: scratch.appendingPathComponent("b"))
        },
        // Responses
        BadInput("status 500", "unacceptableStatusCode", "Request failed: internal server error (500)") {
            try HTTPResponseSerializer().validate(resp(500, "text/html"), data: Data("oops".utf8))
        },
        BadInput("status 404 with JSON", "unacceptableStatusCode", "Request failed: not found (404)") {
            _ = try JSONResponseSerializer().responseObject(for: resp(404, "application/json"), data: Data("{}".utf8))
        },
        BadInput("HTML where JSON is expected", "unacceptableContentType", "Request failed: unacceptable content-type: text/html") {
            _ = try JSONResponseSerializer().responseObject(for: resp(200, "text/html"), data: Data("<html>".utf8))
        },
        BadInput("a body with no content type", "unacceptableContentType", "Request failed: unacceptable content-type: (none)") {
            _ = try JSONResponseSerializer().responseObject(for: resp(200), data: Data("{}".utf8))
        },
        BadInput("malformed JSON", "unreadableJSON", "The response is not valid JSON: found \"}\" where a value was expected (byte 5).") {
            _ = try JSONResponseSerializer().responseObject(for: resp(200, "application/json"), data: Data(#"{"a":}"#.utf8))
        },
        BadInput("JSON with a trailing comma", "unreadableJSON", "The response is not valid JSON: found \"]\" where a value was expected (byte 5).") {
            _ = try JSONResponseSerializer().responseObject(for: resp(200, "application/json"), data: Data("[1,2,]".utf8))
        },
        BadInput("JSON nested 100,000 deep", "unreadableJSON", "The response is not valid JSON: it is nested more than 512 levels deep (byte 512).") {
            _ = try JSONResponseSerializer().responseObject(for: resp(200, "application/json"), data: Data(String(repeating: "[", count: 100_000).utf8))
        },
        BadInput("JSON with invalid UTF-8", "unreadableJSON", "The response is not valid JSON: the bytes are not valid in its encoding (byte 1).") {
            _ = try JSONResponseSerializer().responseObject(for: resp(200, "application/json"), data: Data([0x22, 0xFF, 0xFE, 0x22]))
        },
        BadInput("JSON with a lone surrogate escape", "unreadableJSON", "The response is not valid JSON: a string escapes half of a surrogate pair (byte 2).") {
            _ = try JSONResponseSerializer().responseObject(for: resp(200, "application/json"), data: Data(#"["\uDEAD"]"#.utf8))
        },
        BadInput("JSON with a raw tab in a string", "unreadableJSON", "The response is not valid JSON: a string holds a raw control character (byte 3).") {
            _ = try JSONResponseSerializer().responseObject(for: resp(200, "application/json"), data: Data("[\"a\tb\"]".utf8))
        },
        BadInput("JSON with an invalid escape", "unreadableJSON", "The response is not valid JSON: a string holds an invalid escape (byte 2).") {
            _ = try JSONResponseSerializer().responseObject(for: resp(200, "application/json"), data: Data(#"["\q"]"#.utf8))
        },
        BadInput("JSON with a number no type holds", "unreadableJSON", "The response is not valid JSON: a number is too large for any number type (byte 1).") {
            _ = try JSONResponseSerializer().responseObject(for: resp(200, "application/json"), data: Data("[1e400]".utf8))
        },
        BadInput("JSON with a leading zero", "unreadableJSON", "The response is not valid JSON: a number is not written as JSON allows (byte 2).") {
            _ = try JSONResponseSerializer().responseObject(for: resp(200, "application/json"), data: Data("[01]".utf8))
        },
        BadInput("JSON cut short", "unreadableJSON", "The response is not valid JSON: it ends where \",\" or \"}\" was expected (byte 9).") {
            _ = try JSONResponseSerializer().responseObject(for: resp(200, "application/json"), data: Data(#"{"a": [1]"#.utf8))
        },
        BadInput("JSON with data after the value", "unreadableJSON", "The response is not valid JSON: more follows the value (byte 3).") {
            _ = try JSONResponseSerializer().responseObject(for: resp(200, "application/json"), data: Data("{} x".utf8))
        },
        BadInput("JSON scalar without fragments", "responseSerializationFailed", "The response is not valid JSON: a top-level scalar needs the .fragmentsAllowed reading option.") {
            _ = try JSONResponseSerializer().responseObject(for: resp(200, "application/json"), data: Data("42".utf8))
        },
        BadInput("Decodable with an empty 200 body", "responseSerializationFailed", "The response body is empty, but a value of type User was expected.") {
            _ = try DecodableResponseSerializer(User.self).responseObject(for: resp(200, "application/json"), data: Data())
        },
        BadInput("Decodable empty 204 for a non-optional type", "responseSerializationFailed", "An empty response cannot be represented as User; use an Optional or EmptyResponse.") {
            _ = try DecodableResponseSerializer(User.self).responseObject(for: resp(204), data: nil)
        },
        BadInput("empty XML document", "responseSerializationFailed", "The response has no XML document.") {
            _ = try XMLDocumentResponseSerializer().responseObject(for: resp(200, "application/xml"), data: Data())
        },
        BadInput("truncated XML", "unreadableBody(XMLReadingError)", "The XML document is refused at byte 4: it is not well-formed: an unterminated start tag <foo>.") {
            _ = try XMLDocumentResponseSerializer().responseObject(for: resp(200, "application/xml"), data: Data("<foo".utf8))
        },
        BadInput("XML with mismatched tags", "unreadableBody(XMLReadingError)", "The XML document is refused at byte 10: it is not well-formed: the end tag </a> does not match <b>.") {
            _ = try XMLDocumentResponseSerializer().responseObject(for: resp(200, "application/xml"), data: Data("<a><b></a></b>".utf8))
        },
        BadInput("billion laughs", "unreadableBody(XMLReadingError)", "The XML document is refused at byte 37: it declares entities, which the reading policy does not allow.") {
            _ = try XMLDocumentResponseSerializer().responseObject(for: resp(200, "application/xml"), data: billionLaughs)
        },
        BadInput("XML with an unknown encoding", "unreadableBody(XMLReadingError)", #"The XML document is refused: it declares the unsupported encoding "x-bogus"."#) {
            _ = try XMLParserResponseSerializer().responseObject(for: resp(200, "application/xml"), data: Data(#"<?xml version="1.0" encoding="x-bogus"?><a/>"#.utf8))
        },
        BadInput("XML with invalid UTF-8", "unreadableBody(XMLReadingError)", "The XML document is refused at byte 2: its bytes are not valid UTF-8.") {
            _ = try XMLParserResponseSerializer().responseObject(for: resp(200, "application/xml"), data: Data([0x3C, 0x61, 0xD9, 0x3E, 0x3C, 0x2F, 0x61, 0x3E]))
        },
        BadInput("a bare word as a property list", "unreadableBody(PropertyListReadingError)", "The property list is refused: it is not an XML or binary property list.") {
            _ = try PropertyListResponseSerializer().responseObject(for: resp(200, "application/x-plist"), data: Data("hello".utf8))
        },
        BadInput("JSON as a property list", "unreadableBody(PropertyListReadingError)", "The property list is refused: it is not an XML or binary property list.") {
            _ = try PropertyListResponseSerializer().responseObject(for: resp(200, "application/x-plist"), data: Data(#"{"a":1}"#.utf8))
        },
        BadInput("a malformed XML property list", "unreadableBody(PropertyListReadingError)", "The property list is refused at byte 33: the XML form is invalid: it is not well-formed: the end tag </plist> does not match <dict>.") {
            _ = try PropertyListResponseSerializer().responseObject(for: resp(200, "application/x-plist"), data: Data("<plist><dict><key>a</key></plist>".utf8))
        },
        BadInput("decompression bomb", "unreadableBody(ImageReadingError)", "The image is 100000 × 100000 pixels, more than the 16777216 allowed.") {
            var bomb = PNGWriter.png(width: 1, height: 1) { _, _ in [0, 0, 0, 0] }
            bomb.replaceSubrange(16..<24, with: [0, 1, 0x86, 0xA0, 0, 1, 0x86, 0xA0])
            _ = try ImageResponseSerializer().responseObject(for: resp(200, "image/png"), data: bomb)
        },
        BadInput("truncated PNG", "unreadableBody(ImageReadingError)", "The PNG image could not be decoded: the PNG data ends early.") {
            let png = PNGWriter.png(width: 8, height: 8) { x, y in [UInt8(x), UInt8(y), 0, 255] }
            _ = try ImageResponseSerializer().responseObject(for: resp(200, "image/png"), data: png.prefix(60))
        },
        BadInput("text served as an image", "unreadableBody(ImageReadingError)", "The response is not a supported image.") {
            _ = try ImageResponseSerializer().responseObject(for: resp(200, "image/png"), data: Data("not an image".utf8))
        },
        // The independent battery's holes (hostile-input issue), each with its exact error.
        BadInput("a processing instruction made by an entity", "unreadableBody(XMLReadingError)",
                 "The XML document is refused at byte 13: it declares entities, which the reading policy does not allow.") {
            _ = try XMLDocumentResponseSerializer().responseObject(
                for: resp(200, "application/xml"), data: Data(#"<!DOCTYPE r [<!ENTITY e "&#60;?pi?&#62;">]><r>&e;</r>"#.utf8))
        },
        BadInput("8-bit bytes labelled UTF-16", "unreadableBody(XMLReadingError)",
                 #"The XML document is refused at byte 0: its encoding is inconsistent: the declaration says "utf-16", but the bytes are 8-bit."#) {
            _ = try XMLParserResponseSerializer().responseObject(
                for: resp(200, "application/xml"), data: Data(#"<?xml version="1.0" encoding="UTF-16"?><a"#.utf8) + Data([0xE9]) + Data("b/>".utf8))
        },
        BadInput("one entity referenced 100,000 times (allowed entities)", "unreadableBody(XMLReadingError)",
                 "The XML document is refused at byte 100080: its entities expand past the 1600144-byte budget.") {
            var policy = XMLReadingPolicy()
            policy.allowsEntityDeclarations = true
            let data = Data(("<!DOCTYPE r [<!ENTITY e \"" + String(repeating: "x", count: 100_000) + "\">]><r>"
                             + String(repeating: "&e;", count: 100_000) + "</r>").utf8)
            _ = try XMLDocumentResponseSerializer(readingPolicy: policy).responseObject(for: resp(200, "application/xml"), data: data)
        },
        BadInput("40,000 attributes on one element", "unreadableBody(XMLReadingError)", "The XML document is refused at byte 2205: an element has more than 256 attributes.") {
            let data = Data(("<r" + (0..<40_000).map { " a\($0)=\"1\"" }.joined() + "/>").utf8)
            _ = try XMLParserResponseSerializer().responseObject(for: resp(200, "application/xml"), data: data)
        },
        BadInput("a binary property list that contains itself", "unreadableBody(PropertyListReadingError)", "The property list is refused: an object contains itself.") {
            _ = try PropertyListResponseSerializer().responseObject(for: resp(200, "application/x-plist"), data: BinaryPlist.file([BinaryPlist.array([0])]))
        },
        BadInput("invalid Base64 in <data>", "unreadableBody(PropertyListReadingError)", "The property list is refused: a value is invalid: <data> that is not valid Base64.") {
            _ = try PropertyListResponseSerializer().responseObject(
                for: resp(200, "application/x-plist"), data: Data("<plist version=\"1.0\"><data>AAAA!!!!BBBB</data></plist>".utf8))
        },
        BadInput("a handed-in request whose method splits the request", "invalidHTTPMethod", "The HTTP method \"GET\r\nX: 1\" is not a valid token.") {
            var request = URLRequest(url: URL(string: "http://x/")!)
            request.httpMethod = "GET\r\nX: 1"
            _ = try JSONRequestSerializer().serialize(request, parameters: ["a": 1])
        },
        BadInput("a part body holding the boundary delimiter", "multipartBoundaryInBody",
                 "The body of part 1 \"note\" contains the multipart boundary delimiter, which would end the part early.") {
            var form = try MultipartFormData(boundary: "B")
            try form.appendPart(formData: Data("x\r\n--B\r\nContent-Disposition: form-data; name=\"is_admin\"\r\n\r\ntrue".utf8), name: "note")
        },
    ]

    @Test("bad input", arguments: cases)
    func badInput(_ input: BadInput) async {
        do {
            try await input.run()
            Issue.record("\(input.name) was accepted")
        } catch let error as any HTTPSerializationError {
            var errorCase = Mirror(reflecting: error).children.first?.label ?? "\(error)"
            if case ResponseSerializationError.unreadableBody(let refusal, _) = error { errorCase += "(\(type(of: refusal)))" }
            #expect(errorCase == input.errorCase)
            #expect(error.localizedDescription == input.message)
        } catch {
            Issue.record("\(input.name) threw an untyped error: \(error)")
        }
    }

    @Test("the battery is at least 60 cases")
    func size() {
        #expect(Self.cases.count >= 60)
    }

    @Test("a redirect that may drop a request's body is a typed error for URLSession's helper", arguments: [307, 308, 302])
    func redirectedBody(status: Int) async throws {
        let server = try await EchoServer.start()
        let base = server.baseURL.absoluteString
        let session = URLSession(configuration: .ephemeral)
        let expected = TransportError.redirectedWithBody(url: base + "/redirect?status=\(status)&to=/echo", to: base + "/echo")
        var form2 = URLRequest(url: URL(string: base + "/redirect?status=\(status)&to=/echo")!)
        form2.httpMethod = "POST"
        form2.httpBody = Data("a=1".utf8)
        await #expect(throws: expected) { try await session.response(for: form2, serializer: HTTPResponseSerializer()) }
        let allowed = try await session.response(for: form2, serializer: DecodableResponseSerializer(EchoReport.self), allowsRedirectedBodies: true)
        #expect(allowed.output.path == "/echo")
        try await server.stop()
    }

    @Test("huge request headers are refused by the echo server, not accepted or crashed on")
    func hugeHeaders() async throws {
        let server = try await EchoServer.start()
        var request = URLRequest(url: server.baseURL.appendingPathComponent("echo"))
        request.setValue(String(repeating: "h", count: 200_000), forHTTPHeaderField: "X-Huge")
        let status: Int?
        do {
            let (_, response) = try await URLSession(configuration: .ephemeral).data(for: request)
            status = (response as? HTTPURLResponse)?.statusCode
        } catch {
            status = nil  // the server closed the connection: refused as well
        }
        #expect(status == nil || (400..<500).contains(status!))
        // The server is still serving afterwards.
        let (_, after) = try await URLSession(configuration: .ephemeral).data(from: server.baseURL.appendingPathComponent("json"))
        #expect((after as? HTTPURLResponse)?.statusCode == 200)
        try await server.stop()
    }

    @Test("the echo server refuses a body over its limit with 413 and the reason")
    func echoBodyLimit() async throws {
        let server = try await EchoServer.start(maximumBodySize: 1000)
        var request = URLRequest(url: server.baseURL.appendingPathComponent("echo"))
        request.httpMethod = "POST"
        request.httpBody = Data(count: 5000)
        let (data, response) = try await URLSession(configuration: .ephemeral).data(for: request)
        try await server.stop()
        #expect((response as? HTTPURLResponse)?.statusCode == 413)
        #expect(String(decoding: data, as: UTF8.self).contains("exceeds the 1000-byte limit"))
    }

    @Test("the echo server answers a malformed multipart body with 400 and the reason")
    func echoMalformedMultipart() async throws {
        let server = try await EchoServer.start()
        var request = URLRequest(url: server.baseURL.appendingPathComponent("upload"))
        request.httpMethod = "POST"
        request.setValue("multipart/form-data; boundary=zz", forHTTPHeaderField: "Content-Type")
        request.httpBody = Data("--zz\r\nContent-Disposition: form-data; name=\"a\"\r\n\r\nno closing delimiter".utf8)
        let (data, response) = try await URLSession(configuration: .ephemeral).data(for: request)
        try await server.stop()
        #expect((response as? HTTPURLResponse)?.statusCode == 400)
        #expect(String(decoding: data, as: UTF8.self) == "malformed multipart body: The multipart body ended inside part 1 (\"a\"), before its closing boundary.\n")
    }
}
