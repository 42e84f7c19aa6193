#if Macros
import struct SwiftSyntax.TypeSyntax
import SwiftSyntaxMacroExpansion
import SwiftSyntaxMacros
import SwiftSyntaxMacrosGenericTestSupport
import Testing
@testable import HTTPSerializationMacroPlugin

/// `@GeneratedJSONCoding`'s expansions, and its refusals with the reason, on source text.
@Suite("@GeneratedJSONCoding: the reader it writes, and what it refuses")
struct GeneratedJSONCodingMacroTests {
    static let specs = ["GeneratedJSONCoding": MacroSpec(type: GeneratedJSONCodingMacro.self, conformances: ["JSONTapeDecodable", "JSONTapeEncodable"])]

    static func expand(_ source: String, _ expanded: String, diagnostics: [DiagnosticSpec] = [], sourceLocation: SourceLocation = #_sourceLocation) {
        assertMacroExpansion(source, expandedSource: expanded, diagnostics: diagnostics, macroSpecs: specs) { failure in
            Issue.record(Comment(rawValue: failure.message), sourceLocation: sourceLocation)
        }
    }

    @Test("stored properties are read and written in order under their names; optionals if present; computed and static ones left out, valued lets only written")
    func storedProperties() {
        Self.expand(
            """
            @GeneratedJSONCoding
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

            extension User: HTTPSerializationCodable.JSONTapeDecodable, HTTPSerializationCodable.JSONTapeEncodable {
                private enum CodingKeys: CodingKey {
                    // @GeneratedJSONCoding reads CodingKeys from the type's body only: declare them there, not in an extension.
                    case id
                    case `default`
                    case nickname
                    case tags
                    case a
                    case b
                    case count
                    case kind
                }
                public init(jsonTape value: borrowing HTTPSerializationCodable.JSONTapeValue) throws {
                    func _jsonTapeType<_JSONTapeProperty>(_ property: (Self) -> _JSONTapeProperty) -> _JSONTapeProperty.Type {
                        _JSONTapeProperty.self
                    }
                    func _jsonTapeWrapped<_JSONTapeProperty>(_ property: (Self) -> _JSONTapeProperty?) -> _JSONTapeProperty.Type {
                        _JSONTapeProperty.self
                    }
                    var object = try value.object()
                    let _jsonTape_id = try object.decode(_jsonTapeType {
                            $0.id
                        }, forKey: "id")
                    let `_jsonTape_default` = try object.decode(_jsonTapeType {
                            $0.`default`
                        }, forKey: "default")
                    let _jsonTape_nickname = try object.decodeIfPresent(_jsonTapeWrapped {
                            $0.nickname
                        }, forKey: "nickname")
                    let _jsonTape_tags = try object.decodeIfPresent(_jsonTapeWrapped {
                            $0.tags
                        }, forKey: "tags")
                    let _jsonTape_a = try object.decode(_jsonTapeType {
                            $0.a
                        }, forKey: "a")
                    let _jsonTape_b = try object.decode(_jsonTapeType {
                            $0.b
                        }, forKey: "b")
                    let _jsonTape_count = try object.decode(_jsonTapeType {
                            $0.count
                        }, forKey: "count")
                    self.id = _jsonTape_id
                    self.`default` = `_jsonTape_default`
                    self.nickname = _jsonTape_nickname
                    self.tags = _jsonTape_tags
                    self.a = _jsonTape_a
                    self.b = _jsonTape_b
                    self.count = _jsonTape_count
                }
                public init(jsonText reader: inout HTTPSerializationCodable.JSONTextReader) throws {
                    var object = try reader.object()
                    if reader.starts(with: "id", in: object) {
                        try self.init(_jsonTapeKeyed: &reader, object: &object)
                    } else {
                        try self.init(_jsonTapeDocumentOrder: &reader, object: &object)
                    }
                }
                @inline(never) init(_jsonTapeKeyed reader: inout HTTPSerializationCodable.JSONTextReader, object: inout HTTPSerializationCodable.JSONTextReader.Object) throws {
                    func _jsonTapeType<_JSONTapeProperty>(_ property: (Self) -> _JSONTapeProperty) -> _JSONTapeProperty.Type {
                        _JSONTapeProperty.self
                    }
                    func _jsonTapeWrapped<_JSONTapeProperty>(_ property: (Self) -> _JSONTapeProperty?) -> _JSONTapeProperty.Type {
                        _JSONTapeProperty.self
                    }
                    let _jsonTape_id = try reader.decode(_jsonTapeType {
                            $0.id
                        }, forKey: "id", in: &object)
                    let `_jsonTape_default` = try reader.decode(_jsonTapeType {
                            $0.`default`
                        }, forKey: "default", in: &object)
                    let _jsonTape_nickname = try reader.decodeIfPresent(_jsonTapeWrapped {
                            $0.nickname
                        }, forKey: "nickname", in: &object)
                    let _jsonTape_tags = try reader.decodeIfPresent(_jsonTapeWrapped {
                            $0.tags
                        }, forKey: "tags", in: &object)
                    let _jsonTape_a = try reader.decode(_jsonTapeType {
                            $0.a
                        }, forKey: "a", in: &object)
                    let _jsonTape_b = try reader.decode(_jsonTapeType {
                            $0.b
                        }, forKey: "b", in: &object)
                    let _jsonTape_count = try reader.decode(_jsonTapeType {
                            $0.count
                        }, forKey: "count", in: &object)
                    try reader.close(&object)
                    self.id = _jsonTape_id
                    self.`default` = `_jsonTape_default`
                    self.nickname = _jsonTape_nickname
                    self.tags = _jsonTape_tags
                    self.a = _jsonTape_a
                    self.b = _jsonTape_b
                    self.count = _jsonTape_count
                }
                @inline(never) init(_jsonTapeDocumentOrder reader: inout HTTPSerializationCodable.JSONTextReader, object: inout HTTPSerializationCodable.JSONTextReader.Object) throws {
                    func _jsonTapeType<_JSONTapeProperty>(_ property: (Self) -> _JSONTapeProperty) -> _JSONTapeProperty.Type {
                        _JSONTapeProperty.self
                    }
                    func _jsonTapeWrapped<_JSONTapeProperty>(_ property: (Self) -> _JSONTapeProperty?) -> _JSONTapeProperty.Type {
                        _JSONTapeProperty.self
                    }
                    var _jsonTapeSlot_id = HTTPSerializationCodable.JSONTextReader.Slot(_jsonTapeType {
                            $0.id
                        })
                    var `_jsonTapeSlot_default` = HTTPSerializationCodable.JSONTextReader.Slot(_jsonTapeType {
                            $0.`default`
                        })
                    var _jsonTapeSlot_nickname = HTTPSerializationCodable.JSONTextReader.Slot(_jsonTapeWrapped {
                            $0.nickname
                        })
                    var _jsonTapeSlot_tags = HTTPSerializationCodable.JSONTextReader.Slot(_jsonTapeWrapped {
                            $0.tags
                        })
                    var _jsonTapeSlot_a = HTTPSerializationCodable.JSONTextReader.Slot(_jsonTapeType {
                            $0.a
                        })
                    var _jsonTapeSlot_b = HTTPSerializationCodable.JSONTextReader.Slot(_jsonTapeType {
                            $0.b
                        })
                    var _jsonTapeSlot_count = HTTPSerializationCodable.JSONTextReader.Slot(_jsonTapeType {
                            $0.count
                        })
                    while let _jsonTapeMember = try reader.nextMember(in: &object) {
                        if try reader.member(_jsonTapeMember, is: "id") {
                            try reader.read(into: &_jsonTapeSlot_id)
                        } else if try reader.member(_jsonTapeMember, is: "default") {
                            try reader.read(into: &`_jsonTapeSlot_default`)
                        } else if try reader.member(_jsonTapeMember, is: "nickname") {
                            try reader.read(into: &_jsonTapeSlot_nickname)
                        } else if try reader.member(_jsonTapeMember, is: "tags") {
                            try reader.read(into: &_jsonTapeSlot_tags)
                        } else if try reader.member(_jsonTapeMember, is: "a") {
                            try reader.read(into: &_jsonTapeSlot_a)
                        } else if try reader.member(_jsonTapeMember, is: "b") {
                            try reader.read(into: &_jsonTapeSlot_b)
                        } else if try reader.member(_jsonTapeMember, is: "count") {
                            try reader.read(into: &_jsonTapeSlot_count)
                        } else {
                            try reader.skipValue()
                        }
                    }
                    let _jsonTape_id = try reader.decode(from: _jsonTapeSlot_id)
                    let `_jsonTape_default` = try reader.decode(from: `_jsonTapeSlot_default`)
                    let _jsonTape_nickname = try reader.decodeIfPresent(from: _jsonTapeSlot_nickname)
                    let _jsonTape_tags = try reader.decodeIfPresent(from: _jsonTapeSlot_tags)
                    let _jsonTape_a = try reader.decode(from: _jsonTapeSlot_a)
                    let _jsonTape_b = try reader.decode(from: _jsonTapeSlot_b)
                    let _jsonTape_count = try reader.decode(from: _jsonTapeSlot_count)
                    self.id = _jsonTape_id
                    self.`default` = `_jsonTape_default`
                    self.nickname = _jsonTape_nickname
                    self.tags = _jsonTape_tags
                    self.a = _jsonTape_a
                    self.b = _jsonTape_b
                    self.count = _jsonTape_count
                }
                public func encode(jsonTape writer: HTTPSerializationCodable.JSONTapeWriter) throws {
                    var object = writer.object()
                    try object.encode(self.id, forKey: "id")
                    try object.encode(self.`default`, forKey: "default")
                    try object.encodeIfPresent(self.nickname, forKey: "nickname")
                    try object.encodeIfPresent(self.tags, forKey: "tags")
                    try object.encode(self.a, forKey: "a")
                    try object.encode(self.b, forKey: "b")
                    try object.encode(self.count, forKey: "count")
                    try object.encode(self.kind, forKey: "kind")
                }
            }
            """,
            diagnostics: [DiagnosticSpec(message: GeneratedJSONCodingMacro.unreadConstantWarning, line: 9, column: 9, severity: .warning)])
    }

