import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
#if canImport(FoundationXML)
import FoundationXML
#endif
import HTTPTypes
import Testing
@testable import HTTPSerialization
@testable import HTTPSerializationCodable
@testable import HTTPSerializationCore
@testable import HTTPSerializationFoundation
@testable import HTTPSerializationImages
@testable import HTTPSerializationXML

@Suite("swift-http-types: responses")
struct HTTPTypesResponseTests {
    private struct User: Decodable, Equatable { var name: String }

    /// Status, content type and body of each case, covering success, every validation
    /// failure and every decoding failure the serializers have.
    static let cases: [(Int, String?, Data)] = [
        (200, "application/json", Data(#"{"name":"bang","null":null}"#.utf8)),
        (200, "application/json; charset=utf-8", Data(#"[1,2]"#.utf8)),
        (404, "application/json", Data(#"{"error":"missing"}"#.utf8)),
        (500, "text/html", Data("<h1>oops</h1>".utf8)),
        (200, "application/json", Data("{".utf8)),
        (200, nil, Data()),
        (200, nil, Data("x".utf8)),
        (204, "application/json", Data()),
        (200, "text/xml", xmlFoo),
        (200, "application/xml", Data("<foo".utf8)),
        (200, "application/x-plist", Data(#"<?xml version="1.0"?><plist version="1.0"><dict><key>a</key><integer>1</integer></dict></plist>"#.utf8)),
        (200, "image/png", ImageFixtures.png(width: 2, height: 1) { _, _ in [1, 2, 3, 255] }),
        (200, "image/png", Data("not an image".utf8)),
    ]

    private func head(_ code: Int, _ contentType: String?) -> HTTPResponse {
        var fields = HTTPFields()
        if let contentType { fields[.contentType] = contentType }
        return HTTPResponse(status: .init(code: code), headerFields: fields)
    }

    /// Both forms succeed with the same output (as `describe` renders it) or fail with the
    /// same error.
    private func expectSameOutcome<Serializer: ResponseSerializer>(
        _ serializer: Serializer, describe: (Serializer.Output) -> String, sourceLocation: SourceLocation = #_sourceLocation
    ) {
        for (code, contentType, body) in Self.cases {
            let viaFoundation = Result { try serializer.responseObject(for: resp(code, contentType), data: body) }
            let viaHTTPTypes = Result { try serializer.responseObject(for: head(code, contentType), data: body) }
            switch (viaFoundation, viaHTTPTypes) {
            case (.success(let a), .success(let b)):
                #expect(describe(a) == describe(b), "\(code) \(contentType ?? "-")", sourceLocation: sourceLocation)
            case (.failure(let a as ResponseSerializationError), .failure(let b as ResponseSerializationError)):
                #expect(a == b, "\(code) \(contentType ?? "-")", sourceLocation: sourceLocation)
            default:
                Issue.record("\(code) \(contentType ?? "-"): \(viaFoundation) against \(viaHTTPTypes)", sourceLocation: sourceLocation)
            }
        }
    }

    /// Foundation graphs as JSON with sorted keys, so dictionary order does not matter.
    private static func sortedDescription(_ output: Any?) -> String {
        guard let output else { return "nil" }
        if let tree = try? ParameterValue(any: output), let json = try? tree.jsonData(options: [.sortedKeys, .fragmentsAllowed]) {
            return String(decoding: json, as: UTF8.self)
        }
        return String(describing: output)
    }

    @Test("every response serializer gives the same output or error for an HTTPResponse as for an HTTPURLResponse")
    func formsAgree() {
        expectSameOutcome(HTTPResponseSerializer()) { "\(String(describing: $0))" }
        expectSameOutcome(JSONResponseSerializer(), describe: Self.sortedDescription)
        expectSameOutcome(JSONResponseSerializer(removesKeysWithNullValues: true), describe: Self.sortedDescription)
        expectSameOutcome(DecodableResponseSerializer(User.self)) { "\($0)" }
        expectSameOutcome(DecodableResponseSerializer(User?.self)) { "\(String(describing: $0))" }
        expectSameOutcome(PropertyListResponseSerializer(), describe: Self.sortedDescription)
        expectSameOutcome(XMLParserResponseSerializer()) { $0 == nil ? "nil" : "parser" }
        #if os(macOS) || canImport(FoundationXML)
        expectSameOutcome(XMLDocumentResponseSerializer()) { $0.xmlString }
        #endif
        expectSameOutcome(ImageResponseSerializer()) { $0 == nil ? "nil" : "image" }
        expectSameOutcome(
            CompoundResponseSerializer([AnyResponseSerializer(JSONResponseSerializer()), AnyResponseSerializer(ImageResponseSerializer())]),
            describe: Self.sortedDescription)
    }

    @Test("an error from an HTTPResponse carries that response and the body")
    func errorsCarryTheResponse() {
        let response = head(404, "application/json")
        let body = Data(#"{"error":"missing"}"#.utf8)
        #expect(throws: ResponseSerializationError.unacceptableStatusCode(
            404, response: ResponseContext(response: response, data: body, decodedBody: ["error": "missing"]))) {
            try JSONResponseSerializer().responseObject(for: response, data: body)
        }
    }

    @Test("a HEAD request's empty response decodes when the method is given with the HTTPResponse")
    func headResponsesAreEmpty() throws {
        let response = head(200, "application/json")
        #expect(try DecodableResponseSerializer(EmptyResponse.self).responseObject(for: response, data: Data(), requestMethod: .head) == EmptyResponse())
        #expect(throws: ResponseSerializationError.self) {
            try DecodableResponseSerializer(EmptyResponse.self).responseObject(for: response, data: Data(), requestMethod: .get)
        }
    }

    @Test("Content-Type is read as RFC 9110 has it: type case-insensitive, spaces around, charset in any case or quoted")
    func contentTypeParsing() throws {
        var serializer = HTTPResponseSerializer(acceptableContentTypes: ["text/html"])
        serializer.contentTypeMatching.acceptableCharsets = ["utf-8"]
        for accepted in ["text/html", "Text/HTML", " text/html ;charset=\"utf-8\"", "text/html; Charset=UTF-8", "text/html\t;\tcharset=utf-8;format=x"] {
            #expect(throws: Never.self, "\(accepted)") { try serializer.validate(ResponseContext(response: head(200, accepted), data: Data("x".utf8))) }
        }
        for refused in ["text/html; charset=latin1", "text/plain", ";charset=utf-8", "text/html,application/json"] {
            #expect(throws: ResponseSerializationError.self, "\(refused)") {
                try serializer.validate(ResponseContext(response: head(200, refused), data: Data("x".utf8)))
            }
        }
        // Two Content-Type fields read as HTTPFields joins them, which no single type matches.
        var twice = HTTPFields()
        twice.append(HTTPField(name: .contentType, value: "text/html"))
        twice.append(HTTPField(name: .contentType, value: "text/html"))
        let doubled = ResponseContext(response: HTTPResponse(status: .ok, headerFields: twice), data: Data("x".utf8))
        #expect(doubled.contentType?.mimeType == "text/html, text/html")
        #expect(throws: ResponseSerializationError.self) { try serializer.validate(doubled) }
        let quoted = try #require(ContentTypeField("A/B; x=\"1;2\"; charset=\"q\\\"x\""))
        #expect(quoted.mimeType == "a/b")
        #expect(quoted.charset == "q\"x")
        #expect(ContentTypeField("") == nil)
        #expect(ContentTypeField(" \t") == nil)
        #expect(ContentTypeField(" ; ;") == nil)
        // Parameters alone say something; non-ASCII letters lower-case as `lowercased()` has them.
        #expect(ContentTypeField(";charset=utf-8").map { [$0.mimeType, $0.charset] } == ["", "utf-8"])
        #expect(ContentTypeField("TEXT/ÄÖ ; CHARSET= \"UTF-8\" ").map { [$0.mimeType, $0.charset] } == ["text/äö", "UTF-8"])
        // A quote never closed keeps its text; a `;` inside quotes splits nothing.
        #expect(ContentTypeField("text/html; charset=\"utf-8").map { [$0.mimeType, $0.charset] } == ["text/html", "\"utf-8"])
        #expect(ContentTypeField("a/b; x=\"; charset=no\"; charset=yes")?.charset == "yes")
    }

    @Test("an HTTPURLResponse status that HTTP cannot carry is refused, never a crash")
    func unrepresentableStatus() {
        let response = HTTPURLResponse(url: baseURL, statusCode: 1000, httpVersion: nil, headerFields: nil)!
        #expect(throws: ResponseSerializationError.self) {
            try HTTPResponseSerializer(acceptableStatusCodes: nil).responseObject(for: response, data: Data())
        }
    }
}
