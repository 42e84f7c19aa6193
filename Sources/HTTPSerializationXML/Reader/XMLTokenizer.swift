import HTTPSerializationCore
/// What the tokenizer reports: elements and the text between them. Comments, processing
/// instructions and the DTD are checked and skipped.
enum XMLToken: Equatable {
    case startElement(name: String, attributes: [XMLAttribute])
    case endElement(name: String)
    /// Character data with references expanded and line ends normalized; adjacent runs may
    /// arrive as several tokens.
    case text(String)
}

struct XMLAttribute: Equatable {
    var name: String
    var value: String
}

/// A strict, non-validating XML 1.0 tokenizer with Namespaces in XML 1.0 checks, over UTF-8
/// bytes. Iterative and linear: no recursion at any depth, attributes checked with hash sets,
/// entity expansion bounded by a byte budget and never re-entrant.
///
/// Entity references are expanded by reading their replacement text as a nested input (the
/// frames below), so a processing instruction or element that an entity produces is checked
/// exactly like one written in the document.
struct XMLTokenizer {
    private let policy: XMLReadingPolicy
    private let emitsText: Bool

    /// The input being read: the document, or the replacement text of the innermost entity.
    private var buffer: [UInt8]
    private var position: Int
    private var frames: [Frame] = []
    private var activeEntities: Set<XMLExactName> = []

    private var phase = Phase.prolog
    private var sawDocumentType = false
    private var openElements: [OpenElement] = []
    private var pendingEnd: String?
    private var namespaces = NamespaceScope()
    private var text: [UInt8] = []

    private var entities: [XMLExactName: Entity] = [:]
    private var attributeDefaults: [XMLExactName: AttributeDefaults] = [:]
    private let expansionBudget: Int
    private var expanded = 0

    private enum Phase { case prolog, content, epilog }

    /// The defaults an element's ATTLIST declarations give, which libxml2 (so FoundationXML)
    /// applies to every such element and checks as its own attributes.
    private struct AttributeDefaults {
        /// Every default declared, repeats and those an element overrides included, and their
        /// names' and values' bytes: what the limits count, for every element they apply to
        /// (more than FoundationXML copies into it, never less).
        var count = 0
        var bytes = 0
        /// Each attribute's first default, in declaration order (libxml2 ignores later ones).
        var first: [XMLAttribute] = []
        var names: Set<XMLExactName> = []
        /// Attributes first declared with a type other than CDATA, whose values lose their
        /// outer and repeated spaces (XML 1.0 §3.3.3), written or defaulted.
        var tokenized: Set<XMLExactName> = []

        /// Records a declared default; returns how many the element now has.
        mutating func add(_ name: String, _ value: String, isCDATA: Bool) -> Int {
            count += 1
            bytes += name.utf8.count + value.utf8.count
            if names.insert(XMLExactName(name)).inserted {
                first.append(XMLAttribute(name: name, value: isCDATA ? value : Self.collapsingSpaces(value)))
                if !isCDATA { tokenized.insert(XMLExactName(name)) }
            }
            return count
        }

        /// `value` without leading or trailing spaces, and each run of spaces as one.
        static func collapsingSpaces(_ value: String) -> String {
            String(decoding: Array(value.utf8.split(separator: UInt8(ascii: " ")).joined(separator: [UInt8(ascii: " ")])), as: UTF8.self)
        }
    }

    private struct Frame {
        /// The input suspended while an entity's text is read.
        var buffer: [UInt8]
        var position: Int
        /// The entity being read inside this frame.
        let entity: String
        let referenceOffset: Int
        let openElementCount: Int
    }

    private struct OpenElement {
        let name: String
        let frameDepth: Int
        let namespaceMark: Int
    }

    private enum Entity {
        case `internal`([UInt8])
        case external
    }

    /// - Parameters:
    ///   - bytes: valid UTF-8 (see ``XMLEncoding``), optionally with a byte-order mark.
    ///   - emitsText: false to check text without building strings for it.
    init(utf8 bytes: [UInt8], policy: XMLReadingPolicy, emitsText: Bool = true) throws(XMLReadingError) {
        self.policy = policy
        self.emitsText = emitsText
        buffer = bytes
        position = bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? 3 : 0
        expansionBudget = policy.entityExpansionBudget(forDocumentSize: bytes.count)
        if bytes.count > policy.maximumDocumentSize {
            throw XMLReadingError(.documentTooLarge(limit: policy.maximumDocumentSize))
        }
        if let index = XMLCharacters.firstNonChar(in: bytes) {
            throw XMLReadingError(.notWellFormed("a character XML does not allow"), offset: index)
        }
        if starts(with: "<?xml"), position + 5 < buffer.count, XMLCharacters.isSpace(buffer[position + 5]) {
            try readDeclaration()
        }
    }

    /// Reads every token and checks the whole document.
    mutating func checkToEnd() throws(XMLReadingError) {
        while try next() != nil {}
    }

