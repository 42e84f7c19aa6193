import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif

/// The archive form of the response serializers (AFNetworking's `NSSecureCoding`): every
/// field round-trips, and a compound keeps its children's kinds in order.
extension HTTPResponseSerializer: Codable {
    private enum CodingKeys: String, CodingKey {
        case acceptableStatusCodes, acceptableContentTypes, contentTypeMatching
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.init(
            acceptableStatusCodes: try container.decodeIfPresent(IndexSet.self, forKey: .acceptableStatusCodes),
            acceptableContentTypes: try container.decodeIfPresent(Set<String>.self, forKey: .acceptableContentTypes))
        contentTypeMatching = try container.decodeIfPresent(ContentTypeMatching.self, forKey: .contentTypeMatching) ?? ContentTypeMatching()
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encodeIfPresent(acceptableStatusCodes, forKey: .acceptableStatusCodes)
        try container.encodeIfPresent(acceptableContentTypes.map { $0.sorted() }, forKey: .acceptableContentTypes)
        try container.encode(contentTypeMatching, forKey: .contentTypeMatching)
    }
}

private enum ComposedKeys: String, CodingKey {
    case base, readingOptions, removesKeysWithNullValues, maximumDepth, options, format, readOptions, serializers, readingPolicy
}

extension KeyedDecodingContainer where Key == ComposedKeys {
    fileprivate func base() throws -> HTTPResponseSerializer? {
        try decodeIfPresent(HTTPResponseSerializer.self, forKey: .base)
    }

    fileprivate func readingPolicy() throws -> XMLReadingPolicy {
        try decodeIfPresent(XMLReadingPolicy.self, forKey: .readingPolicy) ?? XMLReadingPolicy()
    }
}

extension JSONResponseSerializer: Codable {
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: ComposedKeys.self)
        self.init()
        if let base = try container.base() { self.base = base }
        readingOptions = .init(rawValue: try container.decodeIfPresent(UInt.self, forKey: .readingOptions) ?? 0)
        removesKeysWithNullValues = try container.decodeIfPresent(Bool.self, forKey: .removesKeysWithNullValues) ?? false
        maximumDepth = try container.decodeIfPresent(Int.self, forKey: .maximumDepth) ?? ParameterValue.defaultMaximumDepth
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: ComposedKeys.self)
        try container.encode(base, forKey: .base)
        try container.encode(readingOptions.rawValue, forKey: .readingOptions)
        try container.encode(removesKeysWithNullValues, forKey: .removesKeysWithNullValues)
        try container.encode(maximumDepth, forKey: .maximumDepth)
    }
}

extension XMLParserResponseSerializer: Codable {
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: ComposedKeys.self)
        self.init()
        if let base = try container.base() { self.base = base }
        readingPolicy = try container.readingPolicy()
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: ComposedKeys.self)
        try container.encode(base, forKey: .base)
        try container.encode(readingPolicy, forKey: .readingPolicy)
    }
}

#if os(macOS) || canImport(FoundationXML)
extension XMLDocumentResponseSerializer: Codable {
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: ComposedKeys.self)
        self.init()
        if let base = try container.base() { self.base = base }
        options = XMLNode.Options(rawValue: try container.decodeIfPresent(XMLNode.Options.RawValue.self, forKey: .options) ?? 0)
        readingPolicy = try container.readingPolicy()
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: ComposedKeys.self)
        try container.encode(base, forKey: .base)
        try container.encode(options.rawValue, forKey: .options)
        try container.encode(readingPolicy, forKey: .readingPolicy)
    }
}
#endif

extension PropertyListResponseSerializer: Codable {
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: ComposedKeys.self)
        self.init()
        if let base = try container.base() { self.base = base }
        format = try container.decodeRawValue(PropertyListSerialization.PropertyListFormat.self, forKey: .format) ?? .xml
        readOptions = .init(rawValue: try container.decodeIfPresent(UInt.self, forKey: .readOptions) ?? 0)
        maximumDepth = try container.decodeIfPresent(Int.self, forKey: .maximumDepth) ?? ParameterValue.defaultMaximumDepth
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: ComposedKeys.self)
        try container.encode(base, forKey: .base)
        try container.encode(format.rawValue, forKey: .format)
        try container.encode(readOptions.rawValue, forKey: .readOptions)
        try container.encode(maximumDepth, forKey: .maximumDepth)
    }
}

/// The package's response serializers as one archivable value.
enum ResponseSerializerArchive: Codable, Sendable {
    case http(HTTPResponseSerializer)
    case json(JSONResponseSerializer)
    case xmlParser(XMLParserResponseSerializer)
    #if os(macOS) || canImport(FoundationXML)
    case xmlDocument(XMLDocumentResponseSerializer)
    #endif
    case propertyList(PropertyListResponseSerializer)
    case image(ImageResponseSerializer)
    case compound(CompoundResponseSerializer)

    init?(_ serializer: some ResponseSerializer) {
        switch serializer {
        case let serializer as HTTPResponseSerializer: self = .http(serializer)
        case let serializer as JSONResponseSerializer: self = .json(serializer)
        case let serializer as XMLParserResponseSerializer: self = .xmlParser(serializer)
        case let serializer as PropertyListResponseSerializer: self = .propertyList(serializer)
        case let serializer as ImageResponseSerializer: self = .image(serializer)
        case let serializer as CompoundResponseSerializer: self = .compound(serializer)
        default:
            #if os(macOS) || canImport(FoundationXML)
            if let serializer = serializer as? XMLDocumentResponseSerializer {
                self = .xmlDocument(serializer)
                return
            }
            #endif
            return nil
        }
    }

    var serializer: AnyResponseSerializer {
        switch self {
        case .http(let serializer): return AnyResponseSerializer(serializer)
        case .json(let serializer): return AnyResponseSerializer(serializer)
        case .xmlParser(let serializer): return AnyResponseSerializer(serializer)
        #if os(macOS) || canImport(FoundationXML)
        case .xmlDocument(let serializer): return AnyResponseSerializer(serializer)
        #endif
        case .propertyList(let serializer): return AnyResponseSerializer(serializer)
        case .image(let serializer): return AnyResponseSerializer(serializer)
        case .compound(let serializer): return AnyResponseSerializer(serializer)
        }
    }
}

extension CompoundResponseSerializer: Codable {
    /// Children that are not the package's own serializers cannot be archived; encoding a
    /// compound holding one throws rather than dropping it.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: ComposedKeys.self)
        try container.encode(base, forKey: .base)
        let archives = try serializers.map { serializer -> ResponseSerializerArchive in
            guard let archive = serializer.archive else {
                throw EncodingError.invalidValue(serializer.wrappedType, EncodingError.Context(
                    codingPath: container.codingPath + [ComposedKeys.serializers],
                    debugDescription: "\(serializer.wrappedType) is not one of the package's serializers and cannot be archived."))
            }
            return archive
        }
        try container.encode(archives, forKey: .serializers)
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: ComposedKeys.self)
        let archives = try container.decodeIfPresent([ResponseSerializerArchive].self, forKey: .serializers) ?? []
        self.init(archives.map(\.serializer), base: try container.base() ?? HTTPResponseSerializer())
    }
}
