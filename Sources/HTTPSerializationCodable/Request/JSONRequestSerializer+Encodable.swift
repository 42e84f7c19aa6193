#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import HTTPSerializationCore
import HTTPTypes

extension JSONRequestSerializer {
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
    public func serialize(_ request: HTTPRequest, body model: some Encodable, encoder: JSONBodyEncoder = JSONBodyEncoder()) throws -> SerializedRequest {
        var encoder = encoder
        encoder.maximumDepth = base.maximumParameterDepth
        if base.encodesParametersInURI(request.method) {
            let tree = try ParameterValue(encoding: model, maximumDepth: base.maximumParameterDepth, json: encoder)
            return try base.forEncodableModels.serialize(request, body: .none, parameters: tree)
        }
        // Written straight from the model, so keys keep the order `encode(to:)` gives them.
        return try base.attachingBody(to: request, contentType: "application/json") { try encoder.encode(model) }
    }

    /// An `HTTPRequest` to `urlString` whose JSON body is `model`, written with `encoder`'s strategies.
    public func httpRequest(method: String, urlString: String, body model: some Encodable, encoder: JSONBodyEncoder = JSONBodyEncoder()) throws -> SerializedRequest {
        try serialize(base.makeHTTPRequest(method: method, urlString: urlString), body: model, encoder: encoder)
    }
}
