#if Macros
import SwiftSyntax

/// Property types the macro can tell, from their spelling alone, have no generated reader:
/// a dictionary keyed by a number, a `UUID` or another type known not to be a `String`, and the
/// standard library's and Foundation's `Codable` types the package does not read from the text
/// (taken by name: a type of your own named `Range` is taken for the standard library's). A
/// decode that finds a value for such a property (or an optional, array or set of one, or a
/// dictionary holding one) goes back to the parse, which the macro says in a remark where the
/// property is declared. A key spelled through a type alias may be a `String`: no remark.
enum ReaderlessTypes {
    /// Dictionary key types known not to be `String`.
    static let keyNames: Set<String> = [
        "Int", "Int8", "Int16", "Int32", "Int64", "UInt", "UInt8", "UInt16", "UInt32", "UInt64",
        "Double", "Float", "Bool", "UUID", "Date", "URL", "Character", "Substring",
    ]

    /// Modules whose names qualify the types above; another module's `Range` is its own.
    static let modules: Set<String> = ["Swift", "Foundation", "FoundationEssentials", "CoreGraphics"]

    /// Type names (unqualified, or qualified by one of ``modules``) with no reader of their own.
    static let names: Set<String> = [
        "Locale", "TimeZone", "Calendar", "DateComponents", "DateInterval", "Measurement", "PersonNameComponents",
        "IndexSet", "IndexPath", "URLComponents", "AttributedString", "CGFloat", "CGPoint", "CGSize", "CGRect",
        "CGVector", "CGAffineTransform", "Int128", "UInt128", "Float16", "Duration", "Range", "ClosedRange",
        "ContiguousArray", "CollectionDifference",
    ]

    /// The part of `type` that has no reader, as written, or nil where every part may have one.
    static func readerless(in type: TypeSyntax) -> String? {
        if let optional = type.as(OptionalTypeSyntax.self) { return readerless(in: optional.wrappedType) }
        if let unwrapped = type.as(ImplicitlyUnwrappedOptionalTypeSyntax.self) { return readerless(in: unwrapped.wrappedType) }
        if let array = type.as(ArrayTypeSyntax.self) { return readerless(in: array.element) }
        if let attributed = type.as(AttributedTypeSyntax.self) { return readerless(in: attributed.baseType) }
        if let dictionary = type.as(DictionaryTypeSyntax.self) {
            return readerless(dictionary: type, key: dictionary.key, value: dictionary.value)
        }
        guard let named = name(of: type) else { return nil }
        if names.contains(named.name) { return type.trimmedDescription }
        switch (named.name, named.arguments.count) {
        case ("Optional", 1), ("Array", 1), ("Set", 1): return readerless(in: named.arguments[0])
        case ("Dictionary", 2): return readerless(dictionary: type, key: named.arguments[0], value: named.arguments[1])
        default: return nil
        }
    }

    /// A dictionary is read from the text when its keys are `String`s and its values have
    /// readers; one keyed by a type known not to be a `String` is not.
    private static func readerless(dictionary: TypeSyntax, key: TypeSyntax, value: TypeSyntax) -> String? {
        if let keyName = name(of: key), keyNames.contains(keyName.name), keyName.arguments.isEmpty { return dictionary.trimmedDescription }
        return readerless(in: value)
    }

    /// A named type's last name and generic arguments, when unqualified or qualified by one of
    /// ``modules``; nil for any other spelling.
    private static func name(of type: TypeSyntax) -> (name: String, arguments: [TypeSyntax])? {
        if let identifier = type.as(IdentifierTypeSyntax.self) {
            return (identifier.name.text, arguments(identifier.genericArgumentClause))
        }
        if let member = type.as(MemberTypeSyntax.self), let module = member.baseType.as(IdentifierTypeSyntax.self),
           modules.contains(module.name.text) {
            return (member.name.text, arguments(member.genericArgumentClause))
        }
        return nil
    }

    private static func arguments(_ clause: GenericArgumentClauseSyntax?) -> [TypeSyntax] {
        clause?.arguments.compactMap { Syntax($0.argument).as(TypeSyntax.self) } ?? []
    }

    /// The remark for property `name`, whose type holds `readerless`.
    static func remark(property name: String, readerless: String) -> String {
        "'\(name)' holds \(readerless), which has no generated reader: a decode by JSONBodyDecoder that finds a value for it leaves the fast path and reads the document again through the parse, at about half the speed (JSONBodyDecoder.onTextReaderFallback reports each at run time)"
    }
}
#endif
