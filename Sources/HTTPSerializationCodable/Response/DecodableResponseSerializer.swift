#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import HTTPSerializationCore

/// A decoder a ``DecodableResponseSerializer`` can use: ``JSONBodyDecoder`` (the default),
/// `JSONDecoder`, `PropertyListDecoder`, or your own.
public protocol ResponseBodyDecoder: Sendable {
    /// Decodes a value of `type` from a response body, or throws.
    func decode<T: Decodable>(_ type: T.Type, from data: Data) throws -> T
    /// Decodes a value of `type` from the value at `keyPath` of a JSON response body.
    ///
    /// ``JSONBodyDecoder`` decodes the value in place. The default, for any other decoder,
    /// finds the value with the package's reader (the first of a repeated key, as
    /// `JSONDecoder` takes it) and hands this decoder that value's text: every key, string
    /// and number as the body wrote it, whitespace left out.
    func decode<T: Decodable>(_ type: T.Type, from data: Data, atKeyPath keyPath: JSONKeyPath) throws -> T
}

extension ResponseBodyDecoder {
    /// The value at `keyPath` found by the package, its text decoded by this decoder.
    ///
    /// - Throws: `DecodingError.dataCorrupted` over a ``/HTTPSerializationCore/JSONReadingError``
    ///   for a body that is not JSON, ``/HTTPSerializationCore/JSONKeyPathError`` for a path
    ///   that leads nowhere, otherwise what this decoder throws.
    public func decode<T: Decodable>(_ type: T.Type, from data: Data, atKeyPath keyPath: JSONKeyPath) throws -> T {
        let text: Data
        do {
            text = try ParameterValue.jsonText(of: data, atKeyPath: keyPath, maximumDepth: ParameterValue.defaultMaximumDepth).get()
        } catch let error as JSONReadingError {
            throw DecodingError.unreadableJSON(error)
        }
        return try decode(type, from: text)
    }
}

extension JSONDecoder: ResponseBodyDecoder {}
extension PropertyListDecoder: ResponseBodyDecoder {}

/// A type that can stand for a response with no body (204, 205, HEAD, …).
public protocol EmptyResponseRepresentable {
    /// The value that stands for an empty body.
    static var emptyResponseValue: Self { get }
}

extension Optional: EmptyResponseRepresentable {
    /// `nil`: an optional decodes an empty body as no value.
    public static var emptyResponseValue: Self { nil }
}

/// The value of a response that has, and should have, no body.
public struct EmptyResponse: Decodable, EmptyResponseRepresentable, Sendable, Equatable {
    /// Creates the empty value.
    public init() {}
    /// A new ``EmptyResponse``.
    public static var emptyResponseValue: EmptyResponse { EmptyResponse() }
}

/// Validates a response and decodes its body into a `Decodable` type.
///
/// Bodies that are empty by design (204/205, HEAD, and optionally `Content-Length: 0`)
/// decode to `nil` for optional types or ``EmptyResponse``; after a failed validation, the
/// server's own error payload can be decoded with ``decodeErrorPayload(_:from:)``.
///
/// ```swift
/// struct User: Decodable { var name: String }
/// struct APIError: Decodable { var message: String }
/// let serializer = DecodableResponseSerializer(User.self)
/// do {
///     let user = try serializer.responseObject(for: response, data: data)
/// } catch {
///     let payload = serializer.decodeErrorPayload(APIError.self, from: error)
/// }
/// ```
@dynamicMemberLookup
public struct DecodableResponseSerializer<Value: Decodable>: HTTPResponseSerializerComposing {
    /// The shared validation; JSON content types by default.
    public var base: HTTPResponseSerializer
    /// The decoder for bodies that are not empty; ``JSONBodyDecoder`` by default.
    public var decoder: any ResponseBodyDecoder
    /// Status codes whose body is empty by definition.
    public var emptyResponseCodes: Set<Int> = [204, 205]
    /// Request methods whose responses have no body.
    public var emptyRequestMethods: Set<String> = ["HEAD"]
    /// Also treat `Content-Length: 0` as an empty response (opt in).
    public var treatsZeroContentLengthAsEmpty = false
    /// Treat a body of only whitespace as empty (true by default: JSON cannot be blank).
    public var treatsWhitespaceAsEmpty = true
    /// Where `Value` sits inside the JSON body (`"data.items"`); nil decodes the whole body.
    ///
    /// Moya's `map(_:atKeyPath:)`: only the value at the path is decoded, with the decoder's
    /// ``ResponseBodyDecoder/decode(_:from:atKeyPath:)``. A path that leads nowhere is a
    /// `responseSerializationFailed` error whose underlying error is the
    /// ``/HTTPSerializationCore/JSONKeyPathError`` naming it. Error payloads are read whole.
    public var keyPath: JSONKeyPath?

