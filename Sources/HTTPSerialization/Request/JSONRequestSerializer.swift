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
    /// Options for `JSONSerialization`; `.fragmentsAllowed` lets a bare scalar be the body.
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

    /// JSON bytes for a parameter tree, checked so that `JSONSerialization` can neither fail
    /// unexpectedly nor crash (it aborts on a top-level scalar without `.fragmentsAllowed`).
    static func data(for parameters: ParameterValue, options: JSONSerialization.WritingOptions, maximumDepth: Int) throws -> Data {
        if !parameters.isContainer, !options.contains(.fragmentsAllowed) {
            throw HTTPSerializationError.invalidJSONParameters(
                reason: "A top-level scalar needs the .fragmentsAllowed writing option.")
        }
        let object = try FoundationObjectConversion.object(from: parameters, for: .json, maximumDepth: maximumDepth)
        do {
            return try JSONSerialization.data(withJSONObject: object, options: options)
        } catch {
            throw HTTPSerializationError.invalidJSONParameters(reason: error.localizedDescription, underlying: error as NSError)
        }
    }
}
