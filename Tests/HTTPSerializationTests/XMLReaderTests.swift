import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
#if canImport(FoundationXML)
import FoundationXML
#endif
import EchoServer
import SeededGenerators
import Testing
@testable import HTTPSerialization
@testable import HTTPSerializationCodable
@testable import HTTPSerializationCore
@testable import HTTPSerializationFoundation
@testable import HTTPSerializationImages
@testable import HTTPSerializationXML

/// The reason the reader refuses `data`, or nil when it accepts it.
func xmlRefusal(_ data: Data, policy: XMLReadingPolicy = XMLReadingPolicy()) -> XMLReadingError.Reason? {
    do {
        _ = try XMLSafetyCheck.prepare(data, policy: policy)
        return nil
    } catch {
        return error.reason
    }
}

func xmlRefusal(_ text: String, policy: XMLReadingPolicy = XMLReadingPolicy()) -> XMLReadingError.Reason? {
    xmlRefusal(Data(text.utf8), policy: policy)
}

/// Every token of a document, through the encoding stage.
func xmlTokens(_ data: Data, policy: XMLReadingPolicy = XMLReadingPolicy()) throws -> [XMLToken] {
    let (utf8, _) = try XMLEncoding.utf8([UInt8](data))
    var tokenizer = try XMLTokenizer(utf8: utf8, policy: policy)
    var tokens: [XMLToken] = []
    var text = ""
    while let token = try tokenizer.next() {
        // Adjacent text may arrive in pieces; join it so documents compare by content.
        if case .text(let piece) = token {
            text += piece
            continue
        }
        if !text.isEmpty { tokens.append(.text(text)) }
        text = ""
        tokens.append(token)
    }
    return tokens
}

let entityPolicy: XMLReadingPolicy = {
    var policy = XMLReadingPolicy()
    policy.allowsEntityDeclarations = true
    return policy
}()

/// What FoundationXML reports for a document: element names in order and all the text.
final class FoundationXMLRecorder: NSObject, XMLParserDelegate {
    var elements: [String] = []
    var attributes: [[String: String]] = []
    var text = ""
    var errors = 0
    func parser(_ parser: XMLParser, didStartElement elementName: String, namespaceURI: String?,
                qualifiedName qName: String?, attributes attributeDict: [String: String] = [:]) {
        elements.append(elementName)
        attributes.append(attributeDict)
    }
    func parser(_ parser: XMLParser, foundCharacters string: String) { text += string }
    func parser(_ parser: XMLParser, foundCDATA CDATABlock: Data) { text += String(decoding: CDATABlock, as: UTF8.self) }
    func parser(_ parser: XMLParser, parseErrorOccurred parseError: any Error) { errors += 1 }

    static func parse(_ data: Data) -> (ok: Bool, recorder: FoundationXMLRecorder) {
        let parser = XMLParserResponseSerializer.safeParser(data)
        let recorder = FoundationXMLRecorder()
        parser.delegate = recorder
        let ok = parser.parse() && parser.parserError == nil && recorder.errors == 0
        return (ok, recorder)
    }
}

@Suite("XML reader: the issue's hostile documents")
struct XMLHostileDocumentTests {
    let xml = resp(200, "application/xml")

