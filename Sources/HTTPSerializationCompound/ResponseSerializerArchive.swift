import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif
import HTTPSerializationCore
// The serializers an archive can hold; none appears in this module's API.
internal import HTTPSerializationFoundation
internal import HTTPSerializationImages
internal import HTTPSerializationXML

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

    /// Decodes a compound archived by ``encode(to:)``, rebuilding each child by its kind.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: ComposedKeys.self)
        let archives = try container.decodeIfPresent([ResponseSerializerArchive].self, forKey: .serializers) ?? []
        self.init(archives.map(\.serializer), base: try container.base() ?? HTTPResponseSerializer())
    }
}