    @Test("a model that reads one property (a valued let is not read) has the key-by-key reader only; one of optionals reads them from slots")
    func documentOrderReaderOnlyWhereItHelps() {
        Self.expand(
            """
            @GeneratedJSONCoding
            struct Pair: Codable {
                let version = 1
                var id: Int
            }
            """,
            """
            struct Pair: Codable {
                let version = 1
                var id: Int
            }

            extension Pair: HTTPSerializationCodable.JSONTapeDecodable, HTTPSerializationCodable.JSONTapeEncodable {
                private enum CodingKeys: CodingKey {
                    // @GeneratedJSONCoding reads CodingKeys from the type's body only: declare them there, not in an extension.
                    case version
                    case id
                }
                public init(jsonTape value: borrowing HTTPSerializationCodable.JSONTapeValue) throws {
                    func _jsonTapeType<_JSONTapeProperty>(_ property: (Self) -> _JSONTapeProperty) -> _JSONTapeProperty.Type {
                        _JSONTapeProperty.self
                    }
                    var object = try value.object()
                    let _jsonTape_id = try object.decode(_jsonTapeType {
                            $0.id
                        }, forKey: "id")
                    self.id = _jsonTape_id
                }
                public init(jsonText reader: inout HTTPSerializationCodable.JSONTextReader) throws {
                    func _jsonTapeType<_JSONTapeProperty>(_ property: (Self) -> _JSONTapeProperty) -> _JSONTapeProperty.Type {
                        _JSONTapeProperty.self
                    }
                    var object = try reader.object()
                    let _jsonTape_id = try reader.decode(_jsonTapeType {
                            $0.id
                        }, forKey: "id", in: &object)
                    try reader.close(&object)
                    self.id = _jsonTape_id
                }
                public func encode(jsonTape writer: HTTPSerializationCodable.JSONTapeWriter) throws {
                    var object = writer.object()
                    try object.encode(self.version, forKey: "version")
                    try object.encode(self.id, forKey: "id")
                }
            }
            """,
            diagnostics: [DiagnosticSpec(message: GeneratedJSONCodingMacro.unreadConstantWarning, line: 3, column: 9, severity: .warning)]
        )
        Self.expand(
            """
            @GeneratedJSONCoding
            struct Options: Decodable {
                var a: Int?
                var b: String?
            }
            """,
            """
            struct Options: Decodable {
                var a: Int?
                var b: String?
            }

            extension Options: HTTPSerializationCodable.JSONTapeDecodable {
                private enum CodingKeys: CodingKey {
                    // @GeneratedJSONCoding reads CodingKeys from the type's body only: declare them there, not in an extension.
                    case a
                    case b
                }
                public init(jsonTape value: borrowing HTTPSerializationCodable.JSONTapeValue) throws {
                    func _jsonTapeWrapped<_JSONTapeProperty>(_ property: (Self) -> _JSONTapeProperty?) -> _JSONTapeProperty.Type {
                        _JSONTapeProperty.self
                    }
                    var object = try value.object()
                    let _jsonTape_a = try object.decodeIfPresent(_jsonTapeWrapped {
                            $0.a
                        }, forKey: "a")
                    let _jsonTape_b = try object.decodeIfPresent(_jsonTapeWrapped {
                            $0.b
                        }, forKey: "b")
                    self.a = _jsonTape_a
                    self.b = _jsonTape_b
                }
                public init(jsonText reader: inout HTTPSerializationCodable.JSONTextReader) throws {
                    var object = try reader.object()
                    if reader.starts(with: "a", in: object) {
                        try self.init(_jsonTapeKeyed: &reader, object: &object)
                    } else {
                        try self.init(_jsonTapeDocumentOrder: &reader, object: &object)
                    }
                }
                @inline(never) init(_jsonTapeKeyed reader: inout HTTPSerializationCodable.JSONTextReader, object: inout HTTPSerializationCodable.JSONTextReader.Object) throws {
                    func _jsonTapeWrapped<_JSONTapeProperty>(_ property: (Self) -> _JSONTapeProperty?) -> _JSONTapeProperty.Type {
                        _JSONTapeProperty.self
                    }
                    let _jsonTape_a = try reader.decodeIfPresent(_jsonTapeWrapped {
                            $0.a
                        }, forKey: "a", in: &object)
                    let _jsonTape_b = try reader.decodeIfPresent(_jsonTapeWrapped {
                            $0.b
                        }, forKey: "b", in: &object)
                    try reader.close(&object)
                    self.a = _jsonTape_a
                    self.b = _jsonTape_b
                }
                @inline(never) init(_jsonTapeDocumentOrder reader: inout HTTPSerializationCodable.JSONTextReader, object: inout HTTPSerializationCodable.JSONTextReader.Object) throws {
                    func _jsonTapeWrapped<_JSONTapeProperty>(_ property: (Self) -> _JSONTapeProperty?) -> _JSONTapeProperty.Type {
                        _JSONTapeProperty.self
                    }
                    var _jsonTapeSlot_a = HTTPSerializationCodable.JSONTextReader.Slot(_jsonTapeWrapped {
                            $0.a
                        })
                    var _jsonTapeSlot_b = HTTPSerializationCodable.JSONTextReader.Slot(_jsonTapeWrapped {
                            $0.b
                        })
                    while let _jsonTapeMember = try reader.nextMember(in: &object) {
                        if try reader.member(_jsonTapeMember, is: "a") {
                            try reader.read(into: &_jsonTapeSlot_a)
                        } else if try reader.member(_jsonTapeMember, is: "b") {
                            try reader.read(into: &_jsonTapeSlot_b)
                        } else {
                            try reader.skipValue()
                        }
                    }
                    let _jsonTape_a = try reader.decodeIfPresent(from: _jsonTapeSlot_a)
                    let _jsonTape_b = try reader.decodeIfPresent(from: _jsonTapeSlot_b)
                    self.a = _jsonTape_a
                    self.b = _jsonTape_b
                }
            }
            """
        )
    }

