import Foundation
import HTTPSerializationCore

extension PropertyListRequestSerializer: Codable {
    private enum CodingKeys: String, CodingKey {
        case base, format, writeOptions
    }

    /// Decodes a serializer archived by ``encode(to:)``; a missing base has no default headers, and an
    /// unknown format raw value is `DecodingError.dataCorrupted`.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let format = try container.decodeRawValue(PropertyListSerialization.PropertyListFormat.self, forKey: .format) ?? .xml
        self.init(
            base: try container.decodeIfPresent(HTTPRequestSerializer.self, forKey: .base) ?? HTTPRequestSerializer(headers: HTTPHeaderFields()),
            format: format,
            writeOptions: try container.decodeIfPresent(PropertyListSerialization.WriteOptions.self, forKey: .writeOptions) ?? 0)
    }

    /// Archives the base, the format's raw value and the write options.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(base, forKey: .base)
        try container.encode(format.rawValue, forKey: .format)
        try container.encode(writeOptions, forKey: .writeOptions)
    }
}