    @Test("a processing instruction produced by entity expansion is refused, not a FoundationXML segfault")
    func processingInstructionFromEntity() throws {
        let data = Data(#"<!DOCTYPE r [<!ENTITY e "&#60;?pi?&#62;">]><r>&e;</r>"#.utf8)
        #expect(xmlRefusal(data) == .entityDeclarationsNotAllowed)
        #expect(xmlRefusal(data, policy: entityPolicy) == .processingInstructionWithoutData)
        let context = ResponseContext(response: xml, data: data)
        #expect(throws: ResponseSerializationError.unreadableBody(XMLReadingError(.entityDeclarationsNotAllowed, offset: 13), response: context)) {
            try XMLParserResponseSerializer().responseObject(for: xml, data: data)
        }
        #expect(throws: ResponseSerializationError.unreadableBody(XMLReadingError(.processingInstructionWithoutData, offset: 46), response: context)) {
            try XMLDocumentResponseSerializer(readingPolicy: entityPolicy).responseObject(for: xml, data: data)
        }
    }

    @Test("8-bit bytes labelled UTF-16 are an encoding mismatch, not a FoundationXML trap")
    func utf16LabelOnEightBitBytes() {
        let data = Data(#"<?xml version="1.0" encoding="UTF-16"?><a"#.utf8) + Data([0xE9]) + Data("b/>".utf8)
        let error = XMLReadingError(.encodingMismatch("the declaration says \"utf-16\", but the bytes are 8-bit"), offset: 0)
        let context = ResponseContext(response: xml, data: data)
        #expect(throws: ResponseSerializationError.unreadableBody(error, response: context)) {
            try XMLParserResponseSerializer().responseObject(for: xml, data: data)
        }
        #expect(throws: ResponseSerializationError.unreadableBody(error, response: context)) {
            try XMLDocumentResponseSerializer().responseObject(for: xml, data: data)
        }
    }

    @Test("one large entity referenced 100,000 times exceeds the expansion budget (quadratic blow-up)")
    func quadraticBlowUp() {
        let data = Data(("<!DOCTYPE r [<!ENTITY e \"" + String(repeating: "x", count: 100_000) + "\">]><r>"
                         + String(repeating: "&e;", count: 100_000) + "</r>").utf8)
        #expect(xmlRefusal(data) == .entityDeclarationsNotAllowed)
        #expect(xmlRefusal(data, policy: entityPolicy) == .entityExpansionLimitExceeded(limit: 4 * data.count))
        var generous = entityPolicy
        generous.entityExpansionFactor = 0
        generous.minimumEntityExpansionBudget = 1_000_000
        #expect(xmlRefusal(data, policy: generous) == .entityExpansionLimitExceeded(limit: 1_000_000))
    }

    @Test("billion laughs is refused by policy, and by the budget when entities are allowed")
    func billionLaughs() {
        let levels = (1...9).map { level in "<!ENTITY l\(level) \"" + String(repeating: "&l\(level - 1);", count: 10) + "\">" }.joined()
        let data = Data(("<!DOCTYPE r [<!ENTITY l0 \"lol\">" + levels + "]><r>&l9;</r>").utf8)
        #expect(xmlRefusal(data) == .entityDeclarationsNotAllowed)
        #expect(xmlRefusal(data, policy: entityPolicy) == .entityExpansionLimitExceeded(limit: 65_536))
        let attribute = Data(("<!DOCTYPE r [<!ENTITY l0 \"lol\">" + levels + "]><r a=\"&l9;\"/>").utf8)
        #expect(xmlRefusal(attribute, policy: entityPolicy) == .entityExpansionLimitExceeded(limit: 65_536))
    }

    @Test("documents of 10,000,000 bytes and more are accepted and parsed by both serializers")
    func largeDocument() throws {
        let element = "<item id=\"1\">" + String(repeating: "abcdefghij", count: 98) + "</item>\n"
        let data = Data(("<list>\n" + String(repeating: element, count: 10_050) + "</list>").utf8)
        #expect(data.count > 10_000_000)
        let parser = try #require(try XMLParserResponseSerializer().responseObject(for: xml, data: data))
        let recorder = FoundationXMLRecorder()
        parser.delegate = recorder
        #expect(parser.parse())
        #expect(parser.parserError == nil)
        #expect(recorder.elements.count == 10_051)
        let document = try XMLDocumentResponseSerializer().responseObject(for: xml, data: data)
        #expect(document.rootElement()?.childCount == 10_050)
    }

    @Test("the configured document size limit is a typed error that names it")
    func documentSizeLimit() {
        var policy = XMLReadingPolicy()
        policy.maximumDocumentSize = 100
        #expect(xmlRefusal("<a>" + String(repeating: "x", count: 100) + "</a>", policy: policy) == .documentTooLarge(limit: 100))
    }

    @Test("40,000 attributes on one element are refused before FoundationXML's quadratic check; the reader itself is linear")
    func manyAttributes() throws {
        let attributes = (0..<40_000).map { " a\($0)=\"1\"" }.joined()
        let data = Data(("<r" + attributes + "/>").utf8)
        #expect(xmlRefusal(data) == .tooManyAttributes(limit: 256))
        var policy = XMLReadingPolicy()
        policy.maximumAttributesPerElement = 50_000
        #expect(xmlRefusal(data, policy: policy) == nil)
        #expect(xmlRefusal("<r" + (0..<256).map { " a\($0)=\"1\"" }.joined() + "/>") == nil)
        let declared = "<!DOCTYPE r [<!ATTLIST r " + (0..<300).map { "d\($0) CDATA \"v\"" }.joined(separator: " ") + ">]><r/>"
        #expect(xmlRefusal(declared) == .tooManyAttributes(limit: 256))
    }

    @Test("1,000,000 nested elements are a typed error, and the reader does not recurse at any depth")
    func deepNesting() {
        let deep = String(repeating: "<a>", count: 1_000_000)
        #expect(xmlRefusal(deep) == .nestingTooDeep(limit: 512))
        var policy = XMLReadingPolicy()
        policy.maximumDepth = 200_000
        #expect(xmlRefusal(String(repeating: "<a>", count: 100_000) + String(repeating: "</a>", count: 100_000), policy: policy) == nil)
        #expect(xmlRefusal(String(repeating: "<a>", count: 512) + String(repeating: "</a>", count: 512)) == nil)
        #expect(xmlRefusal(String(repeating: "<a>", count: 513) + String(repeating: "</a>", count: 513)) == .nestingTooDeep(limit: 512))
    }
}

@Suite("XML reader: well-formedness")
struct XMLWellFormednessTests {
    static let accepted: [String] = [
        "<a/>", "<a></a>", " <a/> ", "<?xml version=\"1.0\"?><a/>", "<?xml version='1.0' encoding='UTF-8' standalone='yes'?>\n<a/>",
        "<!-- c --><a/><!-- d -->", "<?xml-stylesheet href=\"a.css\"?><a/>", "<?pi data?><a/><?pi more data?>", "<a b=\"1\" c='2'/>", "<a>&lt;&gt;&amp;&apos;&quot;</a>",
        "<a>&#65;&#x42;&#x1F600;</a>", "<a><![CDATA[<not markup> & ]]></a>", "<a>]</a>", "<a>]]</a>", "<a>x]>y</a>",
        "<!DOCTYPE a><a/>", "<!DOCTYPE a [<!ELEMENT a (#PCDATA|b)*><!ATTLIST a x CDATA #FIXED \"1\" y (p|q) \"p\">]><a/>",
        "<!DOCTYPE a [<!NOTATION n PUBLIC \"pub\" \"sys\"><!-- c --><?pi d?>]><a/>",
        "<!DOCTYPE a [<!ELEMENT a EMPTY><!ELEMENT b ANY><!ELEMENT c (#PCDATA)><!ELEMENT d ( #PCDATA | a | p:b )*><!ELEMENT e (#PCDATA)*>]><a/>",
        "<!DOCTYPE a [<!ELEMENT a (b,c)+><!ELEMENT b ( (c|d)* , e? , (f) )><!ELEMENT c (d)>]><a/>",
        "<!DOCTYPE a [<!ELEMENT a " + String(repeating: "(", count: 128) + "b" + String(repeating: ")", count: 128) + ">]><a/>",
        "<p:a xmlns:p=\"urn:p\" p:b=\"1\" b=\"2\"/>", "<a xmlns:p=\"http://u:p@h.example:80/a/b?q=1#f\" xmlns:q=\"../rel%20x\" xmlns=\"urn:d\"/>",
        "<a xmlns:p=\"http://h:000080/\" xmlns:q=\"http://h:2147483647/\"/>",
        "<a xmlns:p=\"http://[::1]:8/\"/>", "<a xmlns=\"urn:d\"><b xmlns=\"\"/></a>", "<a xml:lang=\"en\"/>",
        "<\u{00E9}l\u{00E8}ve \u{4E2D}=\"\u{00E9}\">\u{1F600}</\u{00E9}l\u{00E8}ve>", "<a\n\tb = \"1\"\r\n/>",
        "\u{FEFF}<a/>",
    ]

    @Test("well-formed documents are accepted, and FoundationXML parses each without reporting an error", arguments: accepted)
    func acceptsWellFormed(text: String) {
        #expect(xmlRefusal(text) == nil)
        #expect(FoundationXMLRecorder.parse(Data(text.utf8)).ok)
    }

