#if Macros
import SwiftDiagnostics
import SwiftSyntax

/// What synthesized `Codable` reads and writes of a type, found in its declaration as the
/// compiler finds it: the stored properties in order, each with its key (the property's name,
/// or its `CodingKeys` case's raw value), and whether it is optional.
struct CodableModel {
    struct Property {
        /// The name as `self.<name>` spells it.
        var name: String
        /// The key as a string literal in Swift source.
        var key: String
        /// `T?`, `T!` or `Optional<T>`: read with `decodeIfPresent`, as synthesized `Codable` does.
        var isOptional: Bool
    }

    /// Why a declaration cannot have generated readers, at the node that says so.
    struct Refusal: Error {
        var node: Syntax
        var message: String
    }

    var properties: [Property] = []

    /// The coded properties of a struct, or the reason it has none the macro can write.
    init(struct declaration: StructDeclSyntax) throws(Refusal) {
        let members = declaration.memberBlock.members.map(\.decl)
        for member in members {
            if let initializer = member.as(InitializerDeclSyntax.self), Self.isDecodingInitializer(initializer) {
                throw Refusal(node: Syntax(initializer), message: "\(declaration.name.text) has its own init(from:); a generated reader would not do what it does. Remove @JSONTapeCodable, or the custom init(from:)")
            }
        }
        let keys = try Self.codingKeys(in: members)
        var stored: [Property] = []
        for member in members {
            guard let variable = member.as(VariableDeclSyntax.self) else { continue }
            try Self.storedProperties(variable, into: &stored)
        }
        if let keys {
            // As synthesized `Codable`: exactly the properties `CodingKeys` names, in declaration order.
            properties = stored.compactMap { property in
                keys[property.name].map { Property(name: property.name, key: $0, isOptional: property.isOptional) }
            }
        } else {
            properties = stored
        }
    }

    /// Whether `initializer` is `init(from:)` with one parameter, a `Decoder`'s.
    static func isDecodingInitializer(_ initializer: InitializerDeclSyntax) -> Bool {
        let parameters = initializer.signature.parameterClause.parameters
        return parameters.count == 1 && parameters.first?.firstName.text == "from"
    }

    /// The keys a nested `CodingKeys` enum gives, by case name; nil when there is none.
    static func codingKeys(in members: [DeclSyntax]) throws(Refusal) -> [String: String]? {
        for member in members {
            if let structKeys = member.as(StructDeclSyntax.self), structKeys.name.text == "CodingKeys" {
                throw Refusal(node: Syntax(structKeys), message: "CodingKeys is a struct; @JSONTapeCodable reads the cases of a CodingKeys enum")
            }
            guard let keys = member.as(EnumDeclSyntax.self), keys.name.text == "CodingKeys" else { continue }
            var found: [String: String] = [:]
            for item in keys.memberBlock.members {
                guard let cases = item.decl.as(EnumCaseDeclSyntax.self) else { continue }
                for element in cases.elements {
                    let name = unescaped(element.name.text)
                    if let raw = element.rawValue?.value {
                        guard let literal = raw.as(StringLiteralExprSyntax.self), literal.segments.allSatisfy({ $0.is(StringSegmentSyntax.self) }) else {
                            throw Refusal(node: Syntax(raw), message: "the raw value of CodingKeys.\(name) is not a string literal; @JSONTapeCodable needs the key as written")
                        }
                        found[name] = literal.trimmedDescription
                    } else {
                        found[name] = literalText(name)
                    }
                }
            }
            return found
        }
        return nil
    }

    /// The stored instance properties `variable` declares, in order, as synthesized `Codable`
    /// codes them: computed ones, static ones and constants with a value are left out.
    static func storedProperties(_ variable: VariableDeclSyntax, into properties: inout [Property]) throws(Refusal) {
        let modifiers = variable.modifiers.map(\.name.text)
        if modifiers.contains("static") || modifiers.contains("class") { return }
        if modifiers.contains("lazy") {
            throw Refusal(node: Syntax(variable), message: "lazy properties are not coded by @JSONTapeCodable; make it a plain stored property or a computed one")
        }
        if let wrapper = variable.attributes.first {
            throw Refusal(node: Syntax(wrapper), message: "property wrappers change what Codable writes; @JSONTapeCodable reads plain stored properties only")
        }
        let isConstant = variable.bindingSpecifier.tokenKind == .keyword(.let)
        let bindings = Array(variable.bindings)
        for (index, binding) in bindings.enumerated() {
            if let accessors = binding.accessorBlock, isComputed(accessors) { continue }
            // `let x = 1` is never decoded, as in synthesized `Codable`.
            if isConstant, binding.initializer != nil { continue }
            guard let identifier = binding.pattern.as(IdentifierPatternSyntax.self) else {
                throw Refusal(node: Syntax(binding.pattern), message: "a tuple pattern declares several properties at once; declare each on its own for @JSONTapeCodable")
            }
            // `var a, b: Int`: the type written last is each earlier name's too.
            let type = binding.typeAnnotation?.type
                ?? (binding.initializer == nil ? bindings[index...].lazy.compactMap(\.typeAnnotation?.type).first : nil)
            let name = unescaped(identifier.identifier.text)
            properties.append(Property(name: name, key: literalText(name), isOptional: type.map(isOptional) ?? false))
        }
    }

    /// Whether an accessor block makes a computed property (a getter), not observers.
    static func isComputed(_ accessors: AccessorBlockSyntax) -> Bool {
        switch accessors.accessors {
        case .getter: return true
        case .accessors(let list):
            return list.contains { ![.keyword(.willSet), .keyword(.didSet)].contains($0.accessorSpecifier.tokenKind) }
        }
    }

    static func isOptional(_ type: TypeSyntax) -> Bool {
        if type.is(OptionalTypeSyntax.self) || type.is(ImplicitlyUnwrappedOptionalTypeSyntax.self) { return true }
        if let named = type.as(IdentifierTypeSyntax.self) { return named.name.text == "Optional" && named.genericArgumentClause != nil }
        if let member = type.as(MemberTypeSyntax.self) {
            return member.baseType.trimmedDescription == "Swift" && member.name.text == "Optional" && member.genericArgumentClause != nil
        }
        if let attributed = type.as(AttributedTypeSyntax.self) { return isOptional(attributed.baseType) }
        return false
    }

    /// A name without the backticks that make a keyword one.
    static func unescaped(_ name: String) -> String {
        name.hasPrefix("`") && name.hasSuffix("`") && name.count > 1 ? String(name.dropFirst().dropLast()) : name
    }

    /// `text` as a Swift string literal.
    static func literalText(_ text: String) -> String {
        StringLiteralExprSyntax(content: text).trimmedDescription
    }
}
#endif
