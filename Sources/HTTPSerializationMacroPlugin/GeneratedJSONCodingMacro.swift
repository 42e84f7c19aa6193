#if Macros
import SwiftDiagnostics
import SwiftSyntax
import SwiftSyntaxBuilder
import SwiftSyntaxMacros

/// `@GeneratedJSONCoding`: writes a struct's `JSONTapeDecodable` reader and `JSONTapeEncodable`
/// writer from its stored properties and coding keys, or an enum's from its raw values.
public struct GeneratedJSONCodingMacro: ExtensionMacro {
    public static func expansion(
        of node: AttributeSyntax, attachedTo declaration: some DeclGroupSyntax, providingExtensionsOf type: some TypeSyntaxProtocol,
        conformingTo protocols: [TypeSyntax], in context: some MacroExpansionContext
    ) throws -> [ExtensionDeclSyntax] {
        let directions = codedDirections(of: declaration)
        let members: [String], unreadConstants: [Syntax], readerless: [CodableModel.Property]
        do throws(CodableModel.Refusal) {
            (members, unreadConstants, readerless) = try generatedMembers(for: declaration, reads: directions.reads, writes: directions.writes)
        } catch {
            context.diagnose(Diagnostic(node: error.node, message: GeneratedJSONCodingMessage(message: error.message)))
            return []
        }
        for node in unreadConstants {
            context.diagnose(Diagnostic(node: node, message: GeneratedJSONCodingMessage(message: unreadConstantWarning, severity: .warning)))
        }
        // A property the text reader cannot read, said where it is declared (a remark: the
        // model still decodes, through the parse).
        for property in readerless {
            guard let type = property.readerless else { continue }
            let message = ReaderlessTypes.remark(property: property.plainName, readerless: type)
            context.diagnose(Diagnostic(node: property.node, message: GeneratedJSONCodingMessage(message: message, severity: .remark)))
        }
        // Only the conformances the type does not have yet, as the compiler asks.
        let wanted = protocols.map(\.trimmedDescription).compactMap { name -> String? in
            if name.hasSuffix("JSONTapeDecodable") { return directions.reads ? "HTTPSerializationCodable.JSONTapeDecodable" : nil }
            if name.hasSuffix("JSONTapeEncodable") { return directions.writes ? "HTTPSerializationCodable.JSONTapeEncodable" : nil }
            return nil
        }
        let conformance = wanted.isEmpty ? "" : ": " + wanted.joined(separator: ", ")
        let ext = try ExtensionDeclSyntax("extension \(type.trimmed)\(raw: conformance)") {
            for member in members { DeclSyntax(stringLiteral: member) }
        }
        return [ext]
    }

    /// The warning for a `let` with a value, as the compiler words it, with what silences it.
    static let unreadConstantWarning = "immutable property will not be decoded because it is declared with an initial value which cannot be overwritten; set the value in an initializer, or declare CodingKeys in the type's body to silence this warning"

    /// Which halves to write: a type that spells only `Decodable` gets the reader, only
    /// `Encodable` the writer; `Codable`, or neither spelled (conformance from elsewhere), both.
    static func codedDirections(of declaration: some DeclGroupSyntax) -> (reads: Bool, writes: Bool) {
        // `Encodable & Sendable` spells each of its parts.
        let spelled = declaration.inheritanceClause?.inheritedTypes.flatMap { $0.type.trimmedDescription.split(separator: "&") } ?? []
        let inherited = Set(spelled.map { $0.trimmingSpaces.replacingSwiftPrefix })
        let decodable = inherited.contains("Decodable"), encodable = inherited.contains("Encodable")
        if decodable != encodable, !inherited.contains("Codable") { return (decodable, encodable) }
        return (true, true)
    }