    /// The next token, or nil at the end of a well-formed document.
    mutating func next() throws(XMLReadingError) -> XMLToken? {
        if let name = pendingEnd {
            pendingEnd = nil
            return .endElement(name: name)
        }
        while true {
            if position >= buffer.count {
                if !frames.isEmpty {
                    try leaveEntity()
                    continue
                }
                if let token = flushText() { return token }
                switch phase {
                case .prolog: throw failure("the document has no root element")
                case .content: throw failure("the element <\(openElements.last?.name ?? "")> is not closed")
                case .epilog: return nil
                }
            }
            if phase != .content {
                try readOutsideRoot()
                if let token = takeStartToken() { return token }
                continue
            }
            switch buffer[position] {
            case UInt8(ascii: "<"):
                if emitsText, !text.isEmpty, !starts(with: "<![CDATA[") { return flushText() }
                if let token = try readMarkupInContent() { return token }
            case UInt8(ascii: "&"):
                try readReferenceInContent()
            default:
                try readCharacterData()
            }
        }
    }

    // MARK: - Outside the root element

    private var startToken: XMLToken?

    private mutating func takeStartToken() -> XMLToken? {
        defer { startToken = nil }
        return startToken
    }

    private mutating func readOutsideRoot() throws(XMLReadingError) {
        skipSpaces()
        guard position < buffer.count else { return }
        guard buffer[position] == UInt8(ascii: "<") else {
            throw failure(phase == .prolog ? "text before the root element" : "text after the root element")
        }
        if starts(with: "<?") {
            try readProcessingInstruction()
        } else if starts(with: "<!--") {
            try readComment()
        } else if starts(with: "<!DOCTYPE") {
            guard phase == .prolog, !sawDocumentType else { throw failure("a DOCTYPE that is not before the root element") }
            sawDocumentType = true
            try readDocumentType()
        } else if phase == .epilog {
            throw failure(starts(with: "<!") ? "markup after the root element" : "a second root element")
        } else if starts(with: "<!") {
            throw failure("markup before the root element")
        } else {
            phase = .content
            startToken = try readStartTag()
        }
    }

    // MARK: - Content

    private mutating func readMarkupInContent() throws(XMLReadingError) -> XMLToken? {
        if starts(with: "</") { return try readEndTag() }
        if starts(with: "<?") {
            try readProcessingInstruction()
            return nil
        }
        if starts(with: "<!--") {
            try readComment()
            return nil
        }
        if starts(with: "<![CDATA[") {
            try readCDATA()
            return nil
        }
        if starts(with: "<!") { throw failure("a declaration inside an element") }
        return try readStartTag()
    }

    private mutating func flushText() -> XMLToken? {
        guard emitsText, !text.isEmpty else { return nil }
        defer { text.removeAll(keepingCapacity: true) }
        return .text(String(decoding: text, as: UTF8.self))
    }

    private mutating func readCharacterData() throws(XMLReadingError) {
        let start = position
        var index = position
        let count = buffer.count
        buffer.withUnsafeBufferPointer { bytes in
            while index < count {
                let byte = bytes[index]
                if byte == UInt8(ascii: "<") || byte == UInt8(ascii: "&") || byte == 0x0D || byte == UInt8(ascii: "]") { break }
                index += 1
            }
        }
        if emitsText { text.append(contentsOf: buffer[start..<index]) }
        position = index
        guard position < count else { return }
        switch buffer[position] {
        case 0x0D:
            if emitsText { text.append(0x0A) }
            position += (position + 1 < count && buffer[position + 1] == 0x0A) ? 2 : 1
        case UInt8(ascii: "]"):
            if starts(with: "]]>") { throw failure("\"]]>\" in text") }
            if emitsText { text.append(UInt8(ascii: "]")) }
            position += 1
        default:
            break
        }
    }

    private mutating func readCDATA() throws(XMLReadingError) {
        position += 9
        guard let end = find("]]>") else { throw failure("an unterminated CDATA section") }
        if emitsText { appendNormalizingLineEnds(buffer[position..<end]) }
        position = end + 3
    }

    private mutating func appendNormalizingLineEnds(_ slice: ArraySlice<UInt8>) {
        var index = slice.startIndex
        while index < slice.endIndex {
            let byte = slice[index]
            if byte == 0x0D {
                text.append(0x0A)
                if index + 1 < slice.endIndex, slice[index + 1] == 0x0A { index += 1 }
            } else {
                text.append(byte)
            }
            index += 1
        }
    }

    private mutating func readReferenceInContent() throws(XMLReadingError) {
        let reference = try readReference()
        switch reference {
        case .character(let scalar):
            if emitsText { XMLCharacters.appendUTF8(scalar, to: &text) }
        case .predefined(let byte):
            if emitsText { text.append(byte) }
        case .entity(let name, let after):
            guard let entity = entities[XMLExactName(name)] else { throw XMLReadingError(.undeclaredEntity(name), offset: offset()) }
            switch entity {
            case .external: throw XMLReadingError(.externalEntityReference(name), offset: offset())
            case .internal(let replacement):
                try enterEntity(name, replacement: replacement, resumingAt: after)
            }
        }
    }

