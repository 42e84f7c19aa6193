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
        let local: Substring
    }

    private var bindings: [Substring: [Binding]] = ["xml": [Binding(namespace: xmlNamespace, id: 0)]]
    private var namespaceIDs: [String: Int] = [xmlNamespace: 0]
    private var log: [Substring] = []

    var mark: Int { log.count }

    /// Binds the element's namespace declarations and checks its names: `attributes` are
    /// those it sets (whose names are `names`), `defaults` those its ATTLIST declarations give.
    mutating func enter(element: String, attributes: [XMLAttribute], names: Set<String>, defaults: [XMLAttribute]) throws(Failure) {
        for attribute in attributes {
            if attribute.name == "xmlns" {
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
                bind("", attribute.value)
            } else if attribute.name.hasPrefix("xmlns:") {
                let prefix = attribute.name.dropFirst(6)
                if prefix == "xmlns" { throw Failure(message: "the prefix xmlns cannot be declared") }
                if prefix == "xml" {
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
                bind(prefix, attribute.value)
            }
        }
        // libxml2 applies the defaults the element does not set: a namespace declaration binds
        // (with none of the checks above, which libxml2 makes only on those written out), and
        // any other attribute is checked below as one of the element's own. A prefix already
        // bound to the value of the element's first default keeps that binding (libxml2
        // compares with that value, not the default's own); `xml` keeps its namespace, and
        // this reader never binds `xmlns` (libxml2 does, against Namespaces in XML).
        var checked = attributes
        for attribute in defaults where !names.contains(attribute.name) {
            if attribute.name == "xmlns" {
                bind("", attribute.value)
            } else if attribute.name.hasPrefix("xmlns:") {
                let prefix = attribute.name.dropFirst(6)
                if prefix != "xml", prefix != "xmlns", bindings[prefix]?.last?.namespace != defaults[0].value {
                    bind(prefix, attribute.value)
                }
            } else {
                checked.append(attribute)
            }
        }
        if let prefix = Self.prefix(of: element) {
            guard prefix != "xmlns", bindings[prefix]?.last != nil else { throw Failure(message: "the element prefix \(prefix) is not declared") }
        }
        var expandedNames = Set<ExpandedName>()
        for (index, attribute) in checked.enumerated() {
            guard let prefix = Self.prefix(of: attribute.name), prefix != "xmlns" else { continue }
            guard let binding = bindings[prefix]?.last else {
                throw Failure(message: index < attributes.count ? "the attribute prefix \(prefix) is not declared"
                    : "the prefix \(prefix) of the declared default \(attribute.name) is not declared")
            }
            let local = attribute.name.split(separator: ":", maxSplits: 1).last ?? ""
            guard expandedNames.insert(ExpandedName(namespace: binding.id, local: local)).inserted else {
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

    private mutating func bind(_ prefix: Substring, _ namespace: String) {
        let id = namespaceIDs[namespace] ?? namespaceIDs.count
        namespaceIDs[namespace] = id
        bindings[prefix, default: []].append(Binding(namespace: namespace, id: id))
        log.append(prefix)
    }

    private static func prefix(of name: String) -> Substring? {
        guard let colon = name.firstIndex(of: ":") else { return nil }
        return name[..<colon]
    }
}
