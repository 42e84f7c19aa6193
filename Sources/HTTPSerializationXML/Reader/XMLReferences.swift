import HTTPSerializationCore
/// Reads one reference (`&#65;`, `&#x41;`, `&amp;`, `&name;`) from UTF-8 bytes.
struct ReferenceScanner {
    enum Reference {
        case character(UInt32)
        case predefined(UInt8)
        /// A general entity, and the position after its `;`.
        case entity(String, after: Int)
    }

    let bytes: [UInt8]
    /// At the `&` before reading; after the `;` once read.
    var position: Int

    /// The five entities every XML document has.
    static func predefined(_ name: String) -> UInt8? {
        switch name {
        case "lt": return UInt8(ascii: "<")
        case "gt": return UInt8(ascii: ">")
        case "amp": return UInt8(ascii: "&")
        case "apos": return UInt8(ascii: "'")
        case "quot": return UInt8(ascii: "\"")
        default: return nil
        }
    }

    /// - Parameter offset: where errors are reported.
    mutating func read(at offset: Int) throws(XMLReadingError) -> Reference {
        position += 1
        guard position < bytes.count else { throw XMLReadingError(.notWellFormed("an unterminated reference"), offset: offset) }
        if bytes[position] == UInt8(ascii: "#") {
            return .character(try readCharacterReference(at: offset))
        }
        let start = position
        guard let end = XMLNames.nameEnd(in: bytes, from: start, qualified: false) else {
            throw XMLReadingError(.notWellFormed("a reference without a valid name"), offset: offset)
        }
        guard end < bytes.count, bytes[end] == UInt8(ascii: ";") else {
            throw XMLReadingError(.notWellFormed("a reference without its \";\""), offset: offset)
        }
        let name = String(decoding: bytes[start..<end], as: UTF8.self)
        position = end + 1
        if let byte = Self.predefined(name) { return .predefined(byte) }
        return .entity(name, after: position)
    }

    private mutating func readCharacterReference(at offset: Int) throws(XMLReadingError) -> UInt32 {
        position += 1
        let hex = position < bytes.count && bytes[position] == UInt8(ascii: "x")
        if hex { position += 1 }
        var value: UInt32 = 0
        var digits = 0
        while position < bytes.count, bytes[position] != UInt8(ascii: ";") {
            let byte = bytes[position]
            let digit: UInt32
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = UInt32(byte - UInt8(ascii: "0"))
            case UInt8(ascii: "a")...UInt8(ascii: "f") where hex: digit = UInt32(byte - UInt8(ascii: "a") + 10)
            case UInt8(ascii: "A")...UInt8(ascii: "F") where hex: digit = UInt32(byte - UInt8(ascii: "A") + 10)
            default: throw XMLReadingError(.notWellFormed("a malformed character reference"), offset: offset)
            }
            // Past U+10FFFF the value is invalid whatever follows; stop growing it.
            value = min(value * (hex ? 16 : 10) + digit, 0x110000)
            digits += 1
            position += 1
        }
        guard digits > 0, position < bytes.count else {
            throw XMLReadingError(.notWellFormed("a malformed character reference"), offset: offset)
        }
        position += 1
        guard XMLCharacters.isChar(value) else {
            throw XMLReadingError(.notWellFormed("a character reference to a character XML does not allow"), offset: offset)
        }
        return value
    }
}

enum XMLNames {
    /// The end of the `Name` starting at `start`, or nil when there is none. With `qualified`
    /// one colon may separate two parts (a QName); without, none is allowed (an NCName).
    static func nameEnd(in bytes: [UInt8], from start: Int, qualified: Bool) -> Int? {
        var index = start
        var colon: Int?
        while index < bytes.count {
            if bytes[index] == UInt8(ascii: ":") {
                guard qualified, colon == nil, index > start else { return nil }
                colon = index
                index += 1
                continue
            }
            let (scalar, length) = XMLCharacters.scalar(in: bytes, at: index)
            let first = index == start || index - 1 == colon
            guard first ? XMLCharacters.isNameStart(scalar) : XMLCharacters.isNameChar(scalar) else {
                if first { return nil }
                break
            }
            index += length
        }
        guard index > start, colon != index - 1 else { return nil }
        return index
    }
}

/// The namespace prefixes in scope, checked as Namespaces in XML 1.0 requires (libxml2
/// reports the same faults, and FoundationXML then fails the parse).
struct NamespaceScope {
    struct Failure: Error {
        let message: String
    }

    static let xmlNamespace = "http://www.w3.org/XML/1998/namespace"
    static let xmlnsNamespace = "http://www.w3.org/2000/xmlns/"

    /// A namespace bound to a prefix, with a number that stands for its name in checks, so
    /// each check costs the same however long the name is.
    private struct Binding {
        let namespace: String
        let id: Int
    }

    /// An attribute's expanded name, by its namespace's number.
    private struct ExpandedName: Hashable {
        let namespace: Int
        let local: XMLExactName
    }

    private var bindings: [XMLExactName: [Binding]] = [XMLExactName("xml"): [Binding(namespace: xmlNamespace, id: 0)]]
    private var namespaceIDs: [XMLExactName: Int] = [XMLExactName(xmlNamespace): 0]
    private var log: [XMLExactName] = []

    var mark: Int { log.count }

