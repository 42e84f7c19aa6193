#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import HTTPTypes

/// Validates a response and decodes its body: AFNetworking's `AFURLResponseSerialization`,
/// over swift-http-types.
///
/// Conformers implement ``responseObject(for:)`` on a ``ResponseContext``; every conformer
/// then reads an `HTTPResponse` and body, and, with the `HTTPSerialization` product, a
/// `URLResponse` and `Data` as AFNetworking did.
public protocol ResponseSerializer: Sendable {
    /// The value a response decodes to.
    associatedtype Output
    /// The decoded body, or a typed error that carries the response and body.
    func responseObject(for response: ResponseContext) throws -> Output
}

extension ResponseSerializer {
    /// Validates and decodes a swift-http-types response and its body.
    ///
    /// ```swift
    /// let value = try HTTPResponseSerializer().responseObject(for: head, data: body)   // validated Data?
    /// ```
    public func responseObject(for response: HTTPResponse, data: Data?, requestMethod: HTTPRequest.Method? = nil) throws -> Output {
        try responseObject(for: ResponseContext(response: response, data: data, requestMethod: requestMethod))
    }

    /// Validates and decodes a swift-http-types response and its body, with the request it
    /// answers: its method, its `Accept` field, and the head a ``ResponseValidator`` sees.
    public func responseObject(for response: HTTPResponse, data: Data?, request: HTTPRequest) throws -> Output {
        try responseObject(for: ResponseContext(response: response, data: data, request: request))
    }
}

/// A response serializer built around an ``HTTPResponseSerializer`` holding the shared
/// validation (acceptable status codes and content types).
public protocol HTTPResponseSerializerComposing: ResponseSerializer {
    /// The shared validation: acceptable status codes and content types.
    var base: HTTPResponseSerializer { get set }
}

extension HTTPResponseSerializerComposing {
    /// The base serializer's properties, read and written through this serializer.
    public subscript<Value>(dynamicMember keyPath: WritableKeyPath<HTTPResponseSerializer, Value>) -> Value {
        get { base[keyPath: keyPath] }
        set { base[keyPath: keyPath] = newValue }
    }

    /// Checks the status code and content type, then runs the caller's checks, on the body as
    /// given (not preprocessed); see ``HTTPResponseSerializer/validate(_:)``.
    public func validate(_ response: ResponseContext) throws {
        try base.validate(response)
    }

    /// Validation for a serializer that decodes the body: a status failure is returned so the
    /// body can still be decoded and attached to it; anything else (a content type that says
    /// the body is not for us, a check's refusal) is thrown.
    package func statusFailure(_ response: ResponseContext) throws -> ResponseSerializationError? {
        do {
            try base.validate(response)
            return nil
        } catch let error as ResponseSerializationError where !error.involvesUnacceptableContentType {
            guard case .unacceptableStatusCode = error else { throw error }
            return error
        }
    }
}

extension ResponseContext {
    /// The one test of an empty body every serializer applies: no bytes, or (for formats that
    /// cannot be blank: JSON, XML, property lists) only spaces, tabs, CR and LF. An empty body
    /// is never handed to a reader; the serializer gives its output's empty value instead.
    package func hasEmptyBody(whitespaceIsEmpty: Bool) -> Bool {
        guard let data else { return true }
        return whitespaceIsEmpty ? data.isBlank : data.isEmpty
    }
}

extension Data {
    /// Empty, or only spaces, tabs, CR and LF: a body with nothing to decode.
    package var isBlank: Bool {
        allSatisfy { $0 == 0x20 || $0 == 0x09 || $0 == 0x0A || $0 == 0x0D }
    }
}
