#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// The archive form of the request serializers (AFNetworking's `NSSecureCoding`): every
/// field round-trips. Missing keys decode as `init(headers: [])` defaults; a custom query
/// closure cannot be archived, so encoding a serializer that holds one throws.
extension HTTPRequestSerializer: Codable {
    private enum CodingKeys: String, CodingKey {
        case stringEncoding, headers, methodsEncodingParametersInURI, queryStringStyle, maximumParameterDepth
        case timeoutInterval, cachePolicy, allowsCellularAccess, httpShouldHandleCookies, httpShouldUsePipelining
        case networkServiceType
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
        timeoutInterval = try container.decodeIfPresent(TimeInterval.self, forKey: .timeoutInterval)
        cachePolicyRawValue = try container.decodeKnownRawValue(
            forKey: .cachePolicy, known: Self.cachePolicyRawValues, of: "URLRequest.CachePolicy")
        allowsCellularAccess = try container.decodeIfPresent(Bool.self, forKey: .allowsCellularAccess)
        httpShouldHandleCookies = try container.decodeIfPresent(Bool.self, forKey: .httpShouldHandleCookies)
        httpShouldUsePipelining = try container.decodeIfPresent(Bool.self, forKey: .httpShouldUsePipelining)
        networkServiceTypeRawValue = try container.decodeKnownRawValue(
            forKey: .networkServiceType, known: Self.networkServiceTypeRawValues, of: "URLRequest.NetworkServiceType")
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
        try container.encodeIfPresent(timeoutInterval, forKey: .timeoutInterval)
        try container.encodeIfPresent(cachePolicyRawValue, forKey: .cachePolicy)
        try container.encodeIfPresent(allowsCellularAccess, forKey: .allowsCellularAccess)
        try container.encodeIfPresent(httpShouldHandleCookies, forKey: .httpShouldHandleCookies)
        try container.encodeIfPresent(httpShouldUsePipelining, forKey: .httpShouldUsePipelining)
        try container.encodeIfPresent(networkServiceTypeRawValue, forKey: .networkServiceType)
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

extension HTTPRequestSerializer {
    /// The raw values of `URLRequest.CachePolicy`'s cases, so an archive is checked without
    /// Foundation's networking module.
    static let cachePolicyRawValues: Set<UInt> = [0, 1, 2, 3, 4, 5]
    /// The raw values of `URLRequest.NetworkServiceType`'s cases.
    static let networkServiceTypeRawValues: Set<UInt> = [0, 1, 2, 3, 4, 6, 8, 9, 11]
}

extension KeyedDecodingContainer {
    func decodeKnownRawValue(forKey key: Key, known: Set<UInt>, of typeName: String) throws -> UInt? {
        guard let raw = try decodeIfPresent(UInt.self, forKey: key) else { return nil }
        guard known.contains(raw) else {
            throw DecodingError.dataCorruptedError(forKey: key, in: self, debugDescription: "Unknown \(typeName) raw value \(raw).")
        }
        return raw
    }

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