    private mutating func enterEntity(_ name: String, replacement: [UInt8], resumingAt after: Int) throws(XMLReadingError) {
        guard !activeEntities.contains(XMLExactName(name)) else { throw XMLReadingError(.recursiveEntity(name), offset: offset()) }
        try spend(replacement.count)
        frames.append(Frame(buffer: buffer, position: after, entity: name, referenceOffset: offset(), openElementCount: openElements.count))
        activeEntities.insert(XMLExactName(name))
        buffer = replacement
        position = 0
    }

    private mutating func leaveEntity() throws(XMLReadingError) {
        let frame = frames.removeLast()
        guard openElements.count == frame.openElementCount else {
            throw XMLReadingError(.notWellFormed("an element is not closed in the entity \"\(frame.entity)\" that opened it"),
                                  offset: frame.referenceOffset)
        }
        activeEntities.remove(XMLExactName(frame.entity))
        buffer = frame.buffer
        position = frame.position
    }

    private mutating func spend(_ bytes: Int) throws(XMLReadingError) {
        expanded += bytes
        if expanded > expansionBudget {
            throw XMLReadingError(.entityExpansionLimitExceeded(limit: expansionBudget), offset: offset())
        }
    }

    // MARK: - Tags

    private mutating func readStartTag() throws(XMLReadingError) -> XMLToken {
        position += 1
        let name = try readName(qualified: true)
        var attributes: [XMLAttribute] = []
        var names = Set<XMLExactName>()
        var space: Int?
        var isEmpty = false
        while true {
            let spaced = skipSpaces()
            guard position < buffer.count else { throw failure("an unterminated start tag <\(name)>") }
            if buffer[position] == UInt8(ascii: ">") {
                position += 1
                break
            }
            if starts(with: "/>") {
                position += 2
                isEmpty = true
                break
            }
            guard spaced else { throw failure("attributes of <\(name)> not separated by white space") }
            let attributeName = try readName(qualified: true)
            skipSpaces()
            guard position < buffer.count, buffer[position] == UInt8(ascii: "=") else {
                throw failure("the attribute \"\(attributeName)\" has no value")
            }
            position += 1
            skipSpaces()
            let value = try readAttributeValue()
            guard names.insert(XMLExactName(attributeName)).inserted else { throw failure("the attribute \"\(attributeName)\" appears twice") }
            if XMLExactName.same(attributeName, "xml:space") { space = attributes.count }
            attributes.append(XMLAttribute(name: attributeName, value: value))
            if attributes.count > policy.maximumAttributesPerElement {
                throw XMLReadingError(.tooManyAttributes(limit: policy.maximumAttributesPerElement), offset: offset())
            }
        }
        let defaults = attributeDefaults.isEmpty ? nil : attributeDefaults[XMLExactName(name)]
        if let defaults {
            if attributes.count + defaults.count > policy.maximumAttributesPerElement {
                throw XMLReadingError(.tooManyAttributes(limit: policy.maximumAttributesPerElement), offset: offset())
            }
            try spend(defaults.bytes)  // FoundationXML copies declared defaults into every such element
            if !defaults.tokenized.isEmpty {
                for index in attributes.indices where defaults.tokenized.contains(XMLExactName(attributes[index].name)) {
                    attributes[index].value = AttributeDefaults.collapsingSpaces(attributes[index].value)
                }
            }
        }
        // libxml2 warns of any other written value (after the collapse above), and
        // FoundationXML reports the warning as an error.
        if let space, !XMLExactName.same(attributes[space].value, "default"), !XMLExactName.same(attributes[space].value, "preserve") {
            throw failure("xml:space is \"\(attributes[space].value)\", not \"default\" or \"preserve\"")
        }
        guard openElements.count < policy.maximumDepth else {
            throw XMLReadingError(.nestingTooDeep(limit: policy.maximumDepth), offset: offset())
        }
        let mark = namespaces.mark
        do throws(NamespaceScope.Failure) {
            try namespaces.enter(element: name, attributes: attributes, names: names, defaults: defaults?.first ?? [])
        } catch {
            throw failure(error.message)
        }
        if isEmpty {
            namespaces.leave(to: mark)
            if openElements.isEmpty, frames.isEmpty { phase = .epilog }
            pendingEnd = name
        } else {
            openElements.append(OpenElement(name: name, frameDepth: frames.count, namespaceMark: mark))
        }
        return .startElement(name: name, attributes: attributes)
    }

    private mutating func readEndTag() throws(XMLReadingError) -> XMLToken {
        position += 2
        let name = try readName(qualified: true)
        skipSpaces()
        guard position < buffer.count, buffer[position] == UInt8(ascii: ">") else { throw failure("an unterminated end tag </\(name)>") }
        position += 1
        guard let open = openElements.last else { throw failure("the end tag </\(name)> closes nothing") }
        guard XMLExactName.same(open.name, name) else {
            throw failure("the end tag </\(name)> does not match <\(open.name)>" + (open.name == name ? " byte for byte" : ""))
        }
        guard open.frameDepth == frames.count else { throw failure("the element <\(name)> starts and ends in different entities") }
        openElements.removeLast()
        namespaces.leave(to: open.namespaceMark)
        if openElements.isEmpty { phase = .epilog }
        return .endElement(name: name)
    }