    @Test("CodingKeys choose the properties, their order and their keys, escaped as string literals")
    func codingKeys() {
        Self.expand(
            """
            @GeneratedJSONCoding
            struct Post: Codable {
                var id: Int
                var title: String
                var draft = false
                enum CodingKeys: String, CodingKey {
                    case title = #"the "title""#, id = "post_id"
                }
            }
            """,
            """
            struct Post: Codable {
                var id: Int
                var title: String
                var draft = false
                enum CodingKeys: String, CodingKey {
                    case title = #"the "title""#, id = "post_id"
                }
            }

            extension Post: HTTPSerializationCodable.JSONTapeDecodable, HTTPSerializationCodable.JSONTapeEncodable {
                public init(jsonTape value: borrowing HTTPSerializationCodable.JSONTapeValue) throws {
                    func _jsonTapeType<_JSONTapeProperty>(_ property: (Self) -> _JSONTapeProperty) -> _JSONTapeProperty.Type {
                        _JSONTapeProperty.self
                    }
                    var object = try value.object()
                    let _jsonTape_title = try object.decode(_jsonTapeType {
                            $0.title
                        }, forKey: #"the "title""#)
                    let _jsonTape_id = try object.decode(_jsonTapeType {
                            $0.id
                        }, forKey: "post_id")
                    self.title = _jsonTape_title
                    self.id = _jsonTape_id
                }
                public init(jsonText reader: inout HTTPSerializationCodable.JSONTextReader) throws {
                    func _jsonTapeType<_JSONTapeProperty>(_ property: (Self) -> _JSONTapeProperty) -> _JSONTapeProperty.Type {
                        _JSONTapeProperty.self
                    }
                    var object = try reader.object()
                    let _jsonTape_title = try reader.decode(_jsonTapeType {
                            $0.title
                        }, forKey: #"the "title""#, in: &object)
                    let _jsonTape_id = try reader.decode(_jsonTapeType {
                            $0.id
                        }, forKey: "post_id", in: &object)
                    try reader.close(&object)
                    self.title = _jsonTape_title
                    self.id = _jsonTape_id
                }
                public func encode(jsonTape writer: HTTPSerializationCodable.JSONTapeWriter) throws {
                    var object = writer.object()
                    try object.encode(self.title, forKey: #"the "title""#)
                    try object.encode(self.id, forKey: "post_id")
                }
            }
            """)
    }

