#if Macros
import SwiftDiagnostics
import SwiftSyntax

/// What synthesized `Codable` reads and writes of a type, found in its declaration as the
/// compiler finds it: the coded properties in its order (the `CodingKeys` cases' order when
/// there is such an enum, else the declaration's), each with its key (the property's name, or
/// its case's raw value), and whether it is optional.
struct CodableModel {
    struct Property {
        /// The name as `self.<name>` spells it (backticks kept).
        var name: String
        /// The name without backticks: what `CodingKeys` calls it.
        var plainName: String
        /// The key as a string literal in Swift source.
        var key: String
        /// `T?`, `T!` or `Optional<T>`: read with `decodeIfPresent` and written with
        /// `encodeIfPresent`, as synthesized `Codable` does.
        var isOptional: Bool
        /// False for a `let` with a value: written, never read, as synthesized `Codable` does.
        var isDecoded = true
        /// The binding's name in the source, where a diagnostic about the property points.
        var node: Syntax
        /// The part of its written type known to have no generated reader, if any.
        var readerless: String? = nil
    }

    /// Why a declaration cannot have generated code, at the node that says so.
    struct Refusal: Error {
        var node: Syntax
        var message: String
    }

    var properties: [Property] = []
    /// Whether the type declares its own `CodingKeys` enum in its body.
    var declaresCodingKeys = false

    /// The coded properties of a struct, or the reason the macro cannot write its code.
    init(struct declaration: StructDeclSyntax) throws(Refusal) {
        let members = declaration.memberBlock.members.map(\.decl)
        try Self.refuseHiddenMembers(members)
        var stored: [Property] = []
        for member in members {
            guard let variable = member.as(VariableDeclSyntax.self) else { continue }
            try Self.storedProperties(variable, into: &stored)
        }
        guard let keys = try Self.codingKeys(in: members) else {
            properties = stored
            return
        }
        declaresCodingKeys = true
        // As synthesized `Codable`: the properties `CodingKeys` names, in its cases' order.
        properties = keys.compactMap { name, key in
            stored.first { $0.plainName == name }.map { property in
                var property = property
                property.key = key
                return property
            }
        }
    }

    /// Refuses a type whose own `init(from:)` (when `reads`) or `encode(to:)` (when `writes`)
    /// does something generated code would not. One declared in an extension is not seen.
    static func refuseCustomCoding(in declaration: some DeclGroupSyntax, name: String, reads: Bool, writes: Bool) throws(Refusal) {
        for member in declaration.memberBlock.members {
            if reads, let initializer = member.decl.as(InitializerDeclSyntax.self), isDecodingInitializer(initializer) {
                throw Refusal(node: Syntax(initializer), message: "\(name) has its own init(from:); a generated reader would not do what it does. Remove @GeneratedJSONCoding, or the custom init(from:)")
            }
            if writes, let function = member.decl.as(FunctionDeclSyntax.self), isEncodingFunction(function) {
                throw Refusal(node: Syntax(function), message: "\(name) has its own encode(to:); a generated writer would not do what it does. Remove @GeneratedJSONCoding, or the custom encode(to:)")
            }
        }
    }

    /// `init(from: some Decoder)`, spelled any way that names a decoder.
    static func isDecodingInitializer(_ initializer: InitializerDeclSyntax) -> Bool {
        let parameters = initializer.signature.parameterClause.parameters
        guard parameters.count == 1, let parameter = parameters.first, parameter.firstName.text == "from" else { return false }
        return parameter.type.trimmedDescription.contains("Decoder")
    }

    /// `func encode(to: some Encoder)`, spelled any way that names an encoder.
    static func isEncodingFunction(_ function: FunctionDeclSyntax) -> Bool {
        let parameters = function.signature.parameterClause.parameters
        guard function.name.text == "encode", parameters.count == 1, let parameter = parameters.first, parameter.firstName.text == "to" else { return false }
        return parameter.type.trimmedDescription.contains("Encoder")
    }

    /// Refuses stored properties, coding keys or coding functions inside `#if`: the macro sees
    /// one spelling of the source, not the configuration the compiler builds.
    static func refuseHiddenMembers(_ members: [DeclSyntax]) throws(Refusal) {
        for member in members {
            guard let conditional = member.as(IfConfigDeclSyntax.self) else { continue }
            for clause in conditional.clauses {
                guard case .decls(let inner)? = clause.elements else { continue }
                for item in inner {
                    let decl = item.decl
                    let hidden = decl.as(VariableDeclSyntax.self).map { variable in
                        !variable.modifiers.contains { ["static", "class"].contains($0.name.text) }
                            && variable.bindings.contains { $0.accessorBlock.map(isComputed) != true }
                    } ?? false
                    let keys = decl.as(EnumDeclSyntax.self)?.name.text == "CodingKeys" || decl.as(StructDeclSyntax.self)?.name.text == "CodingKeys"
                    let coding = decl.as(InitializerDeclSyntax.self).map(isDecodingInitializer) ?? false
                        || decl.as(FunctionDeclSyntax.self).map(isEncodingFunction) ?? false
                    if hidden || keys || coding || decl.is(IfConfigDeclSyntax.self) {
                        throw Refusal(node: Syntax(decl), message: "@GeneratedJSONCoding does not see stored properties, coding keys or coding functions inside #if; move it out of the #if, or remove @GeneratedJSONCoding")
                    }
                }
            }
        }
    }

