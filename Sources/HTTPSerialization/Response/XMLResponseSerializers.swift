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
    public func responseObject(for response: URLResponse?, data: Data?) throws -> XMLParser? {
        try base.validate(response, data: data)
        guard let data, !data.isEmpty else { return nil }
        return Self.safeParser(data)
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

#if os(macOS) || canImport(FoundationXML)
/// Validates a response and builds an `XMLDocument`: AFNetworking's
/// `AFXMLDocumentResponseSerializer`, hardened.
///
/// The body is checked with a parser first, so empty data, truncated documents (`<foo`) and
/// mismatched tags are errors (FoundationXML accepts some and crashes on empty data), and
/// external entities are never loaded whatever `options` says.
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
        let parser = XMLParserResponseSerializer.safeParser(data)
        if !parser.parse() || parser.parserError != nil {
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
