#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// A failure of this package, whichever half it comes from: ``RequestSerializationError``
/// (building a request) or ``ResponseSerializationError`` (validating and decoding a response).
///
/// Catch one half by its type, or both with `catch let error as any HTTPSerializationError`.
/// With the `HTTPSerializationFoundation` layer, `error as NSError` gives AFNetworking's domain
/// for each half (`com.alamofire.error.serialization.request` or `.response`), its codes, and
/// its user-info keys.
public protocol HTTPSerializationError: Error, Sendable, CustomStringConvertible {
    /// The AFNetworking domain of this half.
    static var domain: String { get }
    /// The `NSURLError` code AFNetworking used for this kind of failure.
    var code: Int { get }
    /// Why the failure happened, in AFNetworking's words where it had any.
    var reason: String { get }
    /// The lower-level error that caused this one, if any.
    var underlyingError: (any Error)? { get }
    /// The response and body a response error was about; nil for request errors.
    var responseContext: ResponseContext? { get }
}

extension HTTPSerializationError {
    /// The AFNetworking domain this error belongs to.
    public var domain: String { Self.domain }

    static func quoted(_ text: String) -> String {
        "\"\(text.count > 200 ? text.prefix(200) + "…" : Substring(text))\""
    }

    static func pathDescription(_ path: String) -> String {
        path.isEmpty ? "the top level" : "`\(path)`"
    }
}

/// A request that cannot be built or sent as asked, with where and why: AFNetworking's
/// `com.alamofire.error.serialization.request` errors.
public enum RequestSerializationError: HTTPSerializationError, Equatable {
    /// The URL string could not be parsed as a URL (empty, spaces, bad characters).
    case invalidURL(String)
    /// The HTTP method is not an RFC 9110 token (it would corrupt the request line).
    case invalidHTTPMethod(String)
    /// A header field name or value would corrupt the header block (CR, LF, NUL, other
    /// control characters, or a name that is not a token). The value is not echoed, since
    /// headers often carry secrets.
    case invalidHeaderField(name: String, reason: String)
    /// Basic-auth credentials that RFC 7617 cannot carry (a user name containing `:`).
    case invalidCredentials(reason: String)
    /// A value in a parameter graph has no parameter form. `path` is where it sits, such as
    /// `user.tags[2]`.
    case invalidParameter(path: String, reason: String)
    /// A parameter graph is nested deeper than the configured limit.
    case nestingTooDeep(path: String, limit: Int)
    /// The parameters cannot be written as JSON (sets, data, dates, NaN, infinity, or a
    /// top-level scalar without `.fragmentsAllowed`).
    case invalidJSONParameters(reason: String, underlying: UnderlyingError? = nil)
    /// The parameters cannot be written as a property list (null, sets, unsupported format).
    case invalidPropertyListParameters(reason: String, underlying: UnderlyingError? = nil)
    /// The query or body text cannot be represented in the serializer's string encoding.
    case stringEncodingFailed(encoding: UInt)

    /// A multipart boundary that RFC 2046 does not allow (1–70 characters of its set, no
    /// trailing space).
    case invalidBoundary(String, reason: String)
    /// Multipart bodies cannot be sent with this method (GET and HEAD have no body).
    case multipartMethodNotAllowed(String)
    /// A multipart part's source cannot be used: a missing, unreadable or non-regular file,
    /// a stream that fails, or a file URL that is not a file.
    case multipartSourceUnavailable(part: String, reason: String)
    /// A multipart part's source delivered a different number of bytes than declared (it
    /// ended early, grew, or changed size). Nothing past the declared length is ever sent.
    case multipartLengthMismatch(part: String, declared: UInt64, actual: UInt64)
    /// A single-use input stream was asked for a second time; use a stream factory to replay.
    case multipartStreamAlreadyConsumed(part: String)
    /// A part's body holds the delimiter `CRLF--BOUNDARY`: every parser would end the part
    /// there and read what follows as parts of its own (part injection). Nothing past the
    /// chunk that completed the delimiter is sent.
    case multipartBoundaryInBody(part: String)
    /// Writing an encoded body to a file failed.
    case fileWriteFailed(path: String, reason: String)
}