    /// `init(jsonTape:)` and `encode(jsonTape:)`, as wanted (always `public`: a member's access
    /// is capped by its type's, and the macro cannot see an enclosing `public extension`), and
    /// the `let`s with a value to warn about: the compiler warns that such a property is never
    /// decoded when it makes `CodingKeys` itself (or the type is only `Decodable`), so the keys
    /// the macro declares for a `Codable` type silence it, and the macro gives it instead.
    static func generatedMembers(for declaration: some DeclGroupSyntax, reads: Bool, writes: Bool) throws(CodableModel.Refusal)
        -> (members: [String], unreadConstants: [Syntax], readerless: [CodableModel.Property]) {
        var members: [String] = []
        var unreadConstants: [Syntax] = []
        var readerless: [CodableModel.Property] = []
        if let structure = declaration.as(StructDeclSyntax.self) {
            try CodableModel.refuseCustomCoding(in: structure, name: structure.name.text, reads: reads, writes: writes)
            let model = try CodableModel(struct: structure)
            if reads { readerless = model.properties.filter { $0.isDecoded && $0.readerless != nil } }
            if !model.declaresCodingKeys, !model.properties.isEmpty {
                members.append(Self.codingKeys(for: model.properties))
                if reads, writes { unreadConstants = model.properties.filter { !$0.isDecoded }.map(\.node) }
            }
            // With no coding keys at all, synthesized code asks for no container: any value reads.
            if reads, model.properties.isEmpty {
                members.append(function("public init(jsonTape value: borrowing HTTPSerializationCodable.JSONTapeValue) throws", []))
                members.append(function(textReaderSignature, ["try reader.skipValue()"]))
            } else if reads {
                let decoded = model.properties.filter(\.isDecoded)
                // Every value is read into a local and `self` set at the end, once all reads
                // are done: set property by property between reads that may throw, a large
                // model was built in a temporary and copied out (each reference retained and
                // released). The locals take their types from the properties, by the closures
                // the helpers below read, so no type need be written (`var count = 0` has none).
                let helpers = Self.typeHelpers(for: decoded)
                var lines = helpers + [decoded.isEmpty ? "_ = try value.object()" : "var object = try value.object()"]
                // The same reads from the text, in the same order, then the object's other members.
                var textLines = helpers
                let documentOrder = Self.documentOrderReader(for: decoded, helpers: helpers)
                if documentOrder == nil { textLines.append("var object = try reader.object()") }
                for property in decoded {
                    let call = property.isOptional ? "decodeIfPresent" : "decode"
                    let type = "\(property.isOptional ? "_jsonTapeWrapped" : "_jsonTapeType") { $0.\(property.name) }"
                    lines.append("let \(Self.local(property)) = try object.\(call)(\(type), forKey: \(property.key))")
                    textLines.append("let \(Self.local(property)) = try reader.\(call)(\(type), forKey: \(property.key), in: &object)")
                }
                textLines.append("try reader.close(&object)")
                let assignments = decoded.map { "self.\($0.name) = \(Self.local($0))" }
                members.append(function("public init(jsonTape value: borrowing HTTPSerializationCodable.JSONTapeValue) throws", lines + assignments))
                if let documentOrder {
                    // Two initializers the reader picks between by the object's first key; each
                    // sets every property (a `let` with a value too), which `self = ...` could not.
                    members.append(function(textReaderSignature, [
                        "var object = try reader.object()",
                        "if reader.starts(with: \(decoded[0].key), in: object) {",
                        "    try self.init(_jsonTapeKeyed: &reader, object: &object)",
                        "} else {",
                        "    try self.init(_jsonTapeDocumentOrder: &reader, object: &object)",
                        "}",
                    ]))
                    // Called, not inlined, as the document-order reader is: inlined, each model's
                    // array loop carried a copy (0.7 KB a model in Scripts/macro-size.sh, no
                    // difference in the generated-readers benchmark lines).
                    members.append(function("@inline(never) init(_jsonTapeKeyed reader: inout HTTPSerializationCodable.JSONTextReader, object: inout HTTPSerializationCodable.JSONTextReader.Object) throws", textLines + assignments))
                    members.append(documentOrder)
                } else {
                    members.append(function(textReaderSignature, textLines + assignments))
                }
            }
            // Synthesized `encode(to:)` asks for its container even with no keys (an empty object).
            if writes, model.properties.isEmpty {
                members.append(function("public func encode(jsonTape writer: HTTPSerializationCodable.JSONTapeWriter) throws", ["_ = writer.object()"]))
            } else if writes {
                var lines = ["var object = writer.object()"]
                for property in model.properties {
                    lines.append("try object.\(property.isOptional ? "encodeIfPresent" : "encode")(self.\(property.name), forKey: \(property.key))")
                }
                members.append(function("public func encode(jsonTape writer: HTTPSerializationCodable.JSONTapeWriter) throws", lines))
            }
            return (members, unreadConstants, readerless)
        }
        if let enumeration = declaration.as(EnumDeclSyntax.self) {
            try CodableModel.refuseCustomCoding(in: enumeration, name: enumeration.name.text, reads: reads, writes: writes)
            for member in enumeration.memberBlock.members {
                guard let cases = member.decl.as(EnumCaseDeclSyntax.self) else { continue }
                if let element = cases.elements.first(where: { $0.parameterClause != nil }) {
                    throw CodableModel.Refusal(node: Syntax(element), message: "@GeneratedJSONCoding reads enums with raw values; \(element.name.text) has associated values")
                }
            }
            guard hasRawType(enumeration) else {
                throw CodableModel.Refusal(node: Syntax(enumeration.name), message: "@GeneratedJSONCoding reads an enum by its raw value; give \(enumeration.name.text) a raw type such as String or Int as its first inherited type")
            }
            if reads {
                members.append(function("public init(jsonTape value: borrowing HTTPSerializationCodable.JSONTapeValue) throws", ["self = try value.decodeRawValue(of: Self.self)"]))
                members.append(function(textReaderSignature, ["self = try reader.decodeRawValue(of: Self.self)"]))
            }
            if writes {
                members.append(function("public func encode(jsonTape writer: HTTPSerializationCodable.JSONTapeWriter) throws", ["try writer.encodeRawValue(self)"]))
            }
            return (members, [], [])
        }
        throw CodableModel.Refusal(node: Syntax(declaration), message: "@GeneratedJSONCoding applies to a struct or an enum with raw values")
    }

