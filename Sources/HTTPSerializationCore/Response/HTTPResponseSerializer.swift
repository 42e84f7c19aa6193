#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import HTTPTypes

/// Validates status codes and content types and returns the body as it came:
/// AFNetworking's `AFHTTPResponseSerializer`, and the base every other serializer composes.
///
/// ```swift
/// var serializer = HTTPResponseSerializer()
/// serializer.acceptableContentTypes = ["application/json", "application/*+json"]
/// let data = try serializer.responseObject(for: response, data: body)
/// ```
///
/// Where AFNetworking let things slip, this does not: the status is checked even when the
/// response has no URL, and an unacceptable content type is reported even with an empty body.
@dynamicMemberLookup
public struct HTTPResponseSerializer: HTTPResponseSerializerComposing {
    /// Accepted status codes; nil accepts any. 200–299 by default.
    public var acceptableStatusCodes: Set<Int>?
    /// 200–299: the status codes every serializer accepts by default.
    ///
    /// Made once and shared, so making a serializer does not hash a hundred codes.
    public static let successStatusCodes = Set(200..<300)
    /// Accepted MIME types (wildcards allowed); nil accepts any.
    public var acceptableContentTypes: Set<String>?
    /// The content types of JSON bodies: what `DecodableResponseSerializer` and
    /// `JSONResponseSerializer` accept by default.
    public static let jsonContentTypes: Set<String> = ["application/json", "text/json", "text/javascript"]
    /// How content types are compared.
    public var contentTypeMatching = ContentTypeMatching()
    /// When ``acceptableContentTypes`` is nil, take the acceptable types from the request's
    /// `Accept` field instead of accepting any: Alamofire's default for `validate()`.
    ///
    /// A type takes the weight of the most specific range that matches it (`text/html` over
    /// `text/*` over `*/*`, RFC 9110 §12.5.1), and a weight of 0 refuses it; a request without
    /// `Accept` accepts any type. It needs the request in the ``ResponseContext``, which the
    /// package's transports put there. Off by default, as in AFNetworking.
    public var contentTypesFromAcceptHeader = false
    /// Checks of your own, run in order once the status code and content type have passed;
    /// see ``ResponseValidator`` and ``HTTPResponseSerializerComposing/validating(_:)``.
    public var validators: [ResponseValidator] = []
    /// Changes each body before it is validated and decoded (``GoogleXSSIPreprocessor``, or
    /// your own); nil leaves bodies as they came. See ``ResponseBodyPreprocessor``.
    public var preprocessor: (any ResponseBodyPreprocessor)?

    /// A validator accepting these status codes and content types (nil accepts any).
    public init(acceptableStatusCodes: Set<Int>? = successStatusCodes, acceptableContentTypes: Set<String>? = nil) {
        self.acceptableStatusCodes = acceptableStatusCodes
        self.acceptableContentTypes = acceptableContentTypes
    }

    /// The serializer itself: it is its own base, so the composing API applies to it directly.
    public var base: HTTPResponseSerializer {
        get { self }
        set { self = newValue }
    }

    /// Throws when the status code or content type is not acceptable, or a check in
    /// ``validators`` refuses the response; a response that is not HTTP passes.
    ///
    /// A content-type failure is ``ResponseSerializationError/unacceptableContentType(_:response:)``;
    /// a status failure is ``ResponseSerializationError/unacceptableStatusCode(_:response:underlying:)``
    /// with any content-type failure underneath; a check's refusal, run only once both have
    /// passed, is ``ResponseSerializationError/validationFailed(_:response:)``. Each carries the
    /// response and the body. A response with no content type at all passes when its body is empty.
    public func validate(_ response: ResponseContext) throws {
        guard let head = response.response else { return }
        let context = response.withoutDecodedBody
        var contentTypeError: ResponseSerializationError?
        if let acceptsType = typeRule(for: context) {
            let contentType = context.contentType
            let hasBody = !(context.data?.isEmpty ?? true)
            let accepted: Bool
            if let contentType {
                accepted = acceptsType(contentType.mimeType) && contentTypeMatching.charsetAccepted(contentType.charset)
            } else {
                accepted = !hasBody
            }
            if !accepted {
                contentTypeError = .unacceptableContentType(contentType?.mimeType, response: context)
            }
        }
        if let acceptableStatusCodes, !acceptableStatusCodes.contains(head.status.code) {
            throw ResponseSerializationError.unacceptableStatusCode(head.status.code, response: context, underlying: contentTypeError)
        }
        if let contentTypeError { throw contentTypeError }
        try runValidators(on: context)
    }

    /// The caller's checks alone, in order: for a serializer whose value came from elsewhere
    /// (a compound's child) once the rules have been applied there.
    package func runValidators(on response: ResponseContext) throws {
        for validator in validators { try validator.run(on: response.withoutDecodedBody) }
    }

    /// Which media types `response` may have: the serializer's own, else those the request's
    /// `Accept` allows when ``contentTypesFromAcceptHeader`` is on; nil when any type passes.
    package func typeRule(for response: ResponseContext) -> ((String) -> Bool)? {
        if let acceptableContentTypes {
            return { contentTypeMatching.matches($0, in: acceptableContentTypes) }
        }
        guard contentTypesFromAcceptHeader, let ranges = response.acceptedMediaRanges else { return nil }
        return { ranges.accepts($0) }
    }

    /// The status-code and content-type rules without the caller's checks.
    package var rulesOnly: HTTPResponseSerializer {
        var rules = self
        rules.validators = []
        return rules
    }

    /// Preprocesses and validates the body, then returns it.
    public func responseObject(for response: ResponseContext) throws -> Data? {
        let response = try preprocessed(response)
        try validate(response)
        return response.data
    }
}
