#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// A check of your own that a response must pass after the status-code and content-type
/// rules: Alamofire's `validate { request, response, data in … }`.
///
/// Use one for what those rules cannot say: a header the API promises, an error envelope that
/// comes back with status 200, a body that must not be empty. The check sees the
/// ``ResponseContext`` (head, body, and the request, which the package's transports put
/// there) and throws to refuse it; the
/// caller gets ``ResponseSerializationError/validationFailed(_:response:)`` with the thrown
/// error, the response and the body, as for the built-in rules. Checks run in the order they
/// were added, and the first to throw ends validation.
///
/// ```swift
/// let serializer = DecodableResponseSerializer(Order.self).validating { context in
///     guard context.response?.headerFields[.init("X-Request-Id")!] != nil else { throw MissingRequestID() }
/// }
/// ```
///
/// On a stream (``StreamingResponseSerializer``) the checks run on the head before any value
/// is read, with ``ResponseContext/data`` nil, and a refusal is thrown at once, without the
/// body: a stream whose status passed may never end. A compound serializer runs its checks
/// on whichever child's value it returns.
public struct ResponseValidator: Sendable {
    let check: @Sendable (ResponseContext) throws -> Void

    /// A check that throws to refuse a response.
    public init(_ check: @escaping @Sendable (ResponseContext) throws -> Void) {
        self.check = check
    }

    /// Runs the check; what it throws comes back as a validation failure about `context`.
    func run(on context: ResponseContext) throws {
        do {
            try check(context)
        } catch {
            throw ResponseSerializationError.validationFailed(UnderlyingError(error), response: context)
        }
    }
}

extension HTTPResponseSerializerComposing {
    /// A copy of this serializer that also runs `check`, after the status and content-type
    /// rules and the checks added before it.
    ///
    /// ```swift
    /// let strict = JSONStreamResponseSerializer(decoding: Event.self).validating { context in
    ///     if context.response?.headerFields[.init("X-Deprecated")!] != nil { throw DeprecatedEndpoint() }
    /// }
    /// ```
    public func validating(_ check: @escaping @Sendable (ResponseContext) throws -> Void) -> Self {
        var copy = self
        copy.base.validators.append(ResponseValidator(check))
        return copy
    }
}
