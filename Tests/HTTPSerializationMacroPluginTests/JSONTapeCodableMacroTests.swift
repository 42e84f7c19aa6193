#if Macros
import SwiftSyntaxMacroExpansion
import SwiftSyntaxMacros
import SwiftSyntaxMacrosGenericTestSupport
import Testing
@testable import HTTPSerializationMacroPlugin

/// `@JSONTapeCodable`'s expansions, and its refusals with the reason, on source text.
@Suite("@JSONTapeCodable: the reader it writes, and what it refuses")
struct JSONTapeCodableMacroTests {
    static let specs = ["JSONTapeCodable": MacroSpec(type: JSONTapeCodableMacro.self, conformances: ["JSONTapeDecodable"])]

    static func expand(_ source: String, _ expanded: String, diagnostics: [DiagnosticSpec] = [], sourceLocation: SourceLocation = #_sourceLocation) {
        assertMacroExpansion(source, expandedSource: expanded, diagnostics: diagnostics, macroSpecs: specs) { failure in
            Issue.record(Comment(rawValue: failure.message), sourceLocation: sourceLocation)
        }
    }

    @Test("stored properties are read in order under their names; optionals if present; computed, static and valued lets are left out")
    func storedProperties() {
        Self.expand(
            """
            @JSONTapeCodable
            public struct User: Codable {
                public var id: Int
                var `default`: String
                let nickname: String?
                var tags: Optional<[String]>
                var a, b: Double
                var count = 0 { didSet { } }
                let kind = "user"
                static var shared = 1
                var label: String { "\\(id)" }
            }
            """,
            """
            public struct User: Codable {
                public var id: Int
                var `default`: String
                let nickname: String?
                var tags: Optional<[String]>
                var a, b: Double
                var count = 0 { didSet { } }
                let kind = "user"
                static var shared = 1
                var label: String { "\\(id)" }
            }

            extension User: HTTPSerializationCodable.JSONTapeDecodable {
                public init(jsonTape value: HTTPSerializationCodable.JSONTapeValue) throws {
                    var object = try value.object()
                    self.id = try object.decode(forKey: "id")
                    self.default = try object.decode(forKey: "default")
                    self.nickname = try object.decodeIfPresent(forKey: "nickname")
                    self.tags = try object.decodeIfPresent(forKey: "tags")
                    self.a = try object.decode(forKey: "a")
                    self.b = try object.decode(forKey: "b")
                    self.count = try object.decode(forKey: "count")
                }
            }
            """)
    }

    @Test("CodingKeys choose the properties and give their keys, escaped as string literals")
    func codingKeys() {
        Self.expand(
            """
            @JSONTapeCodable
            struct Post: Codable {
                var id: Int
                var title: String
                var draft = false
                enum CodingKeys: String, CodingKey {
                    case id = "post_id", title = #"the "title""#
                }
            }
            """,
            """
            struct Post: Codable {
                var id: Int
                var title: String
                var draft = false
                enum CodingKeys: String, CodingKey {
                    case id = "post_id", title = #"the "title""#
                }
            }

            extension Post: HTTPSerializationCodable.JSONTapeDecodable {
                init(jsonTape value: HTTPSerializationCodable.JSONTapeValue) throws {
                    var object = try value.object()
                    self.id = try object.decode(forKey: "post_id")
                    self.title = try object.decode(forKey: #"the "title""#)
                }
            }
            """)
    }

    @Test("an enum with raw values reads its raw value")
    func rawValueEnum() {
        Self.expand(
            """
            @JSONTapeCodable
            enum Level: String, Codable {
                case low, high
            }
            """,
            """
            enum Level: String, Codable {
                case low, high
            }

            extension Level: HTTPSerializationCodable.JSONTapeDecodable {
                init(jsonTape value: HTTPSerializationCodable.JSONTapeValue) throws {
                    self = try value.decodeRawValue(of: Self.self)
                }
            }
            """)
    }

    @Test("what it cannot read is an error that says why: init(from:), lazy, wrappers, tuples, associated values, classes")
    func refusals() {
        let cases: [(String, String, Int, Int)] = [
            ("@JSONTapeCodable\nstruct A: Codable {\n    var x: Int\n    init(from decoder: any Decoder) throws { x = 1 }\n}",
             "A has its own init(from:); a generated reader would not do what it does. Remove @JSONTapeCodable, or the custom init(from:)", 4, 5),
            ("@JSONTapeCodable\nstruct B: Codable {\n    lazy var x: Int = 1\n}",
             "lazy properties are not coded by @JSONTapeCodable; make it a plain stored property or a computed one", 3, 5),
            ("@JSONTapeCodable\nstruct C: Codable {\n    @Wrapped var x: Int\n}",
             "property wrappers change what Codable writes; @JSONTapeCodable reads plain stored properties only", 3, 5),
            ("@JSONTapeCodable\nstruct D: Codable {\n    var (x, y): (Int, Int)\n}",
             "a tuple pattern declares several properties at once; declare each on its own for @JSONTapeCodable", 3, 9),
            ("@JSONTapeCodable\nenum E: Codable {\n    case a(Int)\n}",
             "@JSONTapeCodable reads enums with raw values; a has associated values", 3, 10),
            ("@JSONTapeCodable\nenum F: Codable {\n    case a\n}",
             "@JSONTapeCodable reads an enum by its raw value; give F a raw type such as String or Int as its first inherited type", 2, 6),
            ("@JSONTapeCodable\nstruct G: Codable {\n    var x: Int\n    enum CodingKeys: Int, CodingKey {\n        case x = 1\n    }\n}",
             "the raw value of CodingKeys.x is not a string literal; @JSONTapeCodable needs the key as written", 5, 18),
        ]
        for (source, message, line, column) in cases {
            let stripped = String(source.dropFirst("@JSONTapeCodable\n".count))
            Self.expand(source, stripped, diagnostics: [DiagnosticSpec(message: message, line: line, column: column)])
        }
    }
}
#endif
