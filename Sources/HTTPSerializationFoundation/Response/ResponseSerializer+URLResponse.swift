import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import HTTPTypes
import HTTPSerializationCodable
import HTTPSerializationCore

extension ResponseContext {
    /// A Foundation response and its body, as URLSession delivers them; `request` supplies
    /// the method (a `HEAD` response has no body) and the head the serializer's checks see.
    ///
    /// An `HTTPURLResponse` becomes an `HTTPResponse` with its status and header fields (a
    /// field whose name is not a token is left out); any other response has no HTTP head and
    /// passes validation, as it did in AFNetworking. The original object stays available as
    /// ``urlResponse``.
    public init(response: URLResponse?, data: Data?, decodedBody: ParameterValue? = nil, request: URLRequest? = nil) {
        self.init(response: Self.head(of: response), data: data, decodedBody: decodedBody,
                  requestMethod: request.flatMap { HTTPRequest.Method($0.httpMethod ?? "GET") },
                  request: request.flatMap { try? $0.serializationParts().request })
        transportResponse = response
    }

    /// The `HTTPURLResponse` this context was made from, when it was made from one.
    public var urlResponse: HTTPURLResponse? {
        transportResponse as? HTTPURLResponse
    }

    private static func head(of response: URLResponse?) -> HTTPResponse? {
        guard let http = response as? HTTPURLResponse, (0...999).contains(http.statusCode) else { return nil }
        var fields = HTTPFields()
        let pairs = http.allHeaderFields.compactMap { key, value -> (String, String)? in
            guard let name = key as? String, let value = value as? String else { return nil }
            return (name, value)
        }
        for (name, value) in pairs.sorted(by: { $0.0 < $1.0 }) {
            guard let fieldName = HTTPField.Name(name) else { continue }
            fields.append(HTTPField(name: fieldName, value: value))
        }
        return HTTPResponse(status: HTTPResponse.Status(code: http.statusCode), headerFields: fields)
    }

    /// The context of a Foundation response, refusing a status HTTP cannot carry (outside
    /// 0–999), which no serializer accepts.
    package static func checked(_ response: URLResponse?, data: Data?, request: URLRequest? = nil) throws -> ResponseContext {
        let context = ResponseContext(response: response, data: data, request: request)
        if let http = context.urlResponse, !(0...999).contains(http.statusCode) {
            throw ResponseSerializationError.unacceptableStatusCode(http.statusCode, response: context)
        }
        return context
    }
}

extension ResponseSerializer {
    /// Validates and decodes a Foundation response and its body: AFNetworking's
    /// `responseObjectForResponse:data:error:`.
    ///
    /// ```swift
    /// let (data, response) = try await URLSession.shared.data(for: request)
    /// let json = try JSONResponseSerializer().responseObject(for: response, data: data)
    /// ```
    public func responseObject(for response: URLResponse?, data: Data?) throws -> Output {
        try responseObject(for: ResponseContext.checked(response, data: data))
    }
}

extension HTTPResponseSerializerComposing {
    /// Checks the status code and content type of a Foundation response; see
    /// ``/HTTPSerializationCore/HTTPResponseSerializer/validate(_:)``.
    public func validate(_ response: URLResponse?, data: Data?) throws {
        try base.validate(ResponseContext.checked(response, data: data))
    }
}

extension DecodableResponseSerializer {
    /// Decodes with the request known, so a HEAD response is recognised as empty.
    public func decode(response: URLResponse?, data: Data?, request: URLRequest?) throws -> Value {
        try responseObject(for: ResponseContext.checked(response, data: data, request: request))
    }
}