    /// An attribute value, normalized as XML 1.0 §3.3.3 says for CDATA attributes: references
    /// expanded, each white-space character a space.
    private mutating func readAttributeValue() throws(XMLReadingError) -> String {
        guard position < buffer.count, buffer[position] == UInt8(ascii: "\"") || buffer[position] == UInt8(ascii: "'") else {
            throw failure("an attribute value that is not quoted")
        }
        let quote = buffer[position]
        position += 1
        var value: [UInt8] = []
        while true {
            guard position < buffer.count else { throw failure("an unterminated attribute value") }
            let byte = buffer[position]
            switch byte {
            case quote:
                position += 1
                return String(decoding: value, as: UTF8.self)
            case UInt8(ascii: "<"):
                throw failure("\"<\" in an attribute value")
            case UInt8(ascii: "&"):
                try appendReferenceInAttribute(to: &value)
            case 0x0D:
                value.append(0x20)
                position += (position + 1 < buffer.count && buffer[position + 1] == 0x0A) ? 2 : 1
            case 0x09, 0x0A:
                value.append(0x20)
                position += 1
            default:
                value.append(byte)
                position += 1
            }
        }
    }

    /// Expands a reference inside an attribute value; an entity's text is read in place,
    /// through a stack of its own, with the same budget and recursion rules.
    private mutating func appendReferenceInAttribute(to value: inout [UInt8]) throws(XMLReadingError) {
        switch try readReference() {
        case .character(let scalar): XMLCharacters.appendUTF8(scalar, to: &value)
        case .predefined(let byte): value.append(byte)
        case .entity(let name, let after):
            position = after
            var stack: [(text: [UInt8], index: Int, name: String)] = []
            var active = Set<XMLExactName>()
            func open(_ name: String) throws(XMLReadingError) -> [UInt8] {
                guard let entity = entities[XMLExactName(name)] else { throw XMLReadingError(.undeclaredEntity(name), offset: offset()) }
                guard case .internal(let text) = entity else {
                    throw XMLReadingError(.externalEntityReference(name), offset: offset())
                }
                guard active.insert(XMLExactName(name)).inserted, !activeEntities.contains(XMLExactName(name)) else {
                    throw XMLReadingError(.recursiveEntity(name), offset: offset())
                }
                return text
            }
            let first = try open(name)
            try spend(first.count)
            stack.append((first, 0, name))
            while var top = stack.popLast() {
                guard top.index < top.text.count else {
                    active.remove(XMLExactName(top.name))
                    continue
                }
                let byte = top.text[top.index]
                switch byte {
                case UInt8(ascii: "<"):
                    throw failure("\"<\" in an attribute value, from the entity \"\(top.name)\"")
                case UInt8(ascii: "&"):
                    var scanner = ReferenceScanner(bytes: top.text, position: top.index)
                    let reference = try scanner.read(at: offset())
                    top.index = scanner.position
                    stack.append(top)
                    switch reference {
                    case .character(let scalar): XMLCharacters.appendUTF8(scalar, to: &value)
                    case .predefined(let byte): value.append(byte)
                    case .entity(let inner, _):
                        let text = try open(inner)
                        try spend(text.count)
                        stack.append((text, 0, inner))
                    }
                case 0x09, 0x0A, 0x0D:
                    value.append(0x20)
                    top.index += 1
                    stack.append(top)
                default:
                    value.append(byte)
                    top.index += 1
                    stack.append(top)
                }
            }
        }
    }

    // MARK: - References

    /// Reads a reference; for an entity the position stays at its `&`, where errors point.
    private mutating func readReference() throws(XMLReadingError) -> ReferenceScanner.Reference {
        var scanner = ReferenceScanner(bytes: buffer, position: position)
        let reference = try scanner.read(at: offset())
        if case .entity = reference {} else { position = scanner.position }
        return reference
    }

    // MARK: - Processing instructions, comments, declaration

    private mutating func readProcessingInstruction() throws(XMLReadingError) {
        position += 2
        let target = try readName(qualified: false)
        // Names starting with "xml" in any case are reserved; libxml2 (and so FoundationXML)
        // accepts only these two. Compared as bytes, as libxml2 does: as `Character`s, an "l"
        // followed by a combining mark is not an "l".
        let reserved = target.utf8.count >= 3 && target.utf8.prefix(3).map { $0 | 0x20 }.elementsEqual("xml".utf8)
        if reserved, target.utf8.count == 3 { throw failure("an XML declaration that is not at the start") }
        if reserved, !XMLExactName.same(target, "xml-stylesheet"), !XMLExactName.same(target, "xml-model") {
            throw failure("the processing-instruction target \"\(target)\" uses the reserved prefix \"xml\"")
        }
        let spaced = skipSpaces()
        if starts(with: "?>") { throw XMLReadingError(.processingInstructionWithoutData, offset: offset()) }
        guard spaced else { throw failure("a processing instruction target not followed by white space") }
        guard let end = find("?>") else { throw failure("an unterminated processing instruction") }
        position = end + 2
    }

