import Foundation
import HTTPSerializationCore
import HTTPSerializationCodable
import HTTPTypes

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

extension PropertyListRequestSerializer {
    /// An `Encodable` model as the property-list body (or the query, for the methods that take one).
    ///
    /// ```swift
    /// struct Settings: Encodable { var volume: Int; var muted: Bool }
    /// let request = try PropertyListRequestSerializer().httpRequest(
    ///     method: "PUT", urlString: "https://example.com/settings", body: Settings(volume: 7, muted: false))
    /// ```
    ///
    /// - Throws:
    ///   ``/HTTPSerializationCore/RequestSerializationError/invalidPropertyListParameters(reason:underlying:)``
    ///   for a value a property list cannot hold (nil, a set), and whatever serializing throws.
    public func httpRequest(method: String, urlString: String, body model: some Encodable) throws -> SerializedRequest {
        try forEncodableModels.serialize(base.makeHTTPRequest(method: method, urlString: urlString),
                                         parameters: ParameterValue(encoding: model, maximumDepth: base.maximumParameterDepth))
    }

    /// ``httpRequest(method:urlString:body:)`` for a typed method and a parsed URL.
    public func httpRequest(method: HTTPRequest.Method, url: URL, body model: some Encodable) throws -> SerializedRequest {
        try forEncodableModels.serialize(base.makeHTTPRequest(method: method, url: url),
                                         parameters: ParameterValue(encoding: model, maximumDepth: base.maximumParameterDepth))
    }
}