    static let refused: [(String, XMLReadingError.Reason)] = [
        ("", .notWellFormed("the document has no root element")),
        ("<?xml version=\"1.0\"?>", .notWellFormed("the document has no root element")),
        ("<a>", .notWellFormed("the element <a> is not closed")),
        ("<foo", .notWellFormed("an unterminated start tag <foo>")),
        ("<a></b>", .notWellFormed("the end tag </b> does not match <a>")),
        ("<a><b></a></b>", .notWellFormed("the end tag </a> does not match <b>")),
        ("<a/><b/>", .notWellFormed("a second root element")),
        ("x<a/>", .notWellFormed("text before the root element")),
        ("<a/>x", .notWellFormed("text after the root element")),
        ("<![CDATA[x]]><a/>", .notWellFormed("markup before the root element")),
        ("<a b=\"1\" b=\"2\"/>", .notWellFormed("the attribute \"b\" appears twice")),
        ("<a b=1/>", .notWellFormed("an attribute value that is not quoted")),
        ("<a b=\"<\"/>", .notWellFormed("\"<\" in an attribute value")),
        ("<a b=\"1\"c=\"2\"/>", .notWellFormed("attributes of <a> not separated by white space")),
        ("<a>]]></a>", .notWellFormed("\"]]>\" in text")),
        ("<a>&unknown;</a>", .undeclaredEntity("unknown")),
        ("<a>&#0;</a>", .notWellFormed("a character reference to a character XML does not allow")),
        ("<a>&#xD800;</a>", .notWellFormed("a character reference to a character XML does not allow")),
        ("<a>&#x110000;</a>", .notWellFormed("a character reference to a character XML does not allow")),
        ("<a>&#12a;</a>", .notWellFormed("a malformed character reference")),
        ("<a>& b</a>", .notWellFormed("a reference without a valid name")),
        ("<a>&amp</a>", .notWellFormed("a reference without its \";\"")),
        ("<a>\u{01}</a>", .notWellFormed("a character XML does not allow")),
        ("<a>\u{FFFE}</a>", .notWellFormed("a character XML does not allow")),
        ("<a><!-- a -- b --></a>", .notWellFormed("\"--\" inside a comment")),
        ("<a><!-- x</a>", .notWellFormed("an unterminated comment")),
        ("<a><?pi?></a>", .processingInstructionWithoutData),
        ("<a><?pi   ?></a>", .processingInstructionWithoutData),
        ("<a><?pi x</a>", .notWellFormed("an unterminated processing instruction")),
        ("<a><?xml x?></a>", .notWellFormed("an XML declaration that is not at the start")),
        ("<?xmlx v?><a/>", .notWellFormed("the processing-instruction target \"xmlx\" uses the reserved prefix \"xml\"")),
        ("<a><?p:i x?></a>", .notWellFormed("a malformed name (colons are not allowed here)")),
        (" <?xml version=\"1.0\"?><a/>", .notWellFormed("an XML declaration that is not at the start")),
        ("<?xml version=\"1.1\"?><a/>", .unsupportedVersion("1.1")),
        ("<?xml version=\"2.0\"?><a/>", .notWellFormed("a malformed version in the XML declaration")),
        ("<?xml encoding=\"UTF-8\"?><a/>", .notWellFormed("the XML declaration has no version")),
        ("<?xml version=\"1.0\" standalone=\"maybe\"?><a/>", .notWellFormed("standalone must be \"yes\" or \"no\"")),
        ("<a:b/>", .notWellFormed("the element prefix a is not declared")),
        ("<a:b:c xmlns:a=\"u\"/>", .notWellFormed("a malformed name (or a misplaced colon)")),
        ("<:a/>", .notWellFormed("a malformed name (or a misplaced colon)")),
        ("<a xmlns:p=\"\"/>", .notWellFormed("the prefix p is bound to an empty namespace name")),
        ("<a p:x=\"1\"/>", .notWellFormed("the attribute prefix p is not declared")),
        ("<a xmlns:p=\"u\" xmlns:q=\"u\" p:x=\"1\" q:x=\"2\"/>", .notWellFormed("the attribute x appears twice in the namespace u")),
        ("<a xmlns:xmlns=\"u\"/>", .notWellFormed("the prefix xmlns cannot be declared")),
        ("<a xmlns:xml=\"u\"/>", .notWellFormed("the prefix xml cannot be rebound")),
        ("<a xmlns:p=\"u rn\"/>", .notWellFormed("the namespace \"u rn\" of the prefix p is not a URI reference")),
        ("<a xmlns:p=\"'rn:p\"/>", .notWellFormed("the namespace \"'rn:p\" of the prefix p is not a URI reference")),
        ("<a xmlns=\"urn:]p\"/>", .notWellFormed("the default namespace \"urn:]p\" is not a URI reference")),
        // RFC 3986 allows an empty port; libxml2 (so FoundationXML) does not.
        ("<a xmlns:p=\"a://h:/x\"/>", .notWellFormed("the namespace \"a://h:/x\" of the prefix p is not a URI reference")),
        ("<a xmlns=\"a://http://x\"/>", .notWellFormed("the default namespace \"a://http://x\" is not a URI reference")),
        ("<a xmlns:p=\"http://h:2147483648/\"/>", .notWellFormed("the namespace \"http://h:2147483648/\" of the prefix p is not a URI reference")),
        // Relative: libxml2 warns of it for the default namespace, and FoundationXML reports that.
        ("<a xmlns=\"../rel%20x\"/>", .notWellFormed("the default namespace \"../rel%20x\" is a relative URI reference")),
        ("<a xmlns=\"#f\"/>", .notWellFormed("the default namespace \"#f\" is a relative URI reference")),
        ("<!DOCTYPE a SYSTEM \"a.dtd\"><a/>", .externalDTDNotAllowed),
        ("<!DOCTYPE a PUBLIC \"p\" \"a.dtd\"><a/>", .externalDTDNotAllowed),
        ("<!DOCTYPE a [<!ENTITY e \"x\">]><a/>", .entityDeclarationsNotAllowed),
        ("<!DOCTYPE a [%p;]><a/>", .parameterEntitiesNotSupported),
        ("<!DOCTYPE a><!DOCTYPE a><a/>", .notWellFormed("a DOCTYPE that is not before the root element")),
        ("<a/><!DOCTYPE a>", .notWellFormed("a DOCTYPE that is not before the root element")),
        ("<!DOCTYPE a [<!BOGUS>]><a/>", .notWellFormed("unexpected markup in the DOCTYPE")),
        ("<!DOCTYPE a [<!ATTLIST a x BOGUS #IMPLIED>]><a/>", .notWellFormed("an unknown attribute type \"BOGUS\"")),
        // Well-formed, but FoundationXML's parser on Linux crashes on them once it has a delegate.
        ("<!DOCTYPE a [<!ATTLIST a x CDATA #IMPLIED>]><a/>", .unreadableDeclaration("an attribute declared with no default value (#IMPLIED or #REQUIRED)")),
        ("<!DOCTYPE a [<!ATTLIST a x CDATA \"1\" y ID #REQUIRED>]><a y=\"i\"/>", .unreadableDeclaration("an attribute declared with no default value (#IMPLIED or #REQUIRED)")),
        ("<!DOCTYPE a [<!NOTATION n PUBLIC \"pub\">]><a/>", .unreadableDeclaration("a NOTATION without both a public and a system identifier")),
        ("<!DOCTYPE a [<!NOTATION n SYSTEM \"sys\">]><a/>", .unreadableDeclaration("a NOTATION without both a public and a system identifier")),
        ("<!DOCTYPE a [<!ELEMENT a (b>]><a/>", .notWellFormed("a malformed ELEMENT declaration")),
        // Content models libxml2 reports (so FoundationXML fails the parse).
        ("<!DOCTYPE a [<!ELEMENT a FOO>]><a/>", .notWellFormed("a malformed ELEMENT declaration")),
        ("<!DOCTYPE a [<!ELEMENT a ()>]><a/>", .notWellFormed("a malformed name (or a misplaced colon)")),
        ("<!DOCTYPE a [<!ELEMENT a (b,)>]><a/>", .notWellFormed("a malformed name (or a misplaced colon)")),
        ("<!DOCTYPE a [<!ELEMENT a (#PCDATA|b)>]><a/>", .notWellFormed("mixed content with element names that does not end in \")*\"")),
        ("<!DOCTYPE a [<!ELEMENT a (b|c,d)>]><a/>", .notWellFormed("an ELEMENT content model group with both \"|\" and \",\"")),
        ("<!DOCTYPE a [<!ELEMENT a (b|(#PCDATA))>]><a/>", .notWellFormed("a malformed name (or a misplaced colon)")),
        ("<!DOCTYPE a [<!ELEMENT a (#PCDATA|b) *>]><a/>", .notWellFormed("mixed content with element names that does not end in \")*\"")),
        ("<!DOCTYPE a [<!ELEMENT a (b) ?>]><a/>", .notWellFormed("a malformed ELEMENT declaration")),
        ("<!DOCTYPE a [<!ELEMENT a " + String(repeating: "(", count: 129) + "b" + String(repeating: ")", count: 129) + ">]><a/>",
         .notWellFormed("an ELEMENT content model nested more than 128 groups deep")),
    ]