    private mutating func readComment() throws(XMLReadingError) {
        position += 4
        guard let dashes = find("--") else { throw failure("an unterminated comment") }
        guard dashes + 2 < buffer.count, buffer[dashes + 2] == UInt8(ascii: ">") else {
            position = dashes
            throw failure("\"--\" inside a comment")
        }
        position = dashes + 3
    }

    private mutating func readDeclaration() throws(XMLReadingError) {
        position += 5
        let version = try readPseudoAttribute("version", required: true)
        guard let version, version.utf8.count >= 3, version.hasPrefix("1."), version.utf8.dropFirst(2).allSatisfy({ (0x30...0x39).contains($0) }) else {
            throw failure("a malformed version in the XML declaration")
        }
        guard version == "1.0" else { throw XMLReadingError(.unsupportedVersion(version), offset: offset()) }
        if let encoding = try readPseudoAttribute("encoding", required: false) {
            guard let first = encoding.unicodeScalars.first, first.properties.isASCIIHexDigit || ("a"..."z").contains(first) || ("A"..."Z").contains(first),
                  encoding.unicodeScalars.allSatisfy({ $0.isASCII && ($0.properties.isAlphabetic || ("0"..."9").contains($0) || "._-".unicodeScalars.contains($0)) })
            else { throw failure("a malformed encoding name in the XML declaration") }
        }
        if let standalone = try readPseudoAttribute("standalone", required: false), standalone != "yes", standalone != "no" {
            throw failure("standalone must be \"yes\" or \"no\"")
        }
        skipSpaces()
        guard starts(with: "?>") else { throw failure("a malformed XML declaration") }
        position += 2
    }

    private mutating func readPseudoAttribute(_ name: String, required: Bool) throws(XMLReadingError) -> String? {
        let saved = position
        let spaced = skipSpaces()
        guard spaced, starts(with: name) else {
            if required { throw failure("the XML declaration has no \(name)") }
            position = saved
            return nil
        }
        position += name.utf8.count
        skipSpaces()
        guard position < buffer.count, buffer[position] == UInt8(ascii: "=") else { throw failure("a malformed XML declaration") }
        position += 1
        skipSpaces()
        guard position < buffer.count, buffer[position] == UInt8(ascii: "\"") || buffer[position] == UInt8(ascii: "'") else {
            throw failure("a malformed XML declaration")
        }
        let quote = buffer[position]
        guard let close = buffer[(position + 1)...].firstIndex(of: quote) else { throw failure("a malformed XML declaration") }
        let value = String(decoding: buffer[(position + 1)..<close], as: UTF8.self)
        position = close + 1
        return value
    }

    // MARK: - Document type

    private mutating func readDocumentType() throws(XMLReadingError) {
        position += 9
        guard skipSpaces() else { throw failure("DOCTYPE without a name") }
        _ = try readName(qualified: true)
        skipSpaces()
        if starts(with: "SYSTEM") || starts(with: "PUBLIC") {
            guard policy.allowsExternalDTD else { throw XMLReadingError(.externalDTDNotAllowed, offset: offset()) }
            try readExternalID(publicIDOnlyAllowed: false)
            skipSpaces()
        }
        if position < buffer.count, buffer[position] == UInt8(ascii: "[") {
            position += 1
            try readInternalSubset()
            skipSpaces()
        }
        guard position < buffer.count, buffer[position] == UInt8(ascii: ">") else { throw failure("a malformed DOCTYPE") }
        position += 1
    }

    private mutating func readInternalSubset() throws(XMLReadingError) {
        while true {
            skipSpaces()
            guard position < buffer.count else { throw failure("an unterminated DOCTYPE") }
            if buffer[position] == UInt8(ascii: "]") {
                position += 1
                return
            }
            if buffer[position] == UInt8(ascii: "%") { throw XMLReadingError(.parameterEntitiesNotSupported, offset: offset()) }
            if starts(with: "<!ENTITY") {
                try readEntityDeclaration()
            } else if starts(with: "<!ATTLIST") {
                try readAttributeListDeclaration()
            } else if starts(with: "<!ELEMENT") {
                try readElementDeclaration()
            } else if starts(with: "<!NOTATION") {
                let start = offset()
                position += 10
                guard skipSpaces() else { throw failure("a malformed NOTATION declaration") }
                _ = try readName(qualified: false)
                guard skipSpaces() else { throw failure("a malformed NOTATION declaration") }
                // FoundationXML reads a missing identifier as a null C string.
                let identifiers = try readExternalID(publicIDOnlyAllowed: true)
                guard identifiers.hasPublic, identifiers.system != nil else {
                    throw XMLReadingError(.unreadableDeclaration("a NOTATION without both a public and a system identifier"), offset: start)
                }
                try closeDeclaration("NOTATION")
            } else if starts(with: "<?") {
                try readProcessingInstruction()
            } else if starts(with: "<!--") {
                try readComment()
            } else {
                throw failure("unexpected markup in the DOCTYPE")
            }
        }
    }

    private mutating func closeDeclaration(_ kind: String) throws(XMLReadingError) {
        skipSpaces()
        guard position < buffer.count, buffer[position] == UInt8(ascii: ">") else { throw failure("a malformed \(kind) declaration") }
        position += 1
    }