    /// A serializer that decodes `Value` with `decoder`, accepting JSON content types by default;
    /// with `keyPath`, only the value at that path of the JSON body.
    ///
    /// ```swift
    /// let items = DecodableResponseSerializer([Item].self, atKeyPath: "data.items")
    /// ```
    public init(
        _ type: Value.Type = Value.self, decoder: any ResponseBodyDecoder = JSONBodyDecoder(), atKeyPath keyPath: JSONKeyPath? = nil,
        base: HTTPResponseSerializer = HTTPResponseSerializer(acceptableContentTypes: HTTPResponseSerializer.jsonContentTypes)
    ) {
        self.decoder = decoder
        self.keyPath = keyPath
        self.base = base
    }

    /// Validates the response, then decodes its body as `Value`; an expected empty body gives
    /// ``EmptyResponseRepresentable/emptyResponseValue``.
    ///
    /// - Throws: validation errors;
    ///   ``/HTTPSerializationCore/ResponseSerializationError/unreadableJSON(_:response:validation:)``
    ///   for a body ``JSONBodyDecoder`` cannot read as JSON; otherwise
    ///   `ResponseSerializationError.responseSerializationFailed` for an unexpected empty body or
    ///   one that does not decode as `Value`.
    public func responseObject(for response: ResponseContext) throws -> Value {
        let response = try preprocessed(response)
        try base.validate(response)
        let context = response.withoutDecodedBody
        if context.hasEmptyBody(whitespaceIsEmpty: treatsWhitespaceAsEmpty) {
            guard emptyIsExpected(context) else {
                throw ResponseSerializationError.responseSerializationFailed(
                    reason: "The response body is empty, but a value of type \(Value.self) was expected.", response: context)
            }
            guard let empty = Value.self as? any EmptyResponseRepresentable.Type, let value = empty.emptyResponseValue as? Value else {
                throw ResponseSerializationError.responseSerializationFailed(
                    reason: "An empty response cannot be represented as \(Value.self); use an Optional or EmptyResponse.",
                    response: context)
            }
            return value
        }
        do {
            let body = context.data ?? Data()
            if let keyPath { return try decoder.decode(Value.self, from: body, atKeyPath: keyPath) }
            return try decoder.decode(Value.self, from: body)
        } catch DecodingError.dataCorrupted(let corrupted) where corrupted.underlyingError is JSONReadingError {
            // The package's reader refused the bytes: the same typed case as JSONResponseSerializer's.
            guard let reading = corrupted.underlyingError as? JSONReadingError else { throw DecodingError.dataCorrupted(corrupted) }
            throw ResponseSerializationError.unreadableJSON(reading, response: context)
        } catch {
            throw ResponseSerializationError.responseSerializationFailed(
                reason: "The response could not be decoded as \(Value.self): \(error)", response: context, underlying: UnderlyingError(error))
        }
    }

    /// The server's error payload carried by a failed validation (or failed decoding),
    /// decoded with this serializer's decoder; nil when there is none or it does not decode.
    public func decodeErrorPayload<Payload: Decodable>(_ type: Payload.Type, from error: any Error) -> Payload? {
        guard let error = error as? ResponseSerializationError, let data = error.responseContext?.data, !data.isEmpty else { return nil }
        return try? decoder.decode(Payload.self, from: data)
    }

    private func emptyIsExpected(_ response: ResponseContext) -> Bool {
        if let code = response.response?.status.code, emptyResponseCodes.contains(code) { return true }
        if let method = response.requestMethod, emptyRequestMethods.contains(where: { HTTPHeaderFields.namesMatch($0, method.rawValue) }) {
            return true
        }
        if treatsZeroContentLengthAsEmpty, let length = response.response?.headerFields[.contentLength],
           length.utf8.filter({ $0 != 0x20 && $0 != 0x09 }).elementsEqual("0".utf8) {
            return true
        }
        return false
    }
}
