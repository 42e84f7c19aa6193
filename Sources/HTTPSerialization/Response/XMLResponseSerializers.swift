import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
#if canImport(FoundationXML)
import FoundationXML
#endif

/// Validates a response and returns an unstarted `XMLParser` over its body that never
/// resolves external entities: AFNetworking's `AFXMLParserResponseSerializer`, without XXE.
@dynamicMemberLookup
public struct XMLParserResponseSerializer: HTTPResponseSerializerComposing {
    public static let defaultContentTypes: Set<String> = ["application/xml", "text/xml"]

    public var base: HTTPResponseSerializer

    public init(base: HTTPResponseSerializer = HTTPResponseSerializer(acceptableContentTypes: XMLParserResponseSerializer.defaultContentTypes)) {
        self.base = base
    }

    /// A parser for the body (nil when there is none), with external entities off.
    ///
    /// - Throws: ``HTTPSerializationError/responseSerializationFailed(reason:response:underlying:validation:)``
    ///   for a UTF-8 document that is not valid UTF-8, which crashes FoundationXML's parser.
    public func responseObject(for response: URLResponse?, data: Data?) throws -> XMLParser? {
        try base.validate(response, data: data)
        guard let data, !data.isEmpty else { return nil }
        try Self.checkEncoding(data, context: ResponseContext(response: response as? HTTPURLResponse, data: data))
        return Self.safeParser(data)
    }

    /// FoundationXML parses in recovery mode and force-unwraps every name as UTF-8, so a
    /// document whose names are not valid UTF-8 crashes it. libxml2 converts UTF-16/32 and
    /// the common single-byte encodings to UTF-8 itself; a UTF-8 document (declared, or by
    /// default) must be valid UTF-8 here; any other declared encoding is refused, since
    /// libxml2 would fall back to passing the raw bytes through.
    static func checkEncoding(_ data: Data, context: ResponseContext) throws {
        let reason: String
        switch declaredEncoding(data) {
        case .converted:
            return try checkProcessingInstructions(data, context: context)
        case .utf8:
            guard String(validating: data, as: UTF8.self) == nil else { return try checkProcessingInstructions(data, context: context) }
            reason = "The XML document is UTF-8 but its bytes are not valid UTF-8."
        case .unsupported(let name):
            reason = "The XML document declares an unsupported encoding, \"\(name)\"."
        }
        throw HTTPSerializationError.responseSerializationFailed(reason: reason, response: context)
    }

    /// FoundationXML on Linux passes a processing instruction's missing data to `strlen`
    /// (`<?pi?>` segfaults any parser with a delegate, including the document serializer's
    /// own check), so such documents, and unterminated instructions, are refused first.
    static func checkProcessingInstructions(_ data: Data, context: ResponseContext) throws {
        #if canImport(FoundationXML)
        let open = Data("<?".utf8)
        let close = Data("?>".utf8)
        let isSpace = { (byte: UInt8) in byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D }
        // Every "<?" is checked on its own: libxml2's recovery mode re-reads an instruction
        // nested inside a malformed one.
        var index = data.startIndex
        while let start = data.range(of: open, in: index..<data.endIndex) {
            guard let end = data.range(of: close, in: start.upperBound..<data.endIndex) else {
                throw HTTPSerializationError.responseSerializationFailed(
                    reason: "The XML document has an unterminated processing instruction.", response: context)
            }
            let body = data[start.upperBound..<end.lowerBound]
            if body.drop(while: { !isSpace($0) }).drop(while: isSpace).isEmpty {
                throw HTTPSerializationError.responseSerializationFailed(
                    reason: "The XML document has a processing instruction without data, which FoundationXML cannot parse.",
                    response: context)
            }
            index = start.upperBound
        }
        #endif
    }

    enum DeclaredEncoding: Equatable {
        case utf8
        /// An encoding libxml2 converts to UTF-8 before any callback sees a name.
        case converted
        case unsupported(String)
    }

    static let convertedEncodings: Set<String> = [
        "utf-16", "utf-16le", "utf-16be", "ucs-2", "iso-10646-ucs-2", "utf-32", "ucs-4",
        "iso-8859-1", "latin1", "iso-latin-1", "iso-8859-2", "iso-8859-3", "iso-8859-4", "iso-8859-5",
        "iso-8859-6", "iso-8859-7", "iso-8859-8", "iso-8859-9", "iso-8859-10", "iso-8859-13", "iso-8859-14",
        "iso-8859-15", "iso-8859-16", "windows-1250", "windows-1251", "windows-1252", "windows-1253",
        "windows-1254", "windows-1255", "windows-1256", "windows-1257", "windows-1258", "cp1252", "koi8-r",
    ]

