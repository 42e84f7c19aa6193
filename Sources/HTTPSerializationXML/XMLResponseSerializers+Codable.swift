import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif
import HTTPSerializationCore

extension XMLParserResponseSerializer: Codable {
    /// Decodes a serializer archived by ``encode(to:)``; missing fields take the initializer's defaults.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: ComposedKeys.self)
        self.init()
        if let base = try container.base() { self.base = base }
        readingPolicy = try container.readingPolicy()
    }

    /// Archives the base and the reading policy.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: ComposedKeys.self)
        try container.encode(base, forKey: .base)
        try container.encode(readingPolicy, forKey: .readingPolicy)
    }
}

#if os(macOS) || canImport(FoundationXML)
extension XMLDocumentResponseSerializer: Codable {
    /// Decodes a serializer archived by ``encode(to:)``; missing fields take the initializer's defaults.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: ComposedKeys.self)
        self.init()
        if let base = try container.base() { self.base = base }
        options = XMLNode.Options(rawValue: try container.decodeIfPresent(XMLNode.Options.RawValue.self, forKey: .options) ?? 0)
        readingPolicy = try container.readingPolicy()
    }

    /// Archives the base, the options' raw value and the reading policy.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: ComposedKeys.self)
        try container.encode(base, forKey: .base)
        try container.encode(options.rawValue, forKey: .options)
        try container.encode(readingPolicy, forKey: .readingPolicy)
    }
}
#endif

extension PropertyListResponseSerializer: Codable {
    /// Decodes a serializer archived by ``encode(to:)``; missing fields take the initializer's defaults,
    /// and an unknown format raw value is `DecodingError.dataCorrupted`.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: ComposedKeys.self)
        self.init()
        if let base = try container.base() { self.base = base }
        format = try container.decodeRawValue(PropertyListSerialization.PropertyListFormat.self, forKey: .format) ?? .xml
        readOptions = .init(rawValue: try container.decodeIfPresent(UInt.self, forKey: .readOptions) ?? 0)
        maximumDepth = try container.decodeIfPresent(Int.self, forKey: .maximumDepth) ?? ParameterValue.defaultMaximumDepth
    }

    /// Archives the base, the format's raw value, the read options' bits and the depth limit.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: ComposedKeys.self)
        try container.encode(base, forKey: .base)
        try container.encode(format.rawValue, forKey: .format)
        try container.encode(readOptions.rawValue, forKey: .readOptions)
        try container.encode(maximumDepth, forKey: .maximumDepth)
    }
}

extension KeyedDecodingContainer where Key == ComposedKeys {
    /// The archived reading policy, or the secure defaults when the archive has none.
    func readingPolicy() throws -> XMLReadingPolicy {
        try decodeIfPresent(XMLReadingPolicy.self, forKey: .readingPolicy) ?? XMLReadingPolicy()
    }
}
