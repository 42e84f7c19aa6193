import Foundation
import HTTPSerializationCore

extension PropertyListRequestSerializer: Codable {
    private enum CodingKeys: String, CodingKey {
        case base, format, writeOptions
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let format = try container.decodeRawValue(PropertyListSerialization.PropertyListFormat.self, forKey: .format) ?? .xml
        self.init(
            base: try container.decodeIfPresent(HTTPRequestSerializer.self, forKey: .base) ?? HTTPRequestSerializer(headers: HTTPHeaderFields()),
            format: format,
            writeOptions: try container.decodeIfPresent(PropertyListSerialization.WriteOptions.self, forKey: .writeOptions) ?? 0)
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(base, forKey: .base)
        try container.encode(format.rawValue, forKey: .format)
        try container.encode(writeOptions, forKey: .writeOptions)
    }
}