    @Test("malformed documents are refused with the exact reason", arguments: refused)
    func refusesMalformed(text: String, reason: XMLReadingError.Reason) {
        #expect(xmlRefusal(text) == reason)
    }

    @Test("text, attributes and references come out normalized as XML 1.0 says")
    func normalization() throws {
        let tokens = try xmlTokens(Data("<a x=\"1\r\n2\t3&#10;&lt;\">l1\r\nl2\rl3<![CDATA[c\r\nd]]>&amp;&#x1F600;</a>".utf8))
        #expect(tokens == [
            .startElement(name: "a", attributes: [XMLAttribute(name: "x", value: "1 2 3\n<")]),
            .text("l1\nl2\nl3c\nd&\u{1F600}"),
            .endElement(name: "a"),
        ])
    }

    @Test("a U+FEFF inside text is data and is kept")
    func byteOrderMarkInText() throws {
        #expect(try xmlTokens(Data("<a>\u{FEFF}x</a>".utf8)) == [.startElement(name: "a", attributes: []), .text("\u{FEFF}x"), .endElement(name: "a")])
    }
}

@Suite("XML reader: declared attribute defaults under namespaces")
struct XMLAttributeDefaultTests {
    /// libxml2 gives every element the defaults its ATTLIST declarations declare, binds the
    /// namespaces they declare, and checks the others' prefixes as it checks written ones.
    static let accepted: [String] = [
        #"<!DOCTYPE a [<!ATTLIST a p:x CDATA "1">]><a xmlns:p="urn:p"/>"#,
        #"<!DOCTYPE a [<!ATTLIST a p:x CDATA "1">]><a xmlns:p="urn:p" p:x="2"/>"#,
        #"<!DOCTYPE a [<!ATTLIST b p:x CDATA "1">]><a xmlns:p="urn:q"><b/></a>"#,
        #"<!DOCTYPE a [<!ATTLIST a xmlns:p CDATA "urn:p">]><a p:x="2"/>"#,
        #"<!DOCTYPE a [<!ATTLIST p:a xmlns:p CDATA "urn:p">]><p:a/>"#,
        #"<!DOCTYPE a [<!ATTLIST a p:y CDATA "1" xmlns:p CDATA "urn:p">]><a/>"#,
        #"<!DOCTYPE a [<!ATTLIST a xmlns:p CDATA "urn:p">]><a xmlns:p="urn:q" xmlns:q="urn:p" q:x="1" p:x="2"/>"#,
        // Only the first default of an attribute counts (with the second, p would be q's).
        #"<!DOCTYPE a [<!ATTLIST a xmlns:p CDATA "urn:p"><!ATTLIST a xmlns:p CDATA "urn:q">]><a xmlns:q="urn:q" q:x="1" p:x="2"/>"#,
        // libxml2 checks no namespace name that a default declares, and `xml` keeps its own.
        #"<!DOCTYPE a [<!ATTLIST a xmlns:p CDATA "" xmlns CDATA "../rel">]><a p:x="2"/>"#,
        #"<!DOCTYPE a [<!ATTLIST a xmlns:xml CDATA "urn:x">]><a xmlns:p="urn:x" p:lang="en" xml:lang="en"/>"#,
        // p keeps urn:v, its binding from r: that is the first default's (z's) value, so libxml2 does not bind p again.
        #"<!DOCTYPE r [<!ATTLIST a z CDATA "urn:v" xmlns:p CDATA "urn:w">]><r xmlns:p="urn:v" xmlns:q="urn:w"><a p:x="1" q:x="2"/></r>"#,
        // A tokenized type's written value loses its outer spaces too, so this is a URI reference.
        #"<!DOCTYPE a [<!ATTLIST a xmlns:p NMTOKEN "x">]><a xmlns:p=" urn:p "/>"#,
        // A CDATA default keeps its spaces, so this namespace is not q's.
        #"<!DOCTYPE a [<!ATTLIST a xmlns:p CDATA " urn:p " p:x CDATA "1">]><a xmlns:q="urn:p" q:x="2"/>"#,
    ]

