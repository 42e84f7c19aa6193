#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Every field round-trips; a custom date or data closure cannot be archived, so encoding a
/// style that holds one throws instead of silently dropping it.
extension QueryStringStyle: Codable {
    private enum CodingKeys: String, CodingKey {
        case arrayEncoding, keyEncoding, boolEncoding, spaceEncoding, nullEncoding, dateEncoding, dataEncoding
    }

    /// Decodes a style archived by ``encode(to:)``; missing fields take AFNetworking's defaults.
    ///
    /// - Throws: `DecodingError.dataCorrupted` for an unknown date or data encoding name.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let defaults = QueryStringStyle()
        arrayEncoding = try container.decodeIfPresent(ArrayEncoding.self, forKey: .arrayEncoding) ?? defaults.arrayEncoding
        keyEncoding = try container.decodeIfPresent(KeyEncoding.self, forKey: .keyEncoding) ?? defaults.keyEncoding
        boolEncoding = try container.decodeIfPresent(BoolEncoding.self, forKey: .boolEncoding) ?? defaults.boolEncoding
        spaceEncoding = try container.decodeIfPresent(SpaceEncoding.self, forKey: .spaceEncoding) ?? defaults.spaceEncoding
        nullEncoding = try container.decodeIfPresent(NullEncoding.self, forKey: .nullEncoding) ?? defaults.nullEncoding
        dateEncoding = defaults.dateEncoding
        if let name = try container.decodeIfPresent(String.self, forKey: .dateEncoding) {
            switch name {
            case "foundationDescription": dateEncoding = .foundationDescription
            case "secondsSince1970": dateEncoding = .secondsSince1970
            case "millisecondsSince1970": dateEncoding = .millisecondsSince1970
            case "iso8601": dateEncoding = .iso8601
            default:
                throw DecodingError.dataCorruptedError(
                    forKey: .dateEncoding, in: container, debugDescription: "Unknown date encoding \"\(name)\".")
            }
        }
        dataEncoding = defaults.dataEncoding
        if let name = try container.decodeIfPresent(String.self, forKey: .dataEncoding) {
            guard name == "base64" else {
                throw DecodingError.dataCorruptedError(
                    forKey: .dataEncoding, in: container, debugDescription: "Unknown data encoding \"\(name)\".")
            }
        }
    }

    /// Archives every field by name; throws `EncodingError.invalidValue` for a custom date or data closure.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(arrayEncoding, forKey: .arrayEncoding)
        try container.encode(keyEncoding, forKey: .keyEncoding)
        try container.encode(boolEncoding, forKey: .boolEncoding)
        try container.encode(spaceEncoding, forKey: .spaceEncoding)
        try container.encode(nullEncoding, forKey: .nullEncoding)
        let dateName: String
        switch dateEncoding {
        case .foundationDescription: dateName = "foundationDescription"
        case .secondsSince1970: dateName = "secondsSince1970"
        case .millisecondsSince1970: dateName = "millisecondsSince1970"
        case .iso8601: dateName = "iso8601"
        case .custom:
            throw EncodingError.invalidValue(dateEncoding, EncodingError.Context(
                codingPath: encoder.codingPath + [CodingKeys.dateEncoding],
                debugDescription: "A custom date encoding closure cannot be archived."))
        }
        try container.encode(dateName, forKey: .dateEncoding)
        switch dataEncoding {
        case .base64:
            try container.encode("base64", forKey: .dataEncoding)
        case .custom:
            throw EncodingError.invalidValue(dataEncoding, EncodingError.Context(
                codingPath: encoder.codingPath + [CodingKeys.dataEncoding],
                debugDescription: "A custom data encoding closure cannot be archived."))
        }
    }
}