    private mutating func readEntityDeclaration() throws(XMLReadingError) {
        guard policy.allowsEntityDeclarations else { throw XMLReadingError(.entityDeclarationsNotAllowed, offset: offset()) }
        let start = offset()
        position += 8
        guard skipSpaces() else { throw failure("a malformed ENTITY declaration") }
        if position < buffer.count, buffer[position] == UInt8(ascii: "%") { throw XMLReadingError(.parameterEntitiesNotSupported, offset: offset()) }
        let name = try readName(qualified: false)
        guard skipSpaces(), position < buffer.count else { throw failure("a malformed ENTITY declaration") }
        let entity: Entity
        if buffer[position] == UInt8(ascii: "\"") || buffer[position] == UInt8(ascii: "'") {
            entity = .internal(try readEntityValue())
        } else {
            let identifiers = try readExternalID(publicIDOnlyAllowed: false)
            // libxml2 reports a system identifier that is not a URI reference, or has a fragment.
            if let system = identifiers.system {
                let literal = String(decoding: buffer[system], as: UTF8.self)
                guard URIReferenceSyntax.isValid(literal), !literal.utf8.contains(UInt8(ascii: "#")) else {
                    throw XMLReadingError(.unreadableDeclaration("an external entity whose system identifier is not a URI reference without a fragment"), offset: start)
                }
            }
            let spaced = skipSpaces()
            if spaced, starts(with: "NDATA") {
                // FoundationXML crashes on one with only a system identifier and reports the
                // other as an error; nothing could read one anyway (a reference is an error).
                throw XMLReadingError(.unreadableDeclaration("an unparsed (NDATA) entity"), offset: offset())
            }
            entity = .external
        }
        try closeDeclaration("ENTITY")
        if let character = ReferenceScanner.predefined(name) {
            // The five keep their meaning; libxml2 reports a redeclaration that is not theirs.
            guard case .internal(let replacement) = entity, Self.redeclares(character, as: replacement) else {
                throw XMLReadingError(.unreadableDeclaration("a redeclaration of the predefined entity \"\(name)\" that is not its character"), offset: start)
            }
            return
        }
        // The first declaration binds.
        if entities[XMLExactName(name)] == nil { entities[XMLExactName(name)] = entity }
    }

    /// Whether `replacement` redeclares the predefined entity for `character` as libxml2
    /// accepts it: the character itself (`>`, `'` and `"` only), or a reference to it in two
    /// decimal or two hexadecimal digits (`&#60;`, `&#x3C;`), as XML 1.0 §4.6 writes them.
    private static func redeclares(_ character: UInt8, as replacement: [UInt8]) -> Bool {
        if replacement == [character] {
            return character == UInt8(ascii: ">") || character == UInt8(ascii: "'") || character == UInt8(ascii: "\"")
        }
        let decimal = Array("&#\(character);".utf8)
        let hexadecimal = Array("&#x\(String(character, radix: 16, uppercase: true));".utf8)
        let upper = replacement.map { (UInt8(ascii: "a")...UInt8(ascii: "f")).contains($0) ? $0 - 32 : $0 }
        return replacement == decimal || (replacement.starts(with: Array("&#x".utf8)) && upper == hexadecimal)
    }

    /// An entity's literal value: character references replaced, line ends normalized,
    /// general entity references kept for expansion where the entity is used.
    private mutating func readEntityValue() throws(XMLReadingError) -> [UInt8] {
        let quote = buffer[position]
        position += 1
        var value: [UInt8] = []
        while true {
            guard position < buffer.count else { throw failure("an unterminated entity value") }
            let byte = buffer[position]
            switch byte {
            case quote:
                position += 1
                return value
            case UInt8(ascii: "%"):
                throw XMLReadingError(.parameterEntitiesNotSupported, offset: offset())
            case UInt8(ascii: "&"):
                var scanner = ReferenceScanner(bytes: buffer, position: position)
                let start = position
                switch try scanner.read(at: offset()) {
                case .character(let scalar):
                    XMLCharacters.appendUTF8(scalar, to: &value)
                    position = scanner.position
                case .predefined, .entity:
                    position = scanner.position
                    value.append(contentsOf: buffer[start..<position])
                }
            case 0x0D:
                value.append(0x0A)
                position += (position + 1 < buffer.count && buffer[position + 1] == 0x0A) ? 2 : 1
            default:
                value.append(byte)
                position += 1
            }
        }
    }

    /// The identifiers an external ID gave: whether it had a public one, and where its
    /// system literal's text is.
    private struct ExternalIdentifiers {
        var hasPublic: Bool
        var system: Range<Int>?
    }

