import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import HTTPSerializationCodable
import HTTPSerializationCore

extension JSONRequestSerializer {
    /// Serializes an `Encodable` model as the JSON body of `request`, written with `encoder`'s
    /// strategies; methods that carry parameters in the URI get it as a query.
    public func serialize(_ request: URLRequest, body model: some Encodable, encoder: JSONBodyEncoder = JSONBodyEncoder()) throws -> URLRequest {
        try request.serialized { head, _ in try serialize(head, body: model, encoder: encoder) }
    }

    /// A request to `urlString` whose JSON body is `model`, written with `encoder`'s strategies.
    ///
    /// ```swift
    /// struct Order: Encodable { var id: Int; var placed: Date }
    /// var encoder = JSONBodyEncoder()
    /// encoder.dateEncodingStrategy = .iso8601
    /// let request = try JSONRequestSerializer().request(
    ///     method: "POST", urlString: "https://example.com/orders", body: Order(id: 1, placed: .now), encoder: encoder)
    /// ```
    public func request(method: String, urlString: String, body model: some Encodable, encoder: JSONBodyEncoder = JSONBodyEncoder()) throws -> URLRequest {
        try urlRequest(httpRequest(method: method, urlString: urlString, body: model, encoder: encoder), urlString: urlString)
    }
}

extension JSONWritingOptions {
    /// The same options as `JSONSerialization`'s, for code that already holds them.
    public init(_ options: JSONSerialization.WritingOptions) {
        self.init(rawValue: options.rawValue)
    }
}
