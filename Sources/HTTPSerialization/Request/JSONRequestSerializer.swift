import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Serializes parameters as a JSON body: AFNetworking's `AFJSONRequestSerializer`.
///
/// Methods that carry parameters in the URI (GET, HEAD, DELETE) still get a query string.
/// The base serializer's properties read through: `json.timeoutInterval = 10`.
///
/// ```swift
/// let request = try JSONRequestSerializer().request(
///     method: "POST", urlString: "https://example.com/items", parameters: ["key": "value"])
/// // body: {"key":"value"}, Content-Type: application/json
/// ```
@dynamicMemberLookup
public struct JSONRequestSerializer: HTTPRequestSerializerComposing {
    public var base: HTTPRequestSerializer
    /// Layout options, spelled as `JSONSerialization`'s and written the same way by the
    /// package's own writer; `.fragmentsAllowed` lets a bare scalar be the body.
    public var writingOptions: JSONSerialization.WritingOptions

    public init(base: HTTPRequestSerializer = HTTPRequestSerializer(), writingOptions: JSONSerialization.WritingOptions = []) {
        self.base = base
        self.writingOptions = writingOptions
    }

    /// - Throws: ``HTTPSerializationError/invalidJSONParameters(reason:underlying:)`` for
    ///   sets, data, dates, NaN, infinity, or a top-level scalar without `.fragmentsAllowed`;
    ///   ``HTTPSerializationError/nestingTooDeep(path:limit:)`` past the depth limit.
    public func serialize(_ request: URLRequest, parameters: ParameterValue?) throws -> URLRequest {
        try base.serializeBody(request, parameters: parameters, contentType: "application/json") {
            try Self.data(for: $0, options: writingOptions, maximumDepth: base.maximumParameterDepth)
        }
    }

    /// Serializes an `Encodable` model as the JSON body, written with `encoder`'s strategies
    /// (dates, data, keys, layout); methods that carry parameters in the URI get it as a query.
    ///
    /// ```swift
    /// struct Order: Encodable { var id: Int; var placed: Date }
    /// var encoder = JSONBodyEncoder()
    /// encoder.dateEncodingStrategy = .iso8601
    /// let request = try JSONRequestSerializer().request(
    ///     method: "POST", urlString: "https://example.com/orders", body: Order(id: 1, placed: .now), encoder: encoder)
    /// ```
    public func serialize(_ request: URLRequest, body model: some Encodable, encoder: JSONBodyEncoder = JSONBodyEncoder()) throws -> URLRequest {
        let tree = try ParameterValue(encoding: model, maximumDepth: base.maximumParameterDepth, json: encoder)
        return try base.serializeBody(request, parameters: tree, contentType: "application/json") {
            try $0.jsonData(options: encoder.outputFormatting.union(.fragmentsAllowed), maximumDepth: base.maximumParameterDepth)
        }
    }

    /// A request to `urlString` whose JSON body is `model`, written with `encoder`'s strategies.
    public func request(method: String, urlString: String, body model: some Encodable, encoder: JSONBodyEncoder = JSONBodyEncoder()) throws -> URLRequest {
        try serialize(base.makeRequest(method: method, urlString: urlString), body: model, encoder: encoder)
    }

    /// JSON bytes for a parameter tree, from the package's own writer.
    static func data(for parameters: ParameterValue, options: JSONSerialization.WritingOptions, maximumDepth: Int) throws -> Data {
        var writing: JSONWritingOptions = []
        if options.contains(.prettyPrinted) { writing.insert(.prettyPrinted) }
        if options.contains(.sortedKeys) { writing.insert(.sortedKeys) }
        if options.contains(.withoutEscapingSlashes) { writing.insert(.withoutEscapingSlashes) }
        if options.contains(.fragmentsAllowed) { writing.insert(.fragmentsAllowed) }
        return try parameters.jsonData(options: writing, maximumDepth: maximumDepth)
    }
}
