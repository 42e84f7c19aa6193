#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import HTTPTypes

/// The response a response serializer reads and a response error is about: the response
/// head, the body, the request it answers (or its method), and, when the body could be
/// decoded despite a failed validation, what it held.
///
/// A failed status check usually comes with a useful body (`{"error": "…"}`): read it from
/// ``data`` or ``decodedBody``, or decode it with
/// `DecodableResponseSerializer.decodeErrorPayload(_:from:)`.
public struct ResponseContext: Sendable {
    /// The response head; nil for a response that was not HTTP (a `file:` URL), which
    /// passes validation.
    public var response: HTTPResponse?
    /// The body as received.
    public var data: Data?
    /// The decoded body (JSON serializer), attached when a status check failed.
    public var decodedBody: ParameterValue?
    /// The method of the request this answers, when known: a `HEAD` response has no body.
    public var requestMethod: HTTPRequest.Method?
    /// The head of the request this answers, when the transport gave it: what a
    /// ``ResponseValidator`` can compare against, and the `Accept` field
    /// ``HTTPResponseSerializer/contentTypesFromAcceptHeader`` reads.
    public var request: HTTPRequest?
    /// The transport's own response object (an `HTTPURLResponse`), kept for errors that
    /// report it the way AFNetworking did.
    package var transportResponse: (any Sendable)?

    /// A response from swift-http-types and its body, with the request it answers when known.
    ///
    /// ``requestMethod`` is `request`'s method when no method is given.
    public init(response: HTTPResponse?, data: Data?, decodedBody: ParameterValue? = nil, requestMethod: HTTPRequest.Method? = nil,
                request: HTTPRequest? = nil) {
        self.response = response
        self.data = data
        self.decodedBody = decodedBody
        self.requestMethod = requestMethod ?? request?.method
        self.request = request
    }

    /// The `Content-Type` field, parsed; nil when there is none or it is empty.
    package var contentType: ContentTypeField? {
        guard let fields = response?.headerFields else { return nil }
        // The one field's value as it is: `HTTPFields`' subscript joins even a single value.
        var value: String?
        for field in fields where field.name == .contentType {
            guard value == nil else { return fields[.contentType].flatMap(ContentTypeField.init) }  // several, joined
            value = field.value
        }
        return value.flatMap(ContentTypeField.init)
    }

    /// This context without a decoded body: what a serializer starts from.
    package var withoutDecodedBody: ResponseContext {
        var context = self
        context.decodedBody = nil
        return context
    }
}

extension ResponseContext: Equatable {
    /// Compares the response, body, decoded body, request method and request; the
    /// transport's own object is not compared.
    public static func == (lhs: ResponseContext, rhs: ResponseContext) -> Bool {
        lhs.response == rhs.response && lhs.data == rhs.data && lhs.decodedBody == rhs.decodedBody
            && lhs.requestMethod == rhs.requestMethod && lhs.request == rhs.request
    }
}