    @Test("an enum with raw values reads its raw value")
    func rawValueEnum() {
        Self.expand(
            """
            @GeneratedJSONCoding
            enum Level: String, Codable {
                case low, high
            }
            """,
            """
            enum Level: String, Codable {
                case low, high
            }

            extension Level: HTTPSerializationCodable.JSONTapeDecodable, HTTPSerializationCodable.JSONTapeEncodable {
                public init(jsonTape value: borrowing HTTPSerializationCodable.JSONTapeValue) throws {
                    self = try value.decodeRawValue(of: Self.self)
                }
                public init(jsonText reader: inout HTTPSerializationCodable.JSONTextReader) throws {
                    self = try reader.decodeRawValue(of: Self.self)
                }
                public func encode(jsonTape writer: HTTPSerializationCodable.JSONTapeWriter) throws {
                    try writer.encodeRawValue(self)
                }
            }
            """)
    }

    @Test("the CodingKeys it declares keep each name as written; a let with a value warns in a Codable type, and is left to the compiler's own warning in a Decodable one")
    func declaredCodingKeys() {
        Self.expand(
            """
            @GeneratedJSONCoding
            struct Label: Encodable {
                var `class`: Int
                var `default`: String
                let kind = "label"
            }
            """,
            """
            struct Label: Encodable {
                var `class`: Int
                var `default`: String
                let kind = "label"
            }

            extension Label: HTTPSerializationCodable.JSONTapeEncodable {
                private enum CodingKeys: CodingKey {
                    // @GeneratedJSONCoding reads CodingKeys from the type's body only: declare them there, not in an extension.
                    case `class`
                    case `default`
                    case kind
                }
                public func encode(jsonTape writer: HTTPSerializationCodable.JSONTapeWriter) throws {
                    var object = writer.object()
                    try object.encode(self.`class`, forKey: "class")
                    try object.encode(self.`default`, forKey: "default")
                    try object.encode(self.kind, forKey: "kind")
                }
            }
            """)
        Self.expand(
            """
            @GeneratedJSONCoding
            struct Settings: Decodable {
                let version = 1
                var name: String
            }
            """,
            """
            struct Settings: Decodable {
                let version = 1
                var name: String
            }

            extension Settings: HTTPSerializationCodable.JSONTapeDecodable {
                private enum CodingKeys: CodingKey {
                    // @GeneratedJSONCoding reads CodingKeys from the type's body only: declare them there, not in an extension.
                    case version
                    case name
                }
                public init(jsonTape value: borrowing HTTPSerializationCodable.JSONTapeValue) throws {
                    func _jsonTapeType<_JSONTapeProperty>(_ property: (Self) -> _JSONTapeProperty) -> _JSONTapeProperty.Type {
                        _JSONTapeProperty.self
                    }
                    var object = try value.object()
                    let _jsonTape_name = try object.decode(_jsonTapeType {
                            $0.name
                        }, forKey: "name")
                    self.name = _jsonTape_name
                }
                public init(jsonText reader: inout HTTPSerializationCodable.JSONTextReader) throws {
                    func _jsonTapeType<_JSONTapeProperty>(_ property: (Self) -> _JSONTapeProperty) -> _JSONTapeProperty.Type {
                        _JSONTapeProperty.self
                    }
                    var object = try reader.object()
                    let _jsonTape_name = try reader.decode(_jsonTapeType {
                            $0.name
                        }, forKey: "name", in: &object)
                    try reader.close(&object)
                    self.name = _jsonTape_name
                }
            }
            """)
    }