    @Test("defaults whose prefixes are bound are accepted, and FoundationXML parses each without reporting an error", arguments: accepted)
    func acceptsBoundDefaults(text: String) {
        #expect(xmlRefusal(text) == nil)
        #expect(FoundationXMLRecorder.parse(Data(text.utf8)).ok)
    }

    static let refused: [(String, XMLReadingError.Reason)] = [
        (#"<!DOCTYPE a [<!ATTLIST a p:x CDATA "1">]><a/>"#, .notWellFormed("the prefix p of the declared default p:x is not declared")),
        (#"<!DOCTYPE a [<!ATTLIST a xmlns CDATA "urn:p" p:x CDATA "1">]><a/>"#, .notWellFormed("the prefix p of the declared default p:x is not declared")),
        (#"<!DOCTYPE a [<!ATTLIST b xmlns:p CDATA "urn:p">]><p:a/>"#, .notWellFormed("the element prefix p is not declared")),
        (#"<!DOCTYPE a [<!ATTLIST a p:x CDATA "1">]><a xmlns:p="urn:p" xmlns:q="urn:p" q:x="2"/>"#,
         .notWellFormed("the attribute x appears twice in the namespace urn:p")),
        (#"<!DOCTYPE a [<!ATTLIST a p:x CDATA "1" q:x CDATA "2">]><a xmlns:p="urn:p" xmlns:q="urn:p"/>"#,
         .notWellFormed("the attribute x appears twice in the namespace urn:p")),
        (#"<!DOCTYPE a [<!ATTLIST a xmlns:p CDATA "urn:p" xmlns:q CDATA "urn:p" p:x CDATA "1" q:x CDATA "2">]><a/>"#,
         .notWellFormed("the attribute x appears twice in the namespace urn:p")),
        (#"<!DOCTYPE a [<!ATTLIST a xmlns:p CDATA "urn:p">]><a xmlns:q="urn:p" q:x="1" p:x="2"/>"#,
         .notWellFormed("the attribute x appears twice in the namespace urn:p")),
        // A tokenized type's default loses its outer spaces, so this namespace is q's.
        (#"<!DOCTYPE a [<!ATTLIST a xmlns:p NMTOKEN " urn:p " p:x CDATA "1">]><a xmlns:q="urn:p" q:x="2"/>"#,
         .notWellFormed("the attribute x appears twice in the namespace urn:p")),
        (#"<!DOCTYPE a [<!ATTLIST a xmlns:p NMTOKEN "x" p:x CDATA "1">]><a xmlns:p=" urn:p " xmlns:q="urn:p" q:x="2"/>"#,
         .notWellFormed("the attribute x appears twice in the namespace urn:p")),
        // Inner spaces stay (one of them), and the type is the first declaration's.
        (#"<!DOCTYPE a [<!ATTLIST a xmlns:p NMTOKEN "x">]><a xmlns:p=" urn:p  q "/>"#,
         .notWellFormed("the namespace \"urn:p q\" of the prefix p is not a URI reference")),
        (#"<!DOCTYPE a [<!ATTLIST a xmlns:p CDATA "urn:p"><!ATTLIST a xmlns:p NMTOKEN "urn:q">]><a xmlns:p=" urn:p "/>"#,
         .notWellFormed("the namespace \" urn:p \" of the prefix p is not a URI reference")),
        // p was bound to urn:v, the first default's value, so libxml2 leaves it there: q's namespace.
        (#"<!DOCTYPE r [<!ATTLIST a xmlns:q CDATA "urn:v" xmlns:p CDATA "urn:w">]><r xmlns:p="urn:v"><a q:x="1" p:x="2"/></r>"#,
         .notWellFormed("the attribute x appears twice in the namespace urn:v")),
    ]

    @Test("defaults with an unbound prefix, or in a namespace the element already uses for the name, are refused as FoundationXML refuses them",
          arguments: refused)
    func refusesDefaultsLibxml2Reports(text: String, reason: XMLReadingError.Reason) {
        #expect(xmlRefusal(text) == reason)
        #expect(!FoundationXMLRecorder.parse(Data(text.utf8)).ok)
    }

    @Test("written values of attributes declared with a tokenized type come out with their spaces collapsed, as FoundationXML reports them")
    func tokenizedValuesCollapse() throws {
        let data = Data(#"<!DOCTYPE a [<!ATTLIST a t NMTOKENS "x" c CDATA "y">]><a t="  1   2 " c=" 3  4 "/>"#.utf8)
        let tokens = try xmlTokens(data)
        #expect(tokens.first == .startElement(name: "a", attributes: [XMLAttribute(name: "t", value: "1 2"), XMLAttribute(name: "c", value: " 3  4 ")]))
        let (ok, recorder) = FoundationXMLRecorder.parse(data)
        #expect(ok && recorder.attributes == [["t": "1 2", "c": " 3  4 "]])
    }

    @Test("a declared default's name counts against the expansion budget once for every element it applies to")
    func defaultNamesSpendTheBudget() {
        let name = "p:" + String(repeating: "n", count: 98)
        let text = "<!DOCTYPE r [<!ATTLIST a \(name) CDATA \"1\">]><r xmlns:p=\"urn:p\">" + String(repeating: "<a/>", count: 1_000) + "</r>"
        // 1,000 copies of 101 bytes pass 64 KiB, the budget of a document this size.
        #expect(xmlRefusal(text) == .entityExpansionLimitExceeded(limit: 65_536))
        #expect(xmlRefusal(text.replacingOccurrences(of: String(repeating: "<a/>", count: 1_000), with: String(repeating: "<a/>", count: 600))) == nil)
    }
}

@Suite("XML reader: names compared byte for byte, as libxml2 compares them")
struct XMLExactNameTests {
    /// "é" as one scalar and as "e" with a combining acute: one `String`, two names to libxml2.
    static let composed = "\u{E9}", decomposed = "e\u{301}"

    static let accepted: [String] = [
        "<a \(composed)=\"1\" \(decomposed)=\"2\"/>",
        // A local name may start with a combining mark (U+0483), which joins the colon as a `Character`.
        "<a xmlns:\u{483}p=\"urn:a\" \u{483}p:x=\"1\"/>",
        "<a xml:space=\"default\"><b xml:space=\"preserve\"/></a>",
        #"<!DOCTYPE a [<!ATTLIST a xml:space NMTOKEN "default">]><a xml:space=" preserve "/>"#,
        #"<!DOCTYPE a [<!ATTLIST a xml:space CDATA "other">]><a/>"#,
        // Namespace names declared by defaults go unchecked, so these two are distinct namespaces.
        "<!DOCTYPE a [<!ATTLIST a xmlns:p CDATA \"urn:\(composed)\" xmlns:q CDATA \"urn:\(decomposed)\">]><a p:x=\"1\" q:x=\"2\"/>",
        // Defaults declared for one form of an element's name are not the other form's.
        "<!DOCTYPE \(decomposed) [<!ATTLIST \(composed) p:x CDATA \"1\">]><\(decomposed)/>",
    ]

    @Test("names that differ only in their bytes are different names, and FoundationXML parses each document", arguments: accepted)
    func acceptsNamesThatDifferInBytes(text: String) {
        #expect(xmlRefusal(text) == nil)
        #expect(FoundationXMLRecorder.parse(Data(text.utf8)).ok)
    }

    static let refused: [(String, XMLReadingError.Reason)] = [
        ("<\(composed)></\(decomposed)>", .notWellFormed("the end tag </\(decomposed)> does not match <\(composed)> byte for byte")),
        ("<K></\u{212A}>", .notWellFormed("the end tag </\u{212A}> does not match <K> byte for byte")),
        ("<a xmlns:\(composed)=\"urn:a\" \(decomposed):x=\"1\"/>", .notWellFormed("the attribute prefix \(decomposed) is not declared")),
        ("<a xmlns:\u{483}p=\"a b\"/>", .notWellFormed("the namespace \"a b\" of the prefix \u{483}p is not a URI reference")),
        ("<a p:\u{483}x=\"1\" xmlns:p=\"urn:p\" xmlns:q=\"urn:p\" q:\u{483}x=\"2\"/>",
         .notWellFormed("the attribute \u{483}x appears twice in the namespace urn:p")),
        ("<?xml\u{301}-x d?><a/>",
         .notWellFormed("the processing-instruction target \"xml\u{301}-x\" uses the reserved prefix \"xml\"")),
        // libxml2 warns of any other xml:space, after a tokenized type's collapse, and FoundationXML reports it.
        ("<a xml:space=\"x\"/>", .notWellFormed("xml:space is \"x\", not \"default\" or \"preserve\"")),
        ("<a xml:space=\" preserve \"/>", .notWellFormed("xml:space is \" preserve \", not \"default\" or \"preserve\"")),
    ]

    @Test("names that differ in their bytes do not match, and FoundationXML reports each document", arguments: refused)
    func refusesNamesThatOnlyLookTheSame(text: String, reason: XMLReadingError.Reason) {
        #expect(Self.bytes(xmlRefusal(text)) == Self.bytes(reason))
        #expect(!FoundationXMLRecorder.parse(Data(text.utf8)).ok)
    }

    /// A reason's text as bytes: `Reason`'s `==` compares its strings as `String`s, so it
    /// cannot tell which form of a name a message holds.
    static func bytes(_ reason: XMLReadingError.Reason?) -> [UInt8] {
        Array("\(String(describing: reason))".utf8)
    }

    @Test("an entity declared under one form of a name is not the entity of another form")
    func entityNamesAreBytes() {
        let text = "<!DOCTYPE a [<!ENTITY \(Self.composed) \"x\">]><a>&\(Self.decomposed);</a>"
        #expect(Self.bytes(xmlRefusal(text, policy: entityPolicy)) == Self.bytes(.undeclaredEntity(Self.decomposed)))
        #expect(!FoundationXMLRecorder.parse(Data(text.utf8)).ok)
    }
}

@Suite("XML reader: entities when the policy allows them")
struct XMLEntityTests {
    @Test("an entity's text is read as content: its elements and references count")
    func entityContent() throws {
        let tokens = try xmlTokens(Data(#"<!DOCTYPE r [<!ENTITY in "i&#38;amp;j"><!ENTITY e "a<b>&in;</b>c">]><r>&e;&e;</r>"#.utf8), policy: entityPolicy)
        let once: [XMLToken] = [.text("a"), .startElement(name: "b", attributes: []), .text("i&j"), .endElement(name: "b")]
        #expect(tokens == [.startElement(name: "r", attributes: [])] + once + [.text("ca")] + Array(once.dropFirst()) + [.text("c"), .endElement(name: "r")])
    }

    @Test("entities expand inside attribute values, normalized")
    func entityInAttribute() throws {
        let tokens = try xmlTokens(Data("<!DOCTYPE r [<!ENTITY e \"x&#9;y\"><!ENTITY f \"[&e;]\">]><r a=\"&f;\"/>".utf8), policy: entityPolicy)
        #expect(tokens.first == .startElement(name: "r", attributes: [XMLAttribute(name: "a", value: "[x y]")]))
    }

    static let refused: [(String, XMLReadingError.Reason)] = [
        (#"<!DOCTYPE r [<!ENTITY e "&e;">]><r>&e;</r>"#, .recursiveEntity("e")),
        (#"<!DOCTYPE r [<!ENTITY e "&f;"><!ENTITY f "&e;">]><r>&e;</r>"#, .recursiveEntity("e")),
        (#"<!DOCTYPE r [<!ENTITY e "&e;">]><r a="&e;"/>"#, .recursiveEntity("e")),
        (#"<!DOCTYPE r [<!ENTITY x SYSTEM "file:///etc/passwd">]><r>&x;</r>"#, .externalEntityReference("x")),
        (#"<!DOCTYPE r [<!ENTITY x SYSTEM "file:///etc/passwd">]><r a="&x;"/>"#, .externalEntityReference("x")),
        (#"<!DOCTYPE r [<!NOTATION n PUBLIC "p" "n"><!ENTITY u SYSTEM "u" NDATA n>]><r/>"#, .unreadableDeclaration("an unparsed (NDATA) entity")),
        (#"<!DOCTYPE r [<!NOTATION n PUBLIC "p" "n"><!ENTITY u PUBLIC "p" "u" NDATA n>]><r>&u;</r>"#, .unreadableDeclaration("an unparsed (NDATA) entity")),
        (#"<!DOCTYPE r [<!ENTITY % p "x">]><r/>"#, .parameterEntitiesNotSupported),
        // libxml2 reports these system identifiers, so FoundationXML fails the parse.
        (#"<!DOCTYPE r [<!ENTITY x SYSTEM "u#f">]><r/>"#, .unreadableDeclaration("an external entity whose system identifier is not a URI reference without a fragment")),
        (#"<!DOCTYPE r [<!ENTITY x PUBLIC "p" "a b">]><r/>"#, .unreadableDeclaration("an external entity whose system identifier is not a URI reference without a fragment")),
        (#"<!DOCTYPE r [<!ENTITY e "%p;">]><r/>"#, .parameterEntitiesNotSupported),
        (#"<!DOCTYPE r [<!ENTITY e "<b>">]><r>&e;</b></r>"#, .notWellFormed("an element is not closed in the entity \"e\" that opened it")),
        (#"<!DOCTYPE r [<!ENTITY e "</r>">]><r>&e;"#, .notWellFormed("the element <r> starts and ends in different entities")),
        (#"<!DOCTYPE r [<!ENTITY e "&#60;">]><r a="&e;"/>"#, .notWellFormed("\"<\" in an attribute value, from the entity \"e\"")),
        (#"<!DOCTYPE r [<!ENTITY e "&#60;?pi?&#62;">]><r>&e;</r>"#, .processingInstructionWithoutData),
        (#"<!DOCTYPE r [<!ENTITY e "&#60;">]><r>&e;</r>"#, .notWellFormed("a malformed name (or a misplaced colon)")),
    ]

    @Test("entity faults are typed errors", arguments: refused)
    func refusesEntityFaults(text: String, reason: XMLReadingError.Reason) {
        #expect(xmlRefusal(text, policy: entityPolicy) == reason)
    }

    @Test("the first declaration of an entity binds; a predefined one redeclared as its own character reads as before")
    func firstDeclarationBinds() throws {
        let tokens = try xmlTokens(Data(#"<!DOCTYPE r [<!ENTITY e "1"><!ENTITY e "2"><!ENTITY lt "&#38;#60;">]><r>&e;&lt;</r>"#.utf8), policy: entityPolicy)
        #expect(tokens.dropFirst().first == .text("1<"))
    }

    static let predefinedRedeclarations: [(String, Bool)] = [
        (#"<!ENTITY lt "&#38;#60;">"#, true), (#"<!ENTITY lt "&#38;#x3c;">"#, true), (#"<!ENTITY amp "&#38;#38;">"#, true),
        (#"<!ENTITY gt ">">"#, true), (#"<!ENTITY apos "'">"#, true), (#"<!ENTITY quot '"'>"#, true), (#"<!ENTITY quot "&#34;">"#, true),
        (#"<!ENTITY lt "x">"#, false), (#"<!ENTITY lt "&#60;">"#, false), (#"<!ENTITY lt "&#38;#060;">"#, false),
        (#"<!ENTITY gt "&#38;#60;">"#, false), (#"<!ENTITY amp SYSTEM "a">"#, false),
    ]

    @Test("a predefined entity may be redeclared only as libxml2 accepts it, and FoundationXML then parses the document", arguments: predefinedRedeclarations)
    func predefinedRedeclaration(declaration: String, readable: Bool) throws {
        let text = "<!DOCTYPE r [" + declaration + "]><r>&lt;&gt;&amp;&apos;&quot;</r>"
        let refusal = xmlRefusal(text, policy: entityPolicy)
        let foundation = FoundationXMLRecorder.parse(Data(text.utf8))
        if readable {
            #expect(refusal == nil)
            #expect(try xmlTokens(Data(text.utf8), policy: entityPolicy).dropFirst().first == .text("<>&'\""))
            #expect(foundation.ok)
            #expect(foundation.recorder.text == "<>&'\"")
        } else {
            #expect(refusal == .unreadableDeclaration("a redeclaration of the predefined entity \"\(declaration.dropFirst(9).prefix { $0 != " " })\" that is not its character"))
            // What the refusal spares the caller: libxml2 reports it.
            #expect(!foundation.ok)
        }
    }

    @Test("an external DTD is accepted only by policy, and never fetched, even from a loopback server")
    func externalDTDNeverFetched() async throws {
        let server = try await EchoServer.start()
        let data = Data("<!DOCTYPE r SYSTEM \"\(server.baseURL.absoluteString)/dtd\"><r>x</r>".utf8)
        #expect(xmlRefusal(data) == .externalDTDNotAllowed)
        var policy = XMLReadingPolicy()
        policy.allowsExternalDTD = true
        let parser = try #require(try XMLParserResponseSerializer(readingPolicy: policy).responseObject(for: resp(200, "application/xml"), data: data))
        let recorder = FoundationXMLRecorder()
        parser.delegate = recorder
        _ = parser.parse()
        _ = try XMLDocumentResponseSerializer(readingPolicy: policy).responseObject(for: resp(200, "application/xml"), data: data).xmlString
        try await Task.sleep(nanoseconds: 200_000_000)
        #expect(server.requestCount == 0)
        #expect(recorder.text == "x")
        try await server.stop()
    }
}

@Suite("XML reader: encodings")
struct XMLEncodingTests {
    static let text = "<r a=\"\u{00E9}t\u{00E9}\">caf\u{00E9} \u{00FC}ber</r>"

    static func utf16(_ string: String, bigEndian: Bool, mark: Bool) -> Data {
        var bytes: [UInt8] = mark ? (bigEndian ? [0xFE, 0xFF] : [0xFF, 0xFE]) : []
        for unit in string.utf16 {
            bytes += bigEndian ? [UInt8(unit >> 8), UInt8(unit & 0xFF)] : [UInt8(unit & 0xFF), UInt8(unit >> 8)]
        }
        return Data(bytes)
    }

    static func utf32(_ string: String, bigEndian: Bool, mark: Bool) -> Data {
        var bytes: [UInt8] = mark ? (bigEndian ? [0, 0, 0xFE, 0xFF] : [0xFF, 0xFE, 0, 0]) : []
        for scalar in string.unicodeScalars {
            let value = scalar.value
            let big = [UInt8(value >> 24), UInt8(value >> 16 & 0xFF), UInt8(value >> 8 & 0xFF), UInt8(value & 0xFF)]
            bytes += bigEndian ? big : big.reversed()
        }
        return Data(bytes)
    }

    static func latin1(_ string: String) -> Data {
        Data(string.unicodeScalars.map { UInt8($0.value) })
    }

    static let forms: [(String, Data)] = [
        ("UTF-8", Data(text.utf8)),
        ("UTF-8 with a byte-order mark", Data([0xEF, 0xBB, 0xBF]) + Data(text.utf8)),
        ("UTF-8 declared", Data(("<?xml version=\"1.0\" encoding=\"utf-8\"?>" + text).utf8)),
        ("UTF-16BE with a byte-order mark", utf16(text, bigEndian: true, mark: true)),
        ("UTF-16LE with a byte-order mark", utf16(text, bigEndian: false, mark: true)),
        ("UTF-16 declared, with a byte-order mark", utf16("<?xml version=\"1.0\" encoding=\"UTF-16\"?>" + text, bigEndian: false, mark: true)),
        ("UTF-16BE declared, no byte-order mark", utf16("<?xml version=\"1.0\" encoding=\"UTF-16BE\"?>" + text, bigEndian: true, mark: false)),
        ("UTF-32BE with a byte-order mark", utf32(text, bigEndian: true, mark: true)),
        ("UTF-32LE declared, no byte-order mark", utf32("<?xml version=\"1.0\" encoding=\"UTF-32LE\"?>" + text, bigEndian: false, mark: false)),
        ("ISO-8859-1", latin1("<?xml version=\"1.0\" encoding=\"ISO-8859-1\"?>" + text)),
        ("windows-1252", latin1("<?xml version=\"1.0\" encoding=\"windows-1252\"?>" + text)),
    ]

    @Test("every encoding form reads as the same document, and FoundationXML reads the transcoded bytes the same way",
          arguments: forms)
    func encodingForms(name: String, data: Data) throws {
        let expected = try xmlTokens(Data(Self.text.utf8))
        #expect(try xmlTokens(data) == expected)
        let prepared = try XMLSafetyCheck.prepare(data, policy: XMLReadingPolicy())
        let (ok, recorder) = FoundationXMLRecorder.parse(prepared)
        #expect(ok)
        #expect(recorder.text == "caf\u{00E9} \u{00FC}ber")
    }

    @Test("windows-1252 and KOI8-R bytes above 0x7F are transcoded through their own tables")
    func singleByteTables() throws {
        let windows = Data("<?xml version=\"1.0\" encoding=\"windows-1252\"?><r>".utf8) + Data([0x80, 0x93, 0x94]) + Data("</r>".utf8)
        #expect(try xmlTokens(windows).dropFirst().first == .text("\u{20AC}\u{201C}\u{201D}"))
        let koi8 = Data("<?xml version=\"1.0\" encoding=\"KOI8-R\"?><r>".utf8) + Data([0xD0, 0xD2, 0xC9]) + Data("</r>".utf8)
        #expect(try xmlTokens(koi8).dropFirst().first == .text("\u{043F}\u{0440}\u{0438}"))
    }

    static let refused: [(String, Data, XMLReadingError.Reason)] = [
        ("invalid UTF-8", Data([0x3C, 0x61, 0xD9, 0x3E, 0x3C, 0x2F, 0x61, 0x3E]), .invalidEncoding("UTF-8")),
        ("an unknown encoding", Data(#"<?xml version="1.0" encoding="x-bogus"?><a/>"#.utf8), .unsupportedEncoding("x-bogus")),
        ("US-ASCII with a high byte", Data(#"<?xml version="1.0" encoding="US-ASCII"?><a>"#.utf8) + Data([0xE9]) + Data("</a>".utf8),
         .invalidEncoding("US-ASCII: a byte above 0x7F")),
        ("an undefined windows-1252 byte", Data(#"<?xml version="1.0" encoding="windows-1252"?><a>"#.utf8) + Data([0x81]) + Data("</a>".utf8),
         .invalidEncoding("windows-1252: byte 0x81 is undefined")),
        ("a UTF-16 byte-order mark declared UTF-8", utf16("<?xml version=\"1.0\" encoding=\"UTF-8\"?><a/>", bigEndian: false, mark: true),
         .encodingMismatch("the bytes are UTF-16LE, but the declaration says \"utf-8\"")),
        ("a UTF-8 byte-order mark declared ISO-8859-1", Data([0xEF, 0xBB, 0xBF]) + Data(#"<?xml version="1.0" encoding="ISO-8859-1"?><a/>"#.utf8),
         .encodingMismatch("a UTF-8 byte-order mark, but the declaration says \"iso-8859-1\"")),
        ("a lone UTF-16 surrogate", utf16("<a>", bigEndian: true, mark: true) + Data([0xD8, 0x00]) + utf16("</a>", bigEndian: true, mark: false),
         .invalidEncoding("UTF-16: a lone surrogate")),
        ("an odd UTF-16 length", utf16("<a/>", bigEndian: true, mark: true) + Data([0x20]), .invalidEncoding("UTF-16: an odd number of bytes")),
        ("a UTF-32 value past U+10FFFF", utf32("<a>", bigEndian: true, mark: true) + Data([0, 0x11, 0, 0]) + utf32("</a>", bigEndian: true, mark: false),
         .invalidEncoding("UTF-32: a value that is not a Unicode scalar")),
    ]

    @Test("encoding faults are typed errors", arguments: refused)
    func encodingFaults(name: String, data: Data, reason: XMLReadingError.Reason) {
        #expect(xmlRefusal(data) == reason)
    }
}
