import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif
import HTTPSerializationCore

/// Validates a response and returns an unstarted `XMLParser` over its body: AFNetworking's
/// `AFXMLParserResponseSerializer`, hardened.
///
/// The body is read by the package's own XML reader first (``XMLReadingPolicy``), so the
/// parser only ever sees a well-formed UTF-8 document within the policy's limits: no external
/// entity is resolved, no entity bomb expands, and nothing FoundationXML crashes on gets through.
@dynamicMemberLookup
public struct XMLParserResponseSerializer: HTTPResponseSerializerComposing {
    /// AFNetworking's XML content types: `application/xml` and `text/xml`.
    public static let defaultContentTypes: Set<String> = ["application/xml", "text/xml"]

    /// The shared validation: acceptable status codes and content types.
    public var base: HTTPResponseSerializer
    /// What the XML reader accepts; secure by default.
    public var readingPolicy: XMLReadingPolicy

    /// An XML parser serializer over `base`, with the secure reading policy by default.
    public init(
        base: HTTPResponseSerializer = HTTPResponseSerializer(acceptableContentTypes: XMLParserResponseSerializer.defaultContentTypes),
        readingPolicy: XMLReadingPolicy = XMLReadingPolicy()
    ) {
        self.base = base
        self.readingPolicy = readingPolicy
    }

    /// A parser for the body (nil when there is none), with external entities off.
    ///
    /// - Throws: ``/HTTPSerializationCore/ResponseSerializationError/unreadableBody(_:response:)`` with
    ///   an ``XMLReadingError`` for a document the reader refuses: the reason and its byte offset.
    public func responseObject(for response: ResponseContext) throws -> XMLParser? {
        let response = try preprocessed(response)
        try base.validate(response)
        guard !response.hasEmptyBody(whitespaceIsEmpty: true), let data = response.data else { return nil }
        let safe = try Self.prepare(data, policy: readingPolicy, context: response.withoutDecodedBody)
        return Self.safeParser(safe)
    }

    static func prepare(_ data: Data, policy: XMLReadingPolicy, context: @autoclosure () -> ResponseContext) throws -> Data {
        do {
            return try XMLSafetyCheck.prepare(data, policy: policy)
        } catch {
            throw ResponseSerializationError.unreadableBody(error, response: context())
        }
    }

    /// External entities are neither resolved nor fetched (XXE, SSRF). The parser reads a
    /// stream, which libxml2 takes in chunks: given the whole body at once it refuses any
    /// document of 10,000,000 bytes or more.
    static func safeParser(_ data: Data) -> XMLParser {
        let parser = XMLParser(stream: InputStream(data: data))
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
/// The body is read by the package's own XML reader first (``XMLReadingPolicy``), so
/// empty data, truncated documents (`<foo`), mismatched tags, entity bombs and every input FoundationXML
/// crashes on are typed errors, and external entities are never loaded whatever `options` says.
///
/// On Linux, FoundationXML never frees an `XMLDocument` (a reference cycle between the
/// document and its nodes, about 6 KB a small document): for long-running servers prefer
/// ``XMLParserResponseSerializer``.
@dynamicMemberLookup
public struct XMLDocumentResponseSerializer: HTTPResponseSerializerComposing {
    /// The shared validation: acceptable status codes and content types.
    public var base: HTTPResponseSerializer
    /// The options passed to `XMLDocument`; `.nodeLoadExternalEntitiesNever` is always added.
    public var options: XMLNode.Options
    /// What the XML reader accepts; secure by default.
    public var readingPolicy: XMLReadingPolicy

    /// An XML document serializer over `base`, with no extra options and the secure reading policy
    /// by default.
    public init(
        base: HTTPResponseSerializer = HTTPResponseSerializer(acceptableContentTypes: XMLParserResponseSerializer.defaultContentTypes),
        options: XMLNode.Options = [], readingPolicy: XMLReadingPolicy = XMLReadingPolicy()
    ) {
        self.base = base
        self.options = options
        self.readingPolicy = readingPolicy
    }

    /// The document, parsed by `XMLDocument` after the package's reader has checked it.
    ///
    /// - Throws: validation errors; `ResponseSerializationError.unreadableBody` with an
    ///   ``XMLReadingError`` for a document the reader refuses;
    ///   `ResponseSerializationError.responseSerializationFailed` for an empty or whitespace-only
    ///   body, or one `XMLDocument` rejects.
    public func responseObject(for response: ResponseContext) throws -> XMLDocument {
        let response = try preprocessed(response)
        try base.validate(response)
        let context = response.withoutDecodedBody
        guard !response.hasEmptyBody(whitespaceIsEmpty: true), let data = response.data else {
            throw ResponseSerializationError.responseSerializationFailed(reason: "The response has no XML document.", response: context)
        }
        let safe = try XMLParserResponseSerializer.prepare(data, policy: readingPolicy, context: context)
        do {
            return try XMLDocument(data: safe, options: options.union(.nodeLoadExternalEntitiesNever))
        } catch {
            throw ResponseSerializationError.responseSerializationFailed(
                reason: "The response is not a valid XML document.", response: context, underlying: UnderlyingError(error))
        }
    }
}
#endif