    @Test("a model with no coding keys reads any value and writes an empty object, as synthesized Codable does")
    func emptyModel() {
        Self.expand(
            """
            @GeneratedJSONCoding
            struct Empty: Codable {
                var computed: Int { 1 }
            }
            """,
            """
            struct Empty: Codable {
                var computed: Int { 1 }
            }

            extension Empty: HTTPSerializationCodable.JSONTapeDecodable, HTTPSerializationCodable.JSONTapeEncodable {
                public init(jsonTape value: borrowing HTTPSerializationCodable.JSONTapeValue) throws {
                }
                public init(jsonText reader: inout HTTPSerializationCodable.JSONTextReader) throws {
                    try reader.skipValue()
                }
                public func encode(jsonTape writer: HTTPSerializationCodable.JSONTapeWriter) throws {
                    _ = writer.object()
                }
            }
            """)
    }

    @Test("an init(from:) that takes no decoder and the language's own attributes are not refused")
    func notRefused() {
        Self.expand(
            """
            @GeneratedJSONCoding
            struct K: Decodable {
                @available(*, deprecated) var x: Int
                init(from other: Other) { x = other.x }
            }
            """,
            """
            struct K: Decodable {
                @available(*, deprecated) var x: Int
                init(from other: Other) { x = other.x }
            }

            extension K: HTTPSerializationCodable.JSONTapeDecodable {
                private enum CodingKeys: CodingKey {
                    // @GeneratedJSONCoding reads CodingKeys from the type's body only: declare them there, not in an extension.
                    case x
                }
                public init(jsonTape value: borrowing HTTPSerializationCodable.JSONTapeValue) throws {
                    func _jsonTapeType<_JSONTapeProperty>(_ property: (Self) -> _JSONTapeProperty) -> _JSONTapeProperty.Type {
                        _JSONTapeProperty.self
                    }
                    var object = try value.object()
                    let _jsonTape_x = try object.decode(_jsonTapeType {
                            $0.x
                        }, forKey: "x")
                    self.x = _jsonTape_x
                }
                public init(jsonText reader: inout HTTPSerializationCodable.JSONTextReader) throws {
                    func _jsonTapeType<_JSONTapeProperty>(_ property: (Self) -> _JSONTapeProperty) -> _JSONTapeProperty.Type {
                        _JSONTapeProperty.self
                    }
                    var object = try reader.object()
                    let _jsonTape_x = try reader.decode(_jsonTapeType {
                            $0.x
                        }, forKey: "x", in: &object)
                    try reader.close(&object)
                    self.x = _jsonTape_x
                }
            }
            """)
    }

