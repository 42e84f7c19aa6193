import Foundation
import HTTPSerializationCore

extension JSONResponseSerializer: Codable {
    /// Decodes a serializer archived by ``encode(to:)``; missing fields take the initializer's defaults.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: ComposedKeys.self)
        self.init()
        if let base = try container.base() { self.base = base }
        readingOptions = .init(rawValue: try container.decodeIfPresent(UInt.self, forKey: .readingOptions) ?? 0)
        removesKeysWithNullValues = try container.decodeIfPresent(Bool.self, forKey: .removesKeysWithNullValues) ?? false
        maximumDepth = try container.decodeIfPresent(Int.self, forKey: .maximumDepth) ?? ParameterValue.defaultMaximumDepth
    }

    /// Archives the base, the reading options' bits, null removal and the depth limit.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: ComposedKeys.self)
        try container.encode(base, forKey: .base)
        try container.encode(readingOptions.rawValue, forKey: .readingOptions)
        try container.encode(removesKeysWithNullValues, forKey: .removesKeysWithNullValues)
        try container.encode(maximumDepth, forKey: .maximumDepth)
    }
}