    @discardableResult
    private mutating func readExternalID(publicIDOnlyAllowed: Bool) throws(XMLReadingError) -> ExternalIdentifiers {
        if starts(with: "SYSTEM") {
            position += 6
            guard skipSpaces() else { throw failure("a malformed SYSTEM identifier") }
            return ExternalIdentifiers(hasPublic: false, system: try readQuoted(publicID: false))
        } else if starts(with: "PUBLIC") {
            position += 6
            guard skipSpaces() else { throw failure("a malformed PUBLIC identifier") }
            try readQuoted(publicID: true)
            let spaced = skipSpaces()
            if position < buffer.count, buffer[position] == UInt8(ascii: "\"") || buffer[position] == UInt8(ascii: "'") {
                guard spaced else { throw failure("a malformed PUBLIC identifier") }
                return ExternalIdentifiers(hasPublic: true, system: try readQuoted(publicID: false))
            } else if !publicIDOnlyAllowed {
                throw failure("a PUBLIC identifier without a system literal")
            }
            return ExternalIdentifiers(hasPublic: true, system: nil)
        } else {
            throw failure("a malformed external identifier")
        }
    }

    /// Reads a quoted literal; returns where its text is.
    @discardableResult
    private mutating func readQuoted(publicID: Bool) throws(XMLReadingError) -> Range<Int> {
        guard position < buffer.count, buffer[position] == UInt8(ascii: "\"") || buffer[position] == UInt8(ascii: "'") else {
            throw failure("a literal that is not quoted")
        }
        let quote = buffer[position]
        guard let close = buffer[(position + 1)...].firstIndex(of: quote) else { throw failure("an unterminated literal") }
        if publicID, let bad = buffer[(position + 1)..<close].firstIndex(where: { !XMLCharacters.isPublicIDChar($0) }) {
            position = bad
            throw failure("a character a public identifier cannot hold")
        }
        let text = (position + 1)..<close
        position = close + 1
        return text
    }

    private mutating func readAttributeListDeclaration() throws(XMLReadingError) {
        position += 9
        guard skipSpaces() else { throw failure("a malformed ATTLIST declaration") }
        let element = try readName(qualified: true)
        while true {
            let spaced = skipSpaces()
            guard position < buffer.count else { throw failure("an unterminated ATTLIST declaration") }
            if buffer[position] == UInt8(ascii: ">") {
                position += 1
                return
            }
            guard spaced else { throw failure("a malformed ATTLIST declaration") }
            let attribute = try readName(qualified: true)
            guard skipSpaces(), position < buffer.count else { throw failure("a malformed ATTLIST declaration") }
            var isCDATA = false
            if buffer[position] == UInt8(ascii: "(") {
                try readEnumeration()
            } else {
                let keyword = readKeyword()
                switch keyword {
                case "CDATA": isCDATA = true
                case "ID", "IDREF", "IDREFS", "ENTITY", "ENTITIES", "NMTOKEN", "NMTOKENS": break
                case "NOTATION":
                    guard skipSpaces() else { throw failure("a malformed NOTATION type") }
                    try readEnumeration()
                default: throw failure("an unknown attribute type \"\(keyword)\"")
                }
            }
            guard skipSpaces() else { throw failure("a malformed ATTLIST declaration") }
            // FoundationXML reads a missing default value as a null C string.
            if starts(with: "#REQUIRED") || starts(with: "#IMPLIED") {
                throw XMLReadingError(.unreadableDeclaration("an attribute declared with no default value (#IMPLIED or #REQUIRED)"), offset: offset())
            } else {
                if starts(with: "#FIXED") {
                    position += 6
                    guard skipSpaces() else { throw failure("a malformed #FIXED default") }
                }
                let value = try readAttributeValue()
                let count = attributeDefaults[XMLExactName(element), default: AttributeDefaults()].add(attribute, value, isCDATA: isCDATA)
                if count > policy.maximumAttributesPerElement {
                    throw XMLReadingError(.tooManyAttributes(limit: policy.maximumAttributesPerElement), offset: offset())
                }
            }
        }
    }

    private mutating func readEnumeration() throws(XMLReadingError) {
        guard position < buffer.count, buffer[position] == UInt8(ascii: "(") else { throw failure("a malformed enumeration") }
        position += 1
        while true {
            skipSpaces()
            try readNameToken()
            skipSpaces()
            guard position < buffer.count else { throw failure("an unterminated enumeration") }
            if buffer[position] == UInt8(ascii: ")") {
                position += 1
                return
            }
            guard buffer[position] == UInt8(ascii: "|") else { throw failure("a malformed enumeration") }
            position += 1
        }
    }

    private mutating func readElementDeclaration() throws(XMLReadingError) {
        position += 9
        guard skipSpaces() else { throw failure("a malformed ELEMENT declaration") }
        _ = try readName(qualified: true)
        guard skipSpaces() else { throw failure("a malformed ELEMENT declaration") }
        if starts(with: "EMPTY") {
            position += 5
        } else if starts(with: "ANY") {
            position += 3
        } else {
            try readContentModel()
        }
        try closeDeclaration("ELEMENT")
    }

    /// libxml2 reports a content model more deeply nested than this.
    static let maximumContentModelDepth = 128