extension RequestSerializationError {
    /// AFNetworking's domain for request-serialization errors.
    public static var domain: String { "com.alamofire.error.serialization.request" }

    /// -1000 (`NSURLErrorBadURL`) for ``invalidURL(_:)``; -1016
    /// (`NSURLErrorCannotDecodeContentData`) for every other case, as AFNetworking used.
    public var code: Int {
        if case .invalidURL = self { return -1000 }  // NSURLErrorBadURL
        return -1016  // NSURLErrorCannotDecodeContentData, as AFNetworking used for every other request failure
    }

    /// Always nil: a request error carries no response.
    public var responseContext: ResponseContext? { nil }

    /// One sentence on what failed, naming the URL, method, header, parameter path or part at fault.
    public var reason: String {
        switch self {
        case .invalidURL(let string):
            return "The URL string \(Self.quoted(string)) is not a valid URL."
        case .invalidHTTPMethod(let method):
            return "The HTTP method \(Self.quoted(method)) is not a valid token."
        case .invalidHeaderField(let name, let reason):
            return "The header field \(Self.quoted(name)) is invalid: \(reason)."
        case .invalidCredentials(let reason):
            return "The credentials are invalid: \(reason)."
        case .invalidParameter(let path, let reason):
            return "The parameter at \(Self.pathDescription(path)) is invalid: \(reason)."
        case .nestingTooDeep(let path, let limit):
            return "The parameters are nested more than \(limit) levels deep at \(Self.pathDescription(path))."
        case .invalidJSONParameters:
            return "The `parameters` argument is not valid JSON."
        case .invalidPropertyListParameters:
            return "The `parameters` argument is not a valid property list."
        case .stringEncodingFailed(let encoding):
            return "The text cannot be represented in \(String.Encoding(rawValue: encoding))."
        case .invalidBoundary(let boundary, let reason):
            return "The multipart boundary \(Self.quoted(boundary)) is invalid: \(reason)."
        case .multipartMethodNotAllowed(let method):
            return "A multipart body cannot be sent with \(method)."
        case .multipartSourceUnavailable(let part, let reason):
            return "The source of \(part) cannot be read: \(reason)."
        case .multipartLengthMismatch(let part, let declared, let actual):
            if actual < declared {
                return "The source of \(part) ended after \(actual) of its declared \(declared) bytes."
            }
            return "The source of \(part) holds \(actual) bytes or more, past its declared \(declared)."
        case .multipartStreamAlreadyConsumed(let part):
            return "The input stream of \(part) was already read; append a stream factory to replay a body."
        case .multipartBoundaryInBody(let part):
            return "The body of \(part) contains the multipart boundary delimiter, which would end the part early."
        case .fileWriteFailed(let path, let reason):
            return "Writing \(Self.quoted(path)) failed: \(reason)."
        }
    }

    /// What went wrong in one line, with the detail that the reason leaves out.
    public var description: String {
        switch self {
        case .invalidJSONParameters(let reason, _), .invalidPropertyListParameters(let reason, _):
            return "\(self.reason) \(reason)"
        default:
            return reason
        }
    }

    /// The error a JSON or property-list writer threw, if any; nil for other cases.
    public var underlyingError: (any Error)? {
        switch self {
        case .invalidJSONParameters(_, let underlying), .invalidPropertyListParameters(_, let underlying):
            return underlying?.error
        default:
            return nil
        }
    }

    /// The typed error for a value that a JSON or property-list body cannot hold.
    @usableFromInline package static func refusedValue(inJSON: Bool, path: ParameterPath, reason: String) -> RequestSerializationError {
        let place = path.count == 0 ? "" : " at `\(path.description)`"
        let text = "The value\(place) is invalid: \(reason)."
        return inJSON ? .invalidJSONParameters(reason: text) : .invalidPropertyListParameters(reason: text)
    }
}

