import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import HTTPSerializationCore

extension SerializedResponse {
    /// URLSession's own response object, when the response came through URLSession's helpers;
    /// for code written against `HTTPURLResponse` (its `allHeaderFields`, its `url`).
    public var urlResponse: HTTPURLResponse? {
        transportResponse as? HTTPURLResponse
    }

    /// Validates and decodes what URLSession received, with the request known: its method
    /// tells a serializer that a HEAD response is empty by design (`emptyRequestMethods`).
    package static func decoding<Serializer: ResponseSerializer>(
        _ response: URLResponse, data: Data, request: URLRequest, serializer: Serializer
    ) throws -> SerializedResponse<Serializer.Output> where Serializer.Output == Output {
        guard let http = response as? HTTPURLResponse else {
            throw ResponseSerializationError.responseSerializationFailed(
                reason: "The response is not an HTTP response.", response: ResponseContext(response: response, data: data, request: request))
        }
        let context = try ResponseContext.checked(http, data: data, request: request)
        return try decoding(context, url: http.url, serializer: serializer)
    }
}

extension URLRequest {
    /// The redirect rule of both transports: a request with a body whose response came from
    /// another URL is ``/HTTPSerializationCore/TransportError/redirectedWithBody(url:to:)``
    /// (the body may have been dropped on the way).
    package func checkNotRedirected(to response: URLResponse, hasBody: Bool) throws {
        guard hasBody, let from = url?.absoluteString, let to = response.url?.absoluteString, from != to else { return }
        throw TransportError.redirectedWithBody(url: from, to: to)
    }
}
