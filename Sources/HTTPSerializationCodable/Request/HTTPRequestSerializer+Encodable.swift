#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import HTTPSerializationCore
import HTTPTypes

extension HTTPRequestSerializer {
    /// An `Encodable` model as form fields: an `application/x-www-form-urlencoded` body, or the
    /// query for the methods in ``/HTTPSerializationCore/HTTPRequestSerializer/methodsEncodingParametersInURI``.
    ///
    /// The model is encoded to a ``/HTTPSerializationCore/ParameterValue`` first, so nested
    /// properties become `user[name]=…` and arrays `tags[]=…` in the serializer's style. That
    /// style, ``/HTTPSerializationCore/HTTPRequestSerializer/queryStringStyle``, is the one place
    /// that sets how dates are written: `2001-01-01 00:00:00 +0000` by default (AFNetworking's),
    /// where a JSON body's `JSONBodyEncoder` defaults to `deferredToDate`, as `JSONEncoder` does.
    ///
    /// ```swift
    /// struct Search: Encodable { var q: String; var page: Int }
    /// let request = try HTTPRequestSerializer().httpRequest(
    ///     method: "GET", urlString: "https://example.com/search", body: Search(q: "swift", page: 2))
    /// // /search?page=2&q=swift
    /// ```
    ///
    /// - Throws: ``/HTTPSerializationCore/RequestSerializationError/invalidParameter(path:reason:)``
    ///   for a value a form cannot carry, and whatever serializing throws.
    public func httpRequest(method: String, urlString: String, body model: some Encodable) throws -> SerializedRequest {
        try serialize(makeHTTPRequest(method: method, urlString: urlString), body: model)
    }

    /// ``httpRequest(method:urlString:body:)`` for a typed method and a parsed URL.
    public func httpRequest(method: HTTPRequest.Method, url: URL, body model: some Encodable) throws -> SerializedRequest {
        try serialize(makeHTTPRequest(method: method, url: url), body: model)
    }

    /// Serializes an `Encodable` model into `request` as form fields or a query.
    ///
    /// A list of models is written with indices (`items[0][id]`) where the style says
    /// ``/HTTPSerializationCore/QueryStringStyle/ArrayEncoding/brackets``, as ``FormEncoder``
    /// writes it; pass `ParameterValue(encoding:)` as the parameters for AFNetworking's names.
    public func serialize(_ request: HTTPRequest, body model: some Encodable) throws -> SerializedRequest {
        try forEncodableModels.serialize(request, parameters: ParameterValue(encoding: model, maximumDepth: maximumParameterDepth))
    }
}

extension JSONRequestSerializer {
    /// ``httpRequest(method:urlString:body:encoder:)`` for a typed method and a parsed URL.
    public func httpRequest(method: HTTPRequest.Method, url: URL, body model: some Encodable, encoder: JSONBodyEncoder = JSONBodyEncoder()) throws -> SerializedRequest {
        try serialize(base.makeHTTPRequest(method: method, url: url), body: model, encoder: encoder)
    }
}