/// A response that failed validation or could not be decoded, carrying the response and its
/// body: AFNetworking's `com.alamofire.error.serialization.response` errors.
public indirect enum ResponseSerializationError: HTTPSerializationError {
    /// The response's status code is not acceptable. `underlying` holds a content-type
    /// failure found as well (AFNetworking chained them the same way).
    case unacceptableStatusCode(Int, response: ResponseContext, underlying: ResponseSerializationError? = nil)
    /// The response's content type is not acceptable (nil: it had none, but a body).
    case unacceptableContentType(String?, response: ResponseContext)
    /// The body could not be decoded. `validation` is a status failure found first; the
    /// Foundation error, if any, is `underlying`.
    case responseSerializationFailed(
        reason: String, response: ResponseContext, underlying: UnderlyingError? = nil, validation: ResponseSerializationError? = nil)
    /// The package's JSON reader refused the body. `validation` is a status failure found
    /// first; `error as NSError` carries JSONSerialization's error (`NSCocoaErrorDomain`
    /// 3840) underneath, as AFNetworking's did.
    case unreadableJSON(JSONReadingError, response: ResponseContext, validation: ResponseSerializationError? = nil)
    /// A body reader of a layer above the core refused the body: the XML layer's (XML documents
    /// and property lists), the image layer's (an image past its pixel limit, or one this
    /// platform recognises but does not decode), or a reader of your own. Match the layer's
    /// error type with a cast, as ``BodyReadingError`` shows.
    case unreadableBody(any BodyReadingError, response: ResponseContext)
    /// A check of the caller's (a ``ResponseValidator``) refused the response; the error it
    /// threw is the first value and the ``underlyingError``.
    case validationFailed(UnderlyingError, response: ResponseContext)
    /// The serializer's ``ResponseBodyPreprocessor`` threw on the body (carried as received);
    /// the error it threw is the first value and the ``underlyingError``.
    case preprocessingFailed(UnderlyingError, response: ResponseContext)
}

extension ResponseSerializationError {
    /// AFNetworking's domain for response-serialization errors.
    public static var domain: String { "com.alamofire.error.serialization.response" }

    /// -1011 (`NSURLErrorBadServerResponse`) for an unacceptable status code or a response a
    /// check refused; -1016 (`NSURLErrorCannotDecodeContentData`) for every other case.
    public var code: Int {
        switch self {
        case .unacceptableStatusCode, .validationFailed: return -1011  // NSURLErrorBadServerResponse
        default: return -1016  // NSURLErrorCannotDecodeContentData
        }
    }

    /// The response and body the error is about.
    public var context: ResponseContext {
        switch self {
        case .unacceptableStatusCode(_, let context, _), .unacceptableContentType(_, let context),
             .responseSerializationFailed(_, let context, _, _), .unreadableBody(_, let context),
             .unreadableJSON(_, let context, _), .validationFailed(_, let context), .preprocessingFailed(_, let context):
            return context
        }
    }

    /// The response and body the error is about; never nil.
    public var responseContext: ResponseContext? { context }

    /// Whether this error or one it wraps is an unacceptable content type: AFNetworking's
    /// serializers do not try to decode such bodies.
    public var involvesUnacceptableContentType: Bool {
        switch self {
        case .unacceptableContentType: return true
        case .unacceptableStatusCode(_, _, let underlying?): return underlying.involvesUnacceptableContentType
        case .responseSerializationFailed(_, _, _, let validation?), .unreadableJSON(_, _, let validation?):
            return validation.involvesUnacceptableContentType
        default: return false
        }
    }