    /// The keys a nested `CodingKeys` enum gives, by case name, in its order; nil when there is none.
    static func codingKeys(in members: [DeclSyntax]) throws(Refusal) -> [(name: String, key: String)]? {
        for member in members {
            if let alias = member.as(TypeAliasDeclSyntax.self), alias.name.text == "CodingKeys" {
                throw Refusal(node: Syntax(alias), message: "CodingKeys is a type alias; @GeneratedJSONCoding reads the cases of a CodingKeys enum declared in the type")
            }
            if let structKeys = member.as(StructDeclSyntax.self), structKeys.name.text == "CodingKeys" {
                throw Refusal(node: Syntax(structKeys), message: "CodingKeys is a struct; @GeneratedJSONCoding reads the cases of a CodingKeys enum")
            }
            guard let keys = member.as(EnumDeclSyntax.self), keys.name.text == "CodingKeys" else { continue }
            var found: [(name: String, key: String)] = []
            for item in keys.memberBlock.members {
                if let variable = item.decl.as(VariableDeclSyntax.self),
                   variable.bindings.contains(where: { $0.pattern.as(IdentifierPatternSyntax.self)?.identifier.text == "stringValue" }) {
                    throw Refusal(node: Syntax(variable), message: "CodingKeys computes its own stringValue; @GeneratedJSONCoding needs each key as a raw value it can read")
                }
                if item.decl.is(IfConfigDeclSyntax.self) {
                    throw Refusal(node: Syntax(item.decl), message: "@GeneratedJSONCoding does not see coding keys inside #if; move them out of the #if, or remove @GeneratedJSONCoding")
                }
                guard let cases = item.decl.as(EnumCaseDeclSyntax.self) else { continue }
                for element in cases.elements {
                    let name = unescaped(element.name.text)
                    if let raw = element.rawValue?.value {
                        guard let literal = raw.as(StringLiteralExprSyntax.self), literal.segments.allSatisfy({ $0.is(StringSegmentSyntax.self) }) else {
                            throw Refusal(node: Syntax(raw), message: "the raw value of CodingKeys.\(name) is not a string literal; @GeneratedJSONCoding needs the key as written")
                        }
                        found.append((name, literal.trimmedDescription))
                    } else {
                        found.append((name, literalText(name)))
                    }
                }
            }
            return found
        }
        return nil
    }

    /// The stored instance properties `variable` declares, in order, as synthesized `Codable`
    /// codes them: computed and static ones are left out, constants with a value only written.
    static func storedProperties(_ variable: VariableDeclSyntax, into properties: inout [Property]) throws(Refusal) {
        let modifiers = variable.modifiers.map(\.name.text)
        if modifiers.contains("static") || modifiers.contains("class") { return }
        let bindings = Array(variable.bindings)
        if bindings.allSatisfy({ $0.accessorBlock.map(isComputed) == true }) { return }
        if modifiers.contains("lazy") {
            throw Refusal(node: Syntax(variable), message: "lazy properties are not coded by @GeneratedJSONCoding; make it a plain stored property or a computed one")
        }
        // A property wrapper is a type, so its attribute is capitalized (`@Published`); the
        // language's own attributes (`@available`, `@usableFromInline`) are not.
        if let wrapper = variable.attributes.first(where: { attribute in
            guard let name = attribute.as(AttributeSyntax.self)?.attributeName.trimmedDescription else { return false }
            return name.first?.isUppercase == true && name != "MainActor"
        }) {
            throw Refusal(node: Syntax(wrapper), message: "property wrappers change what Codable reads and writes; @GeneratedJSONCoding codes plain stored properties only")
        }
        let isConstant = variable.bindingSpecifier.tokenKind == .keyword(.let)
        for (index, binding) in bindings.enumerated() {
            if let accessors = binding.accessorBlock, isComputed(accessors) { continue }
            // `let x = 1` is written but never read, as in synthesized `Codable`.
            let isDecoded = !(isConstant && binding.initializer != nil)
            guard let identifier = binding.pattern.as(IdentifierPatternSyntax.self) else {
                throw Refusal(node: Syntax(binding.pattern), message: "a tuple pattern declares several properties at once; declare each on its own for @GeneratedJSONCoding")
            }
            // `var a, b: Int`: the type written last is each earlier name's too.
            let type = binding.typeAnnotation?.type
                ?? (binding.initializer == nil ? bindings[index...].lazy.compactMap(\.typeAnnotation?.type).first : nil)
            let name = identifier.identifier.text
            let plain = unescaped(name)
            properties.append(Property(name: name, plainName: plain, key: literalText(plain), isOptional: type.map(isOptional) ?? false, isDecoded: isDecoded,
                                       node: Syntax(identifier), readerless: type.flatMap(ReaderlessTypes.readerless(in:))))
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
        if let tuple = type.as(TupleTypeSyntax.self), tuple.elements.count == 1, let only = tuple.elements.first, only.firstName == nil {
            return isOptional(only.type)
        }
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
