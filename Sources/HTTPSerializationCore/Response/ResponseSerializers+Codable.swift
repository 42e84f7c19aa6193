#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// The archive form of the response serializers (AFNetworking's `NSSecureCoding`): every
/// field round-trips, and a compound keeps its children's kinds in order.
extension HTTPResponseSerializer: Codable {
    private enum CodingKeys: String, CodingKey {
        case acceptableStatusCodes, acceptableContentTypes, contentTypeMatching, contentTypesFromAcceptHeader
    }

    /// Decodes a serializer archived by ``encode(to:)``; a missing status-code or content-type
    /// list accepts any.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.init(
            acceptableStatusCodes: try container.decodeIfPresent(Set<Int>.self, forKey: .acceptableStatusCodes),
            acceptableContentTypes: try container.decodeIfPresent(Set<String>.self, forKey: .acceptableContentTypes))
        contentTypeMatching = try container.decodeIfPresent(ContentTypeMatching.self, forKey: .contentTypeMatching) ?? ContentTypeMatching()
        contentTypesFromAcceptHeader = try container.decodeIfPresent(Bool.self, forKey: .contentTypesFromAcceptHeader) ?? false
    }

    /// Archives the status codes and content types, sorted so the output is stable, the
    /// matching rules, and whether `Accept` gives the types (only when it does, so older
    /// archives read the same). ``validators`` and ``preprocessor`` are code, not data, and are
    /// not archived: set them again on a serializer read back.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encodeIfPresent(acceptableStatusCodes.map { $0.sorted() }, forKey: .acceptableStatusCodes)
        try container.encodeIfPresent(acceptableContentTypes.map { $0.sorted() }, forKey: .acceptableContentTypes)
        try container.encode(contentTypeMatching, forKey: .contentTypeMatching)
        if contentTypesFromAcceptHeader { try container.encode(true, forKey: .contentTypesFromAcceptHeader) }
    }
}

package enum ComposedKeys: String, CodingKey {
    case base, readingOptions, removesKeysWithNullValues, maximumDepth, options, format, readOptions, serializers, readingPolicy
}

extension KeyedDecodingContainer where Key == ComposedKeys {
    package func base() throws -> HTTPResponseSerializer? {
        try decodeIfPresent(HTTPResponseSerializer.self, forKey: .base)
    }
}