    /// The encoding a document announces by byte-order mark or declaration; UTF-8 by default.
    static func declaredEncoding(_ data: Data) -> DeclaredEncoding {
        let head = data.prefix(256)
        if head.starts(with: [0xFE, 0xFF]) || head.starts(with: [0xFF, 0xFE]) || head.starts(with: [0, 0, 0xFE, 0xFF]) {
            return .converted
        }
        guard head.starts(with: Array("<?xml".utf8)) || head.starts(with: [0xEF, 0xBB, 0xBF] + Array("<?xml".utf8)),
              let end = head.firstIndex(of: UInt8(ascii: ">")) else { return .utf8 }
        let declaration = String(decoding: head[..<end], as: UTF8.self).lowercased()
        guard let range = declaration.range(of: "encoding") else { return .utf8 }
        let rest = declaration[range.upperBound...].drop { $0 == " " || $0 == "=" || $0 == "\"" || $0 == "'" }
        let name = String(rest.prefix { $0 != "\"" && $0 != "'" && $0 != " " && $0 != "?" })
        if name == "utf-8" || name == "utf8" || name == "us-ascii" || name == "ascii" { return .utf8 }
        return convertedEncodings.contains(name) ? .converted : .unsupported(name)
    }

    /// External entities are neither resolved nor fetched (XXE, SSRF).
    static func safeParser(_ data: Data) -> XMLParser {
        let parser = XMLParser(data: data)
        parser.shouldResolveExternalEntities = false
        #if canImport(Darwin)
        if #available(macOS 10.15, iOS 13, tvOS 13, watchOS 6, *) {
            parser.externalEntityResolvingPolicy = .never
        }
        #else
        parser.externalEntityResolvingPolicy = .never
        #endif
        return parser
    }
}

/// Watches a parse for what `XMLParser.parse()` alone does not promise: on Linux it returns
/// true for input with no element at all (a lone byte), which then crashes `XMLDocument`.
/// Well-formed means no error, exactly one root element, and every element closed.
final class WellFormednessCheck: NSObject, XMLParserDelegate {
    private var depth = 0
    private var roots = 0
    private var failed = false

    var isWellFormed: Bool { !failed && roots == 1 && depth == 0 }

    func parser(
        _ parser: XMLParser, didStartElement elementName: String, namespaceURI: String?,
        qualifiedName qName: String?, attributes attributeDict: [String: String] = [:]
    ) {
        if depth == 0 { roots += 1 }
        depth += 1
    }

    func parser(_ parser: XMLParser, didEndElement elementName: String, namespaceURI: String?, qualifiedName qName: String?) {
        depth -= 1
        if depth < 0 { failed = true }
    }

    func parser(_ parser: XMLParser, parseErrorOccurred parseError: any Error) {
        failed = true
    }
}

#if os(macOS) || canImport(FoundationXML)
/// Validates a response and builds an `XMLDocument`: AFNetworking's
/// `AFXMLDocumentResponseSerializer`, hardened.
///
/// The body is checked with a parser first, so empty data, truncated documents (`<foo`) and
/// mismatched tags are errors (FoundationXML accepts some and crashes on empty data), and
/// external entities are never loaded whatever `options` says.
///
/// On Linux, FoundationXML never frees an `XMLDocument` (a reference cycle between the
/// document and its nodes, about 6 KB a small document): for long-running servers prefer
/// ``XMLParserResponseSerializer``.
@dynamicMemberLookup
public struct XMLDocumentResponseSerializer: HTTPResponseSerializerComposing {
    public var base: HTTPResponseSerializer
    /// `XMLNode.Options` raw value passed to `XMLDocument`; `.nodeLoadExternalEntitiesNever`
    /// is always added.
    public var options: XMLNode.Options

    public init(
        base: HTTPResponseSerializer = HTTPResponseSerializer(acceptableContentTypes: XMLParserResponseSerializer.defaultContentTypes),
        options: XMLNode.Options = []
    ) {
        self.base = base
        self.options = options
    }

    public func responseObject(for response: URLResponse?, data: Data?) throws -> XMLDocument {
        try base.validate(response, data: data)
        let context = ResponseContext(response: response as? HTTPURLResponse, data: data)
        guard let data, !data.isBlank else {
            throw HTTPSerializationError.responseSerializationFailed(reason: "The response has no XML document.", response: context)
        }
        try XMLParserResponseSerializer.checkEncoding(data, context: context)
        let parser = XMLParserResponseSerializer.safeParser(data)
        let check = WellFormednessCheck()
        parser.delegate = check
        let parsed = parser.parse()
        if !parsed || parser.parserError != nil || !check.isWellFormed {
            throw HTTPSerializationError.responseSerializationFailed(
                reason: "The response is not well-formed XML.", response: context, underlying: parser.parserError.map { $0 as NSError })
        }
        do {
            return try XMLDocument(data: data, options: options.union(.nodeLoadExternalEntitiesNever))
        } catch {
            throw HTTPSerializationError.responseSerializationFailed(
                reason: "The response is not a valid XML document.", response: context, underlying: error as NSError)
        }
    }
}
#endif
