import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import HTTPSerializationCodable
import HTTPSerializationCore

extension HTTPRequestSerializer {
    /// A request to `urlString` whose form fields are `model`: an
    /// `application/x-www-form-urlencoded` body, or the query for the methods in
    /// ``/HTTPSerializationCore/HTTPRequestSerializer/methodsEncodingParametersInURI``.
    ///
    /// The serializer's ``/HTTPSerializationCore/HTTPRequestSerializer/queryStringStyle`` is the
    /// one place that says how the form is written, dates included: by default
    /// `2001-01-01 00:00:00 +0000` (AFNetworking's `Date.description`), where a JSON body's
    /// `JSONBodyEncoder` defaults to `JSONEncoder`'s `deferredToDate`.
    ///
    /// ```swift
    /// struct Search: Encodable { var q: String; var since: Date }
    /// var serializer = HTTPRequestSerializer()
    /// serializer.queryStringStyle.dateEncoding = .iso8601
    /// let request = try serializer.request(method: "GET", urlString: "https://example.com/search", body: Search(q: "swift", since: .now))
    /// ```
    ///
    /// `Data` is `Encodable` too, and here becomes form text: send bytes as they are with
    /// `httpRequest(method:urlString:body:contentType:)` and `URLRequest(_:)`.
    ///
    /// - Throws: ``/HTTPSerializationCore/RequestSerializationError/invalidParameter(path:reason:)``
    ///   for a value a form cannot carry, and whatever serializing throws.
    public func request(method: String, urlString: String, body model: some Encodable) throws -> URLRequest {
        try urlRequest(httpRequest(method: method, urlString: urlString, body: model), urlString: urlString)
    }
}