    /// XML 1.0's `Mixed` and `children` content models ([47]–[51]), read without recursion:
    /// libxml2 reports any other (FoundationXML then fails the parse).
    private mutating func readContentModel() throws(XMLReadingError) {
        guard position < buffer.count, buffer[position] == UInt8(ascii: "(") else { throw failure("a malformed ELEMENT declaration") }
        position += 1
        skipSpaces()
        if starts(with: "#PCDATA") {
            position += 7
            var names = 0
            while true {
                skipSpaces()
                guard position < buffer.count else { throw failure("a malformed ELEMENT declaration") }
                guard buffer[position] == UInt8(ascii: "|") else { break }
                position += 1
                skipSpaces()
                _ = try readName(qualified: true)
                names += 1
            }
            guard position < buffer.count, buffer[position] == UInt8(ascii: ")") else { throw failure("a malformed ELEMENT declaration") }
            position += 1
            if position < buffer.count, buffer[position] == UInt8(ascii: "*") {
                position += 1
            } else if names > 0 {
                throw failure("mixed content with element names that does not end in \")*\"")
            }
            return
        }
        // Each open group's separator: none yet, "|" (a choice) or "," (a sequence).
        var separators: [UInt8] = [0]
        while true {
            // A content particle: a group opens, or a name.
            skipSpaces()
            guard position < buffer.count else { throw failure("a malformed ELEMENT declaration") }
            if buffer[position] == UInt8(ascii: "(") {
                guard separators.count < Self.maximumContentModelDepth else {
                    throw failure("an ELEMENT content model nested more than \(Self.maximumContentModelDepth) groups deep")
                }
                separators.append(0)
                position += 1
                continue
            }
            _ = try readName(qualified: true)
            skipOccurrence()
            // Then a separator and the next particle, or the group's end (and its parent's).
            while true {
                skipSpaces()
                guard position < buffer.count else { throw failure("a malformed ELEMENT declaration") }
                let byte = buffer[position]
                if byte == UInt8(ascii: "|") || byte == UInt8(ascii: ",") {
                    guard separators[separators.count - 1] == 0 || separators[separators.count - 1] == byte else {
                        throw failure("an ELEMENT content model group with both \"|\" and \",\"")
                    }
                    separators[separators.count - 1] = byte
                    position += 1
                    break
                }
                guard byte == UInt8(ascii: ")") else { throw failure("a malformed ELEMENT declaration") }
                position += 1
                skipOccurrence()
                separators.removeLast()
                if separators.isEmpty { return }
            }
        }
    }

    /// `?`, `*` or `+` after a content particle.
    private mutating func skipOccurrence() {
        guard position < buffer.count else { return }
        switch buffer[position] {
        case UInt8(ascii: "?"), UInt8(ascii: "*"), UInt8(ascii: "+"): position += 1
        default: break
        }
    }

    private mutating func readKeyword() -> String {
        let start = position
        while position < buffer.count, (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(buffer[position]) { position += 1 }
        return String(decoding: buffer[start..<position], as: UTF8.self)
    }

    // MARK: - Names and scanning

    /// A `Name` (with `qualified`, a QName: at most one colon, not first or last; without,
    /// an NCName, as entity names and processing-instruction targets must be).
    private mutating func readName(qualified: Bool) throws(XMLReadingError) -> String {
        guard let end = XMLNames.nameEnd(in: buffer, from: position, qualified: qualified) else {
            throw failure(qualified ? "a malformed name (or a misplaced colon)" : "a malformed name (colons are not allowed here)")
        }
        defer { position = end }
        return String(decoding: buffer[position..<end], as: UTF8.self)
    }

    private mutating func readNameToken() throws(XMLReadingError) {
        let start = position
        while position < buffer.count {
            let (scalar, length) = XMLCharacters.scalar(in: buffer, at: position)
            guard XMLCharacters.isNameChar(scalar) || scalar == 0x3A else { break }
            position += length
        }
        guard position > start else { throw failure("a name token is expected") }
    }

    @discardableResult
    private mutating func skipSpaces() -> Bool {
        let start = position
        while position < buffer.count, XMLCharacters.isSpace(buffer[position]) { position += 1 }
        return position > start
    }

    private func starts(with literal: StaticString) -> Bool {
        let count = literal.utf8CodeUnitCount
        guard position + count <= buffer.count else { return false }
        let pointer = literal.utf8Start
        for index in 0..<count where buffer[position + index] != pointer[index] { return false }
        return true
    }

    private func starts(with literal: String) -> Bool {
        let bytes = literal.utf8
        guard position + bytes.count <= buffer.count else { return false }
        return buffer[position..<(position + bytes.count)].elementsEqual(bytes)
    }

    /// The index of the next occurrence of a short ASCII marker in the current input.
    private func find(_ marker: StaticString) -> Int? {
        let first = marker.utf8Start[0]
        let count = marker.utf8CodeUnitCount
        var index = position
        while index + count <= buffer.count {
            if buffer[index] == first {
                var matches = true
                for offset in 1..<count where buffer[index + offset] != marker.utf8Start[offset] {
                    matches = false
                    break
                }
                if matches { return index }
            }
            index += 1
        }
        return nil
    }

    /// Where an error is reported: in the document, or at the reference that entered the entity being read.
    private func offset() -> Int {
        frames.first?.referenceOffset ?? position
    }

    private func failure(_ detail: String) -> XMLReadingError {
        XMLReadingError(.notWellFormed(detail), offset: offset())
    }
}
