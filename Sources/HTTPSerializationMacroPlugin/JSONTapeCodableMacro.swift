#if Macros
import SwiftDiagnostics
import SwiftSyntax
import SwiftSyntaxBuilder
import SwiftSyntaxMacros

/// `@JSONTapeCodable`: writes a struct's `JSONTapeDecodable` reader from its stored properties
/// and coding keys, or an enum's from its raw values.
public struct JSONTapeCodableMacro: ExtensionMacro {
    public static func expansion(
        of node: AttributeSyntax, attachedTo declaration: some DeclGroupSyntax, providingExtensionsOf type: some TypeSyntaxProtocol,
        conformingTo protocols: [TypeSyntax], in context: some MacroExpansionContext
    ) throws -> [ExtensionDeclSyntax] {
        let access = accessModifier(of: declaration)
        let reader: String
        do throws(CodableModel.Refusal) {
            reader = try readerBody(for: declaration)
        } catch {
            context.diagnose(Diagnostic(node: error.node, message: JSONTapeCodableMessage(message: error.message)))
            return []
        }
        let conformance = protocols.isEmpty ? "" : ": HTTPSerializationCodable.JSONTapeDecodable"
        let source: DeclSyntax = """
            extension \(type.trimmed)\(raw: conformance) {
                \(raw: access)init(jsonTape value: HTTPSerializationCodable.JSONTapeValue) throws {
                    \(raw: reader)
                }
            }
            """
        guard let ext = source.as(ExtensionDeclSyntax.self) else { return [] }
        return [ext]
    }

    /// The statements of `init(jsonTape:)`.
    static func readerBody(for declaration: some DeclGroupSyntax) throws(CodableModel.Refusal) -> String {
        if let structure = declaration.as(StructDeclSyntax.self) {
            let model = try CodableModel(struct: structure)
            guard !model.properties.isEmpty else { return "_ = try value.object()" }
            var lines = ["var object = try value.object()"]
            for property in model.properties {
                let call = property.isOptional ? "decodeIfPresent" : "decode"
                lines.append("self.\(property.name) = try object.\(call)(forKey: \(property.key))")
            }
            return lines.joined(separator: "\n")
        }
        if let enumeration = declaration.as(EnumDeclSyntax.self) {
            for member in enumeration.memberBlock.members {
                guard let cases = member.decl.as(EnumCaseDeclSyntax.self) else { continue }
                if let element = cases.elements.first(where: { $0.parameterClause != nil }) {
                    throw CodableModel.Refusal(node: Syntax(element), message: "@JSONTapeCodable reads enums with raw values; \(element.name.text) has associated values")
                }
            }
            guard hasRawType(enumeration) else {
                throw CodableModel.Refusal(node: Syntax(enumeration.name), message: "@JSONTapeCodable reads an enum by its raw value; give \(enumeration.name.text) a raw type such as String or Int as its first inherited type")
            }
            return "self = try value.decodeRawValue(of: Self.self)"
        }
        throw CodableModel.Refusal(node: Syntax(declaration), message: "@JSONTapeCodable applies to a struct or an enum with raw values")
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

    /// The access modifier the reader needs to satisfy the conformance: the type's own.
    static func accessModifier(of declaration: some DeclGroupSyntax) -> String {
        for modifier in declaration.modifiers {
            switch modifier.name.tokenKind {
            case .keyword(.public), .keyword(.open): return "public "
            case .keyword(.package): return "package "
            default: continue
            }
        }
        return ""
    }
}

/// A refusal as the compiler shows it.
struct JSONTapeCodableMessage: DiagnosticMessage {
    let message: String
    var diagnosticID: MessageID { MessageID(domain: "HTTPSerializationMacros", id: "JSONTapeCodable") }
    var severity: DiagnosticSeverity { .error }
}
#endif
