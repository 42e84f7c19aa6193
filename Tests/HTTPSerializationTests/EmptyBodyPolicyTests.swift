import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif
import HTTPTypes
import Testing
import HTTPSerialization

/// The empty-body table in LimitsAndSecurity, row by row: what every response serializer
/// gives for no bytes, for whitespace only, and for a 204.
@Suite("Empty bodies: one policy for every response serializer")
struct EmptyBodyPolicyTests {
    /// What a serializer gave: its output described, or that it threw.
    enum Outcome: Equatable, CustomStringConvertible {
        case value(String)
        case error

        var description: String {
            switch self {
            case .value(let text): return "value \(text)"
            case .error: return "error"
            }
        }
    }

    struct Row: CustomTestStringConvertible, Sendable {
        let name: String
        let contentType: String
        /// No bytes with 200, whitespace with 200, no bytes with 204.
        let expected: [Outcome]
        let run: @Sendable (ResponseContext) throws -> String

        var testDescription: String { name }
    }

    static func describe(_ value: Any?) -> String {
        guard let value else { return "nil" }
        return String(describing: value)
    }

    struct Item: Decodable, Sendable { var id: Int }

    static let rows: [Row] = [
        Row(name: "JSON", contentType: "application/json", expected: [.value("nil"), .value("nil"), .value("nil")]) {
            describe(try JSONResponseSerializer().responseObject(for: $0))
        },
        Row(name: "XML parser", contentType: "application/xml", expected: [.value("nil"), .value("nil"), .value("nil")]) {
            describe(try XMLParserResponseSerializer().responseObject(for: $0))
        },
        Row(name: "XML document", contentType: "application/xml", expected: [.error, .error, .error]) {
            describe(try XMLDocumentResponseSerializer().responseObject(for: $0))
        },
        Row(name: "property list", contentType: "application/x-plist", expected: [.value("nil"), .value("nil"), .value("nil")]) {
            describe(try PropertyListResponseSerializer().responseObject(for: $0))
        },
        // Whitespace is not empty for an image: it is bytes that are not an image.
        Row(name: "image", contentType: "image/png", expected: [.value("nil"), .error, .value("nil")]) {
            describe(try ImageResponseSerializer().responseObject(for: $0))
        },
        Row(name: "Decodable of a struct", contentType: "application/json", expected: [.error, .error, .error]) {
            describe(try DecodableResponseSerializer(Item.self).responseObject(for: $0))
        },
        Row(name: "Decodable of an Optional", contentType: "application/json", expected: [.error, .error, .value("nil")]) {
            describe(try DecodableResponseSerializer(Item?.self).responseObject(for: $0))
        },
        Row(name: "Decodable of EmptyResponse", contentType: "application/json", expected: [.error, .error, .value("EmptyResponse()")]) {
            describe(try DecodableResponseSerializer(EmptyResponse.self).responseObject(for: $0))
        },
        // Whitespace is text.
        Row(name: "string", contentType: "text/plain", expected: [.value("\"\""), .value("\" \\r\\n\""), .value("\"\"")]) {
            (try StringResponseSerializer().responseObject(for: $0)).debugDescription
        },
    ]

    static func context(status: Int, contentType: String, body: Data) -> ResponseContext {
        var fields = HTTPFields()
        fields[.contentType] = contentType
        return ResponseContext(response: HTTPResponse(status: .init(code: status), headerFields: fields), data: body)
    }

    @Test("no bytes, whitespace and a 204 give each serializer's row of the table", arguments: rows)
    func emptyBodies(row: Row) {
        let inputs: [(Int, Data)] = [(200, Data()), (200, Data(" \r\n".utf8)), (204, Data())]
        let outcomes = inputs.map { status, body -> Outcome in
            do {
                return .value(try row.run(Self.context(status: status, contentType: row.contentType, body: body)))
            } catch {
                return .error
            }
        }
        #expect(outcomes == row.expected)
    }

    @Test("a string body decodes in the charset the response names; bytes invalid in it are an error")
    func stringCharsets() throws {
        let latin1 = Data([0x63, 0x61, 0x66, 0xE9])
        #expect(try StringResponseSerializer().responseObject(for: Self.context(status: 200, contentType: "text/plain; charset=ISO-8859-1", body: latin1)) == "caf\u{E9}")
        #expect(throws: ResponseSerializationError.self) {
            try StringResponseSerializer().responseObject(for: Self.context(status: 200, contentType: "text/plain; charset=utf-8", body: latin1))
        }
        #expect(throws: ResponseSerializationError.self) {
            try StringResponseSerializer().responseObject(for: Self.context(status: 200, contentType: "text/plain; charset=klingon", body: latin1))
        }
        #expect(try StringResponseSerializer().responseObject(for: Self.context(status: 200, contentType: "text/csv", body: Data("a,b".utf8))) == "a,b")
    }
}