    /// The text reader's path for an object whose first key is not the model's: members
    /// matched in the document's order, each once where it stands, their values read into
    /// slots there (strings only noted, and made once the object is read, in the model's
    /// order), then `self` set from the slots. A repeated key keeps its first value, as the
    /// keyed reads do. An initializer of its own, never inlined, so that the keyed path stays
    /// as small as it was (and inlined where it was). None for a model that reads one property
    /// (every order is its own), or one with a key that is not plain ASCII (which the reader
    /// leaves to the tape).
    static func documentOrderReader(for decoded: [CodableModel.Property], helpers: [String]) -> String? {
        guard decoded.count > 1, decoded.allSatisfy({ isPlainKey($0.key) }) else { return nil }
        var lines = helpers
        lines += decoded.map { "var \(slot($0)) = HTTPSerializationCodable.JSONTextReader.Slot(\($0.isOptional ? "_jsonTapeWrapped" : "_jsonTapeType") { $0.\($0.name) })" }
        lines.append("while let _jsonTapeMember = try reader.nextMember(in: &object) {")
        for (position, property) in decoded.enumerated() {
            lines.append("    \(position == 0 ? "if" : "} else if") try reader.member(_jsonTapeMember, is: \(property.key)) {")
            lines.append("        try reader.read(into: &\(slot(property)))")
        }
        lines += ["    } else {", "        try reader.skipValue()", "    }", "}"]
        lines += decoded.map { "let \(local($0)) = try reader.\($0.isOptional ? "decodeIfPresent" : "decode")(from: \(slot($0)))" }
        lines += decoded.map { "self.\($0.name) = \(local($0))" }
        return function("@inline(never) init(_jsonTapeDocumentOrder reader: inout HTTPSerializationCodable.JSONTextReader, object: inout HTTPSerializationCodable.JSONTextReader.Object) throws", lines)
    }

    /// The `CodingKeys` synthesized `Codable` would make (private, no raw type, a case per coded
    /// property), for a struct that declares none in its body: synthesized `Codable` takes them
    /// from here, and keys the macro cannot see (declared in an extension, which the generated
    /// code would not use) are a redeclaration error, not a silent disagreement. An empty model
    /// needs none: keys in an extension would name no property, which `Codable` refuses already.
    static func codingKeys(for properties: [CodableModel.Property]) -> String {
        let lines = ["// @GeneratedJSONCoding reads CodingKeys from the type's body only: declare them there, not in an extension."]
            + properties.map { "case \($0.name)" }
        return function("private enum CodingKeys: CodingKey", lines)
    }

    /// The slot the document-order path notes `property`'s value in.
    static func slot(_ property: CodableModel.Property) -> String {
        property.name.hasPrefix("`") ? "`_jsonTapeSlot_" + property.plainName + "`" : "_jsonTapeSlot_" + property.plainName
    }

    /// Whether a key's literal is a plain one: quoted ASCII text with no escape and no quote.
    static func isPlainKey(_ literal: String) -> Bool {
        let bytes = Array(literal.utf8)
        guard bytes.count >= 2, bytes.first == UInt8(ascii: "\""), bytes.last == UInt8(ascii: "\"") else { return false }
        return bytes.dropFirst().dropLast().allSatisfy { $0 >= 0x20 && $0 < 0x7F && $0 != UInt8(ascii: "\"") && $0 != UInt8(ascii: "\\") }
    }

    /// The local a generated reader reads `property` into: in backticks when the property's
    /// name is (a keyword, or a raw identifier such as `` `two words` ``, needs them).
    static func local(_ property: CodableModel.Property) -> String {
        property.name.hasPrefix("`") ? "`_jsonTape_" + property.plainName + "`" : "_jsonTape_" + property.plainName
    }

    /// The local functions that give a property's type, or its wrapped type for an optional,
    /// from a closure that reads it: the ones `properties` need. Their generic parameter has a
    /// name no model's is likely to have: one that shadowed the model's own (`Page<Value>`)
    /// would be an error in the Swift 6 language mode.
    static func typeHelpers(for properties: [CodableModel.Property]) -> [String] {
        var helpers: [String] = []
        if properties.contains(where: { !$0.isOptional }) {
            helpers.append("func _jsonTapeType<_JSONTapeProperty>(_ property: (Self) -> _JSONTapeProperty) -> _JSONTapeProperty.Type { _JSONTapeProperty.self }")
        }
        if properties.contains(where: \.isOptional) {
            helpers.append("func _jsonTapeWrapped<_JSONTapeProperty>(_ property: (Self) -> _JSONTapeProperty?) -> _JSONTapeProperty.Type { _JSONTapeProperty.self }")
        }
        return helpers
    }

    /// The signature of the reader over JSON text (``JSONTapeDecodable/init(jsonText:)``).
    static let textReaderSignature = "public init(jsonText reader: inout HTTPSerializationCodable.JSONTextReader) throws"

    /// A member function's source.
    static func function(_ signature: String, _ lines: [String]) -> String {
        lines.isEmpty ? signature + " {\n}" : signature + " {\n" + lines.map { "    " + $0 }.joined(separator: "\n") + "\n}"
    }

    /// Whether the enum declares a raw type: a case with a raw value, or a first inherited
    /// type that is one of the standard raw types (a protocol such as `Codable` is not).
    static func hasRawType(_ enumeration: EnumDeclSyntax) -> Bool {
        let rawTypes: Set<String> = ["String", "Character", "Int", "Int8", "Int16", "Int32", "Int64", "UInt", "UInt8", "UInt16", "UInt32", "UInt64", "Double", "Float"]
        if let first = enumeration.inheritanceClause?.inheritedTypes.first?.type.trimmedDescription,
           rawTypes.contains(first.hasPrefix("Swift.") ? String(first.dropFirst(6)) : first) {
            return true
        }
        return enumeration.memberBlock.members.contains { member in
            member.decl.as(EnumCaseDeclSyntax.self)?.elements.contains { $0.rawValue != nil } ?? false
        }
    }
}

extension String {
    /// The name without a leading `Swift.`.
    var replacingSwiftPrefix: String { hasPrefix("Swift.") ? String(dropFirst(6)) : self }
}

extension Substring {
    /// The text without spaces around it.
    var trimmingSpaces: String { String(drop { $0 == " " }.reversed().drop { $0 == " " }.reversed()) }
}

/// A refusal (an error) or a warning, as the compiler shows it.
struct GeneratedJSONCodingMessage: DiagnosticMessage {
    let message: String
    var severity: DiagnosticSeverity = .error
    var diagnosticID: MessageID { MessageID(domain: "HTTPSerializationMacros", id: "GeneratedJSONCoding") }
}
#endif
