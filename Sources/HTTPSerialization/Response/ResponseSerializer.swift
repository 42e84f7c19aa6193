import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Validates a response and decodes its body: AFNetworking's `AFURLResponseSerialization`.
public protocol ResponseSerializer: Sendable {
    associatedtype Output
    /// The decoded body, or a typed error that carries the response and body.
    func responseObject(for response: URLResponse?, data: Data?) throws -> Output
}

/// A response serializer built around an ``HTTPResponseSerializer`` holding the shared
/// validation (acceptable status codes and content types).
public protocol HTTPResponseSerializerComposing: ResponseSerializer {
    var base: HTTPResponseSerializer { get set }
}

extension HTTPResponseSerializerComposing {
    /// The base serializer's properties, read and written through this serializer.
    public subscript<Value>(dynamicMember keyPath: WritableKeyPath<HTTPResponseSerializer, Value>) -> Value {
        get { base[keyPath: keyPath] }
        set { base[keyPath: keyPath] = newValue }
    }

    /// Checks the status code and content type; see ``HTTPResponseSerializer/validate(_:data:)``.
    public func validate(_ response: URLResponse?, data: Data?) throws {
        try base.validate(response, data: data)
    }

    /// Validation for a serializer that decodes the body: a content-type failure is thrown
    /// (that body is not for us); a status failure is returned so the body can still be
    /// decoded and attached to it.
    func statusFailure(_ response: URLResponse?, data: Data?) throws -> HTTPSerializationError? {
        do {
            try base.validate(response, data: data)
            return nil
        } catch let error as HTTPSerializationError where !error.involvesUnacceptableContentType {
            return error
        }
    }
}

extension Data {
    /// Empty, or only spaces, tabs, CR and LF: a body with nothing to decode.
    var isBlank: Bool {
        allSatisfy { $0 == 0x20 || $0 == 0x09 || $0 == 0x0A || $0 == 0x0D }
    }
}