    @Test("a property whose type has no reader (Foundation's Locale, a dictionary keyed by Int, in an optional or an array) is named in a remark; one that may have a reader, or a key through an alias, is not")
    func readerlessPropertiesAreRemarked() {
        Self.expand(
            """
            @GeneratedJSONCoding
            struct In: Decodable {
                var x: [Foundation.Locale]?
            }
            """,
            """
            struct In: Decodable {
                var x: [Foundation.Locale]?
            }

            extension In: HTTPSerializationCodable.JSONTapeDecodable {
                private enum CodingKeys: CodingKey {
                    // @GeneratedJSONCoding reads CodingKeys from the type's body only: declare them there, not in an extension.
                    case x
                }
                public init(jsonTape value: borrowing HTTPSerializationCodable.JSONTapeValue) throws {
                    func _jsonTapeWrapped<_JSONTapeProperty>(_ property: (Self) -> _JSONTapeProperty?) -> _JSONTapeProperty.Type {
                        _JSONTapeProperty.self
                    }
                    var object = try value.object()
                    let _jsonTape_x = try object.decodeIfPresent(_jsonTapeWrapped {
                            $0.x
                        }, forKey: "x")
                    self.x = _jsonTape_x
                }
                public init(jsonText reader: inout HTTPSerializationCodable.JSONTextReader) throws {
                    func _jsonTapeWrapped<_JSONTapeProperty>(_ property: (Self) -> _JSONTapeProperty?) -> _JSONTapeProperty.Type {
                        _JSONTapeProperty.self
                    }
                    var object = try reader.object()
                    let _jsonTape_x = try reader.decodeIfPresent(_jsonTapeWrapped {
                            $0.x
                        }, forKey: "x", in: &object)
                    try reader.close(&object)
                    self.x = _jsonTape_x
                }
            }
            """,
            diagnostics: [DiagnosticSpec(message: ReaderlessTypes.remark(property: "x", readerless: "Foundation.Locale"), line: 3, column: 9, severity: .remark)])
        func readerless(_ type: String) -> String? { ReaderlessTypes.readerless(in: TypeSyntax(stringLiteral: type)) }
        #expect(readerless("[Int: String]") == "[Int: String]")
        #expect(readerless("Dictionary<UUID, Item>?") == "Dictionary<UUID, Item>")
        #expect(readerless("[String: [Range<Int>]]") == "Range<Int>")
        #expect(readerless("Set<TimeZone>") == "TimeZone")
        #expect(readerless("Optional<CGFloat>") == "CGFloat")
        #expect(readerless("Swift.Range<Int>") == "Swift.Range<Int>")
        // A key spelled through an alias may be a String; a type of another module is its own.
        for mayRead in ["[String: Item]", "Swift.Dictionary<Swift.String, Int>", "[UUID]", "Set<String>?", "Page<Item>", "Date", "URL", "Item!",
                        "[UserID: Item]", "Geometry.Range<Int>", "[Key<Int>: Item]"] {
            #expect(readerless(mayRead) == nil, "\(mayRead)")
        }
    }

