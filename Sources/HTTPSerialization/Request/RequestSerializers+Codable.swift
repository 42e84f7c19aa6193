import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
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
        if let raw = try container.decodeIfPresent(UInt.self, forKey: .cachePolicy) {
            guard let policy = URLRequest.CachePolicy(rawValue: raw) else {
                throw DecodingError.dataCorruptedError(
                    forKey: .cachePolicy, in: container, debugDescription: "Unknown cache policy \(raw).")
            }
            cachePolicy = policy
        }
        allowsCellularAccess = try container.decodeIfPresent(Bool.self, forKey: .allowsCellularAccess)
        httpShouldHandleCookies = try container.decodeIfPresent(Bool.self, forKey: .httpShouldHandleCookies)
        httpShouldUsePipelining = try container.decodeIfPresent(Bool.self, forKey: .httpShouldUsePipelining)
        if let raw = try container.decodeIfPresent(UInt.self, forKey: .networkServiceType) {
            guard let type = URLRequest.NetworkServiceType(rawValue: raw) else {
                throw DecodingError.dataCorruptedError(
                    forKey: .networkServiceType, in: container, debugDescription: "Unknown network service type \(raw).")
            }
            networkServiceType = type
        }
    }

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
        try container.encodeIfPresent(cachePolicy?.rawValue, forKey: .cachePolicy)
        try container.encodeIfPresent(allowsCellularAccess, forKey: .allowsCellularAccess)
        try container.encodeIfPresent(httpShouldHandleCookies, forKey: .httpShouldHandleCookies)
        try container.encodeIfPresent(httpShouldUsePipelining, forKey: .httpShouldUsePipelining)
        try container.encodeIfPresent(networkServiceType?.rawValue, forKey: .networkServiceType)
    }
}

extension JSONRequestSerializer: Codable {
    private enum CodingKeys: String, CodingKey {
        case base, writingOptions
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.init(
            base: try container.decodeIfPresent(HTTPRequestSerializer.self, forKey: .base) ?? HTTPRequestSerializer(headers: HTTPHeaderFields()),
            writingOptions: JSONSerialization.WritingOptions(
                rawValue: try container.decodeIfPresent(UInt.self, forKey: .writingOptions) ?? 0))
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(base, forKey: .base)
        try container.encode(writingOptions.rawValue, forKey: .writingOptions)
    }
}

extension PropertyListRequestSerializer: Codable {
    private enum CodingKeys: String, CodingKey {
        case base, format, writeOptions
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        var format = PropertyListSerialization.PropertyListFormat.xml
        if let raw = try container.decodeIfPresent(UInt.self, forKey: .format) {
            guard let decoded = PropertyListSerialization.PropertyListFormat(rawValue: raw) else {
                throw DecodingError.dataCorruptedError(
                    forKey: .format, in: container, debugDescription: "Unknown property list format \(raw).")
            }
            format = decoded
        }
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