    /// AFNetworking's wording for status and content-type failures (`Request failed: …`);
    /// otherwise the decoder's or reader's reason.
    public var reason: String {
        switch self {
        case .unacceptableStatusCode(let code, _, _):
            return "Request failed: \(HTTPStatusReason.phrase(for: code)) (\(code))"
        case .unacceptableContentType(let type, _):
            return "Request failed: unacceptable content-type: \(type ?? "(none)")"
        case .responseSerializationFailed(let reason, _, _, _):
            return reason
        case .unreadableJSON(let error, _, _):
            return "The response is not valid JSON: \(error.reasonText) (byte \(error.offset))."
        case .unreadableBody(let error, _):
            return error.description
        case .validationFailed(let error, _):
            return "Request failed: the response did not pass validation: \(error)"
        case .preprocessingFailed(let error, _):
            return "The response body could not be preprocessed: \(error)"
        }
    }

    /// The same text as ``reason``.
    public var description: String { reason }

    /// The decoder's or Foundation's error, or the validation error this one wraps.
    public var underlyingError: (any Error)? {
        switch self {
        case .unacceptableStatusCode(_, _, let underlying):
            return underlying
        case .responseSerializationFailed(_, _, let underlying, let validation):
            return underlying?.error ?? validation
        case .unreadableJSON(let error, _, _):
            return error
        case .unreadableBody(let error, _):
            return error
        case .validationFailed(let error, _), .preprocessingFailed(let error, _):
            return error.error
        default:
            return nil
        }
    }
}

extension ResponseSerializationError: Equatable {
    /// Whether both are the same case with equal values; two ``unreadableBody(_:response:)``
    /// errors are equal when their refusals have the same type and are equal.
    public static func == (lhs: ResponseSerializationError, rhs: ResponseSerializationError) -> Bool {
        switch (lhs, rhs) {
        case let (.unacceptableStatusCode(code, response, underlying), .unacceptableStatusCode(otherCode, otherResponse, otherUnderlying)):
            return code == otherCode && response == otherResponse && underlying == otherUnderlying
        case let (.unacceptableContentType(type, response), .unacceptableContentType(otherType, otherResponse)):
            return type == otherType && response == otherResponse
        case let (.responseSerializationFailed(reason, response, underlying, validation),
                  .responseSerializationFailed(otherReason, otherResponse, otherUnderlying, otherValidation)):
            return reason == otherReason && response == otherResponse && underlying == otherUnderlying && validation == otherValidation
        case let (.unreadableJSON(error, response, validation), .unreadableJSON(otherError, otherResponse, otherValidation)):
            return error == otherError && response == otherResponse && validation == otherValidation
        case let (.unreadableBody(error, response), .unreadableBody(otherError, otherResponse)):
            return error.isSameRefusal(as: otherError) && response == otherResponse
        case let (.validationFailed(error, response), .validationFailed(otherError, otherResponse)),
             let (.preprocessingFailed(error, response), .preprocessingFailed(otherError, otherResponse)):
            return error == otherError && response == otherResponse
        case (.unacceptableStatusCode, _), (.unacceptableContentType, _), (.responseSerializationFailed, _), (.unreadableJSON, _),
             (.unreadableBody, _), (.validationFailed, _), (.preprocessingFailed, _):
            return false
        }
    }
}

/// A lower-level error carried inside a request or response error: a decoder's
/// `DecodingError`, or an error from Foundation's serializers.
///
/// Two are equal when they have the same type and debug description, so errors that carry
/// one still compare with `==`.
public struct UnderlyingError: Sendable, Equatable, CustomStringConvertible {
    /// The error as it was thrown.
    public let error: any Error

    /// Wraps `error`.
    public init(_ error: any Error) {
        self.error = error
    }

    /// The wrapped error as `String(describing:)` prints it.
    public var description: String { String(describing: error) }

    /// Whether both wrap errors of the same type that print the same with `String(reflecting:)`.
    public static func == (lhs: UnderlyingError, rhs: UnderlyingError) -> Bool {
        type(of: lhs.error) == type(of: rhs.error) && String(reflecting: lhs.error) == String(reflecting: rhs.error)
    }
}
