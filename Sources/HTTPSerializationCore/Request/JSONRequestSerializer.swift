#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import HTTPTypes

/// Serializes parameters as a JSON body: AFNetworking's `AFJSONRequestSerializer`.
///
/// Methods that carry parameters in the URI (GET, HEAD, DELETE) still get a query string.
/// The base serializer's properties read through: `json.maximumParameterDepth = 10`.
///
/// ```swift
/// let request = try JSONRequestSerializer().request(
///     method: "POST", urlString: "https://example.com/items", parameters: ["key": "value"])
/// // body: {"key":"value"}, Content-Type: application/json
/// ```
@dynamicMemberLookup
public struct JSONRequestSerializer: HTTPRequestSerializerComposing {
    /// The shared configuration: default headers, request properties and the methods that take a query.
    public var base: HTTPRequestSerializer
    /// Layout options, spelled and written as `JSONSerialization`'s by the package's own
    /// writer; `.fragmentsAllowed` lets a bare scalar be the body.
    public var writingOptions: JSONWritingOptions

    /// A JSON serializer over `base` (by default with AFNetworking's headers); compact output by default.
    public init(base: HTTPRequestSerializer = HTTPRequestSerializer(), writingOptions: JSONWritingOptions = []) {
        self.base = base
        self.writingOptions = writingOptions
    }

    /// Writes `parameters` as a JSON body, with `Content-Type: application/json` unless one is set;
    /// methods that take a query get a query string, and without parameters `body` is kept.
    ///
    /// - Throws: ``RequestSerializationError/invalidJSONParameters(reason:underlying:)`` for
    ///   sets, data, dates, NaN, infinity, or a top-level scalar without `.fragmentsAllowed`;
    ///   ``RequestSerializationError/nestingTooDeep(path:limit:)`` past the depth limit.
    public func serialize(_ request: HTTPRequest, body: RequestBody, parameters: ParameterValue?) throws -> SerializedRequest {
        try base.serializeBody(request, body: body, parameters: parameters, contentType: "application/json") {
            try $0.jsonData(options: writingOptions, maximumDepth: base.maximumParameterDepth)
        }
    }
}
