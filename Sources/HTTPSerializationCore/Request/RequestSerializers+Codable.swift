#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// The archive form of the request serializers (AFNetworking's `NSSecureCoding`): every
/// field round-trips, a layer's settings each under its own name. Missing keys decode as
/// `init(headers: [])` defaults; a custom query closure cannot be archived, so encoding a
/// serializer that holds one throws.
extension HTTPRequestSerializer: Codable {
    private enum CodingKeys: String, CodingKey, CaseIterable {
        case stringEncoding, headers, methodsEncodingParametersInURI, queryStringStyle, maximumParameterDepth
    }

    /// The name of a layer's setting, written beside the core's own keys.
    private struct SettingKey: CodingKey {
        var stringValue: String
        var intValue: Int? { nil }
        init(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }

    /// Decodes a serializer archived by ``encode(to:)``; missing keys keep `init(headers:)`'s
    /// defaults, so an archive without headers has none.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.init(headers: try container.decodeIfPresent(HTTPHeaderFields.self, forKey: .headers) ?? HTTPHeaderFields())
        if let raw = try container.decodeIfPresent(UInt.self, forKey: .stringEncoding) {
            stringEncoding = String.Encoding(rawValue: raw)
        }
        if let methods = try container.decodeIfPresent(Set<String>.self, forKey: .methodsEncodingParametersInURI) {
            methodsEncodingParametersInURI = methods
        }
        if let style = try container.decodeIfPresent(QueryStringStyle.self, forKey: .queryStringStyle) {
            queryStringStyle = style
        }
        if let depth = try container.decodeIfPresent(Int.self, forKey: .maximumParameterDepth) {
            maximumParameterDepth = depth
        }
        // Every other key is a layer's setting (a flag or a number); anything else is not ours.
        let settings = try decoder.container(keyedBy: SettingKey.self)
        let own = Set(CodingKeys.allCases.map(\.stringValue))
        for key in settings.allKeys where !own.contains(key.stringValue) {
            if let value = try? settings.decode(LayerSettings.Value.self, forKey: key) {
                layerSettings.values[key.stringValue] = value
            }
        }
    }

    /// Archives every field; throws `EncodingError.invalidValue` when ``queryStringSerialization`` is set.
    public func encode(to encoder: any Encoder) throws {
        if queryStringSerialization != nil {
            throw EncodingError.invalidValue(self, EncodingError.Context(
                codingPath: encoder.codingPath,
                debugDescription: "A custom query string closure cannot be archived; clear it before encoding."))
        }
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(stringEncoding.rawValue, forKey: .stringEncoding)
        try container.encode(headers, forKey: .headers)
        try container.encode(methodsEncodingParametersInURI.sorted(), forKey: .methodsEncodingParametersInURI)
        try container.encode(queryStringStyle, forKey: .queryStringStyle)
        try container.encode(maximumParameterDepth, forKey: .maximumParameterDepth)
        var settings = encoder.container(keyedBy: SettingKey.self)
        for (name, value) in layerSettings.values.sorted(by: { $0.key < $1.key }) {
            try settings.encode(value, forKey: SettingKey(stringValue: name))
        }
    }
}

extension JSONRequestSerializer: Codable {
    private enum CodingKeys: String, CodingKey {
        case base, writingOptions
    }

    /// Decodes a serializer archived by ``encode(to:)``; a missing base has no default headers.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.init(
            base: try container.decodeIfPresent(HTTPRequestSerializer.self, forKey: .base) ?? HTTPRequestSerializer(headers: HTTPHeaderFields()),
            writingOptions: JSONWritingOptions(
                rawValue: try container.decodeIfPresent(UInt.self, forKey: .writingOptions) ?? 0))
    }

    /// Archives the base and the writing options' bits.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(base, forKey: .base)
        try container.encode(writingOptions.rawValue, forKey: .writingOptions)
    }
}

extension KeyedDecodingContainer {
    /// Decodes a Foundation enum stored as its raw value; an unknown raw value is corrupt data.
    package func decodeRawValue<Value: RawRepresentable>(_ type: Value.Type, forKey key: Key) throws -> Value?
    where Value.RawValue: Decodable {
        guard let raw = try decodeIfPresent(Value.RawValue.self, forKey: key) else { return nil }
        guard let value = Value(rawValue: raw) else {
            throw DecodingError.dataCorruptedError(
                forKey: key, in: self, debugDescription: "Unknown \(Value.self) raw value \(raw).")
        }
        return value
    }
}