    @Test("a type that spells only Decodable gets the reader, only Encodable the writer")
    func oneDirection() {
        Self.expand(
            """
            @GeneratedJSONCoding
            struct In: Decodable {
                var x: Int
            }
            """,
            """
            struct In: Decodable {
                var x: Int
            }

            extension In: HTTPSerializationCodable.JSONTapeDecodable {
                private enum CodingKeys: CodingKey {
                    // @GeneratedJSONCoding reads CodingKeys from the type's body only: declare them there, not in an extension.
                    case x
                }
                public init(jsonTape value: borrowing HTTPSerializationCodable.JSONTapeValue) throws {
                    func _jsonTapeType<_JSONTapeProperty>(_ property: (Self) -> _JSONTapeProperty) -> _JSONTapeProperty.Type {
                        _JSONTapeProperty.self
                    }
                    var object = try value.object()
                    let _jsonTape_x = try object.decode(_jsonTapeType {
                            $0.x
                        }, forKey: "x")
                    self.x = _jsonTape_x
                }
                public init(jsonText reader: inout HTTPSerializationCodable.JSONTextReader) throws {
                    func _jsonTapeType<_JSONTapeProperty>(_ property: (Self) -> _JSONTapeProperty) -> _JSONTapeProperty.Type {
                        _JSONTapeProperty.self
                    }
                    var object = try reader.object()
                    let _jsonTape_x = try reader.decode(_jsonTapeType {
                            $0.x
                        }, forKey: "x", in: &object)
                    try reader.close(&object)
                    self.x = _jsonTape_x
                }
            }
            """)
        Self.expand(
            """
            @GeneratedJSONCoding
            struct Out: Swift.Encodable & Sendable {
                var x: Int
            }
            """,
            """
            struct Out: Swift.Encodable & Sendable {
                var x: Int
            }

            extension Out: HTTPSerializationCodable.JSONTapeEncodable {
                private enum CodingKeys: CodingKey {
                    // @GeneratedJSONCoding reads CodingKeys from the type's body only: declare them there, not in an extension.
                    case x
                }
                public func encode(jsonTape writer: HTTPSerializationCodable.JSONTapeWriter) throws {
                    var object = writer.object()
                    try object.encode(self.x, forKey: "x")
                }
            }
            """)
    }