    /// Binds the element's namespace declarations and checks its names: `attributes` are
    /// those it sets (whose names are `names`), `defaults` those its ATTLIST declarations give.
    mutating func enter(element: String, attributes: [XMLAttribute], names: Set<XMLExactName>, defaults: [XMLAttribute]) throws(Failure) {
        for attribute in attributes {
            if XMLExactName.same(attribute.name, "xmlns") {
                guard attribute.value != Self.xmlNamespace, attribute.value != Self.xmlnsNamespace else {
                    throw Failure(message: "the default namespace cannot be \(attribute.value)")
                }
                guard URIReferenceSyntax.isValid(attribute.value) else {
                    throw Failure(message: "the default namespace \"\(attribute.value)\" is not a URI reference")
                }
                // Relative namespace names are deprecated; libxml2 warns of them for the
                // default namespace only (and `xmlns=""` undeclares it).
                guard attribute.value.isEmpty || URIReferenceSyntax.hasScheme(attribute.value) else {
                    throw Failure(message: "the default namespace \"\(attribute.value)\" is a relative URI reference")
                }
                bind(XMLExactName(""), attribute.value)
            } else if attribute.name.utf8.starts(with: "xmlns:".utf8) {
                let prefix = Self.declaredPrefix(attribute.name)
                if prefix.utf8.elementsEqual("xmlns".utf8) { throw Failure(message: "the prefix xmlns cannot be declared") }
                if prefix.utf8.elementsEqual("xml".utf8) {
                    guard attribute.value == Self.xmlNamespace else { throw Failure(message: "the prefix xml cannot be rebound") }
                } else {
                    guard attribute.value != Self.xmlNamespace, attribute.value != Self.xmlnsNamespace else {
                        throw Failure(message: "the prefix \(prefix) cannot be bound to \(attribute.value)")
                    }
                    guard !attribute.value.isEmpty else { throw Failure(message: "the prefix \(prefix) is bound to an empty namespace name") }
                    guard URIReferenceSyntax.isValid(attribute.value) else {
                        throw Failure(message: "the namespace \"\(attribute.value)\" of the prefix \(prefix) is not a URI reference")
                    }
                }
                bind(XMLExactName(prefix), attribute.value)
            }
        }
        // libxml2 applies the defaults the element does not set: a namespace declaration binds
        // (with none of the checks above, which libxml2 makes only on those written out), and
        // any other attribute is checked below as one of the element's own. A prefix already
        // bound to the value of the element's first default keeps that binding (libxml2
        // compares with that value, not the default's own); `xml` keeps its namespace, and
        // this reader never binds `xmlns` (libxml2 does, against Namespaces in XML).
        var checked = attributes
        // The first default's namespace number, looked up once (by the first default that
        // declares a prefix): nil when no binding can hold it.
        var firstDefault: Int?? = .none
        for attribute in defaults where !names.contains(XMLExactName(attribute.name)) {
            if XMLExactName.same(attribute.name, "xmlns") {
                bind(XMLExactName(""), attribute.value)
            } else if attribute.name.utf8.starts(with: "xmlns:".utf8) {
                let prefix = XMLExactName(Self.declaredPrefix(attribute.name))
                guard !XMLExactName.same(prefix.text, "xml"), !XMLExactName.same(prefix.text, "xmlns") else { continue }
                if firstDefault == nil { firstDefault = .some(namespaceIDs[XMLExactName(defaults[0].value)]) }
                if let id = firstDefault ?? nil, bindings[prefix]?.last?.id == id { continue }
                bind(prefix, attribute.value)
            } else {
                checked.append(attribute)
            }
        }
        if let prefix = Self.prefix(of: element) {
            guard !XMLExactName.same(prefix.text, "xmlns"), bindings[prefix]?.last != nil else {
                throw Failure(message: "the element prefix \(prefix.text) is not declared")
            }
        }
        var expandedNames = Set<ExpandedName>()
        for (index, attribute) in checked.enumerated() {
            guard let prefix = Self.prefix(of: attribute.name), !XMLExactName.same(prefix.text, "xmlns") else { continue }
            guard let binding = bindings[prefix]?.last else {
                throw Failure(message: index < attributes.count ? "the attribute prefix \(prefix.text) is not declared"
                    : "the prefix \(prefix.text) of the declared default \(attribute.name) is not declared")
            }
            let local = Self.localName(of: attribute.name)
            guard expandedNames.insert(ExpandedName(namespace: binding.id, local: XMLExactName(local))).inserted else {
                throw Failure(message: "the attribute \(local) appears twice in the namespace \(binding.namespace)")
            }
        }
    }

    mutating func leave(to mark: Int) {
        while log.count > mark {
            let prefix = log.removeLast()
            bindings[prefix]?.removeLast()
        }
    }

    private mutating func bind(_ prefix: XMLExactName, _ namespace: String) {
        let key = XMLExactName(namespace)
        let id = namespaceIDs[key] ?? namespaceIDs.count
        namespaceIDs[key] = id
        bindings[prefix, default: []].append(Binding(namespace: namespace, id: id))
        log.append(prefix)
    }

    /// The prefix an `xmlns:` attribute declares: what follows its first six bytes.
    private static func declaredPrefix(_ name: String) -> Substring {
        name[name.utf8.index(name.startIndex, offsetBy: 6)...]
    }

    /// The part of a qualified name after its colon. (Found by bytes: as a `Character`, the
    /// colon can join the combining mark a local name may start with.)
    private static func localName(of name: String) -> Substring {
        guard let colon = name.utf8.firstIndex(of: UInt8(ascii: ":")) else { return name[...] }
        return name[name.utf8.index(after: colon)...]
    }

    /// The part of a qualified name before its colon, if it has one.
    private static func prefix(of name: String) -> XMLExactName? {
        guard let colon = name.utf8.firstIndex(of: UInt8(ascii: ":")) else { return nil }
        return XMLExactName(name[..<colon])
    }
}