    @Test("what it cannot code is an error that says why: init(from:), encode(to:), #if, aliased, struct or computed keys, lazy, wrappers, tuples, associated values, classes")
    func refusals() {
        let cases: [(String, String, Int, Int)] = [
            ("@GeneratedJSONCoding\nstruct A: Codable {\n    var x: Int\n    init(from decoder: any Decoder) throws { x = 1 }\n}",
             "A has its own init(from:); a generated reader would not do what it does. Remove @GeneratedJSONCoding, or the custom init(from:)", 4, 5),
            ("@GeneratedJSONCoding\nstruct H: Codable {\n    var x: Int\n    func encode(to encoder: any Encoder) throws {}\n}",
             "H has its own encode(to:); a generated writer would not do what it does. Remove @GeneratedJSONCoding, or the custom encode(to:)", 4, 5),
            ("@GeneratedJSONCoding\nenum S: String, Codable {\n    case a\n    init(from decoder: any Decoder) throws { self = .a }\n}",
             "S has its own init(from:); a generated reader would not do what it does. Remove @GeneratedJSONCoding, or the custom init(from:)", 4, 5),
            ("@GeneratedJSONCoding\nstruct I: Codable {\n    var x: Int\n    #if DEBUG\n    var trace: String\n    #endif\n}",
             "@GeneratedJSONCoding does not see stored properties, coding keys or coding functions inside #if; move it out of the #if, or remove @GeneratedJSONCoding", 5, 5),
            ("@GeneratedJSONCoding\nstruct J: Codable {\n    var x: Int\n    typealias CodingKeys = OtherKeys\n}",
             "CodingKeys is a type alias; @GeneratedJSONCoding reads the cases of a CodingKeys enum declared in the type", 4, 5),
            ("@GeneratedJSONCoding\nstruct B: Codable {\n    lazy var x: Int = 1\n}",
             "lazy properties are not coded by @GeneratedJSONCoding; make it a plain stored property or a computed one", 3, 5),
            ("@GeneratedJSONCoding\nstruct C: Codable {\n    @Wrapped var x: Int\n}",
             "property wrappers change what Codable reads and writes; @GeneratedJSONCoding codes plain stored properties only", 3, 5),
            ("@GeneratedJSONCoding\nstruct D: Codable {\n    var (x, y): (Int, Int)\n}",
             "a tuple pattern declares several properties at once; declare each on its own for @GeneratedJSONCoding", 3, 9),
            ("@GeneratedJSONCoding\nenum E: Codable {\n    case a(Int)\n}",
             "@GeneratedJSONCoding reads enums with raw values; a has associated values", 3, 10),
            ("@GeneratedJSONCoding\nenum F: Codable {\n    case a\n}",
             "@GeneratedJSONCoding reads an enum by its raw value; give F a raw type such as String or Int as its first inherited type", 2, 6),
            ("@GeneratedJSONCoding\nstruct G: Codable {\n    var x: Int\n    enum CodingKeys: Int, CodingKey {\n        case x = 1\n    }\n}",
             "the raw value of CodingKeys.x is not a string literal; @GeneratedJSONCoding needs the key as written", 5, 18),
            ("@GeneratedJSONCoding\nstruct K: Codable {\n    var x: Int\n    struct CodingKeys: CodingKey {\n        var stringValue: String\n    }\n}",
             "CodingKeys is a struct; @GeneratedJSONCoding reads the cases of a CodingKeys enum", 4, 5),
            ("@GeneratedJSONCoding\nstruct M: Codable {\n    var x: Int\n    enum CodingKeys: String, CodingKey {\n        case x\n        var stringValue: String { \"y\" }\n    }\n}",
             "CodingKeys computes its own stringValue; @GeneratedJSONCoding needs each key as a raw value it can read", 6, 9),
            ("@GeneratedJSONCoding\nclass L: Codable {\n    var x = 1\n}",
             "@GeneratedJSONCoding applies to a struct or an enum with raw values", 1, 1),
        ]
        for (source, message, line, column) in cases {
            let stripped = String(source.dropFirst("@GeneratedJSONCoding\n".count))
            Self.expand(source, stripped, diagnostics: [DiagnosticSpec(message: message, line: line, column: column)])
        }
    }
}
#endif
