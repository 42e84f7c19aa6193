#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import HTTPSerializationCore
public import HTTPTypes

/// How a server answers a request body the package could not read: the status a client
/// should see, a message safe to send it, and the error behind it for the server's log.
///
/// One mapping for every framework adapter: malformed JSON, forms and multipart bodies, and
/// bodies that are not the model, are 400; a broken limit is 413; a body of a type no decoder
/// reads is 415; a temporary file that could not be written is 500 with no path in the message.
/// The Hummingbird adapter throws it as its `HTTPResponseError`, the Vapor adapter inside its
/// `AbortError`, so an app's error middleware sees the status, the message and the cause.
///
/// ```swift
/// catch {
///     if let failure = RequestBodyFailure(error) { return Response(status: failure.status, body: failure.message) }
///     throw error
/// }
/// ```
public struct RequestBodyFailure: Error, Sendable, Hashable, CustomStringConvertible {
    /// The status to answer with: 400, 413 (414 for a query string), 415 or 500.
    public var status: HTTPResponse.Status
    /// One sentence for the client: what was wrong and where in the body (a field as
    /// `items[3].price`, malformed text by its byte offset), with nothing about the server: no
    /// file paths, no Swift type names.
    public var message: String
    /// The error the failure was made from, for the server's log; nil for one made directly.
    /// Never sent to the client: its text may name types, files or paths.
    public var underlyingError: (any Error)?

    /// A failure with the given status and message.
    public init(status: HTTPResponse.Status, message: String, underlyingError: (any Error)? = nil) {
        self.status = status
        self.message = message
        self.underlyingError = underlyingError
    }

    /// The answer for `error`, keeping `error` as ``underlyingError``, or nil for an error that
    /// is not about the request body (a database failure in the route, say), which the
    /// framework should handle as it does.
    public init?(_ error: any Error) {
        self.init(error, whole: "body")
    }

    /// The answer for an error reading a request's query string: its messages call it the
    /// query string rather than the body, and a broken limit is 414 URI Too Long, the status
    /// for a target too large to read, rather than 413.
    package init?(queryError error: any Error) {
        self.init(error, whole: "query string")
        if status == .contentTooLarge { status = .uriTooLong }
    }

    /// The answer for `error`, the part of the request read named `whole` in messages.
    private init?(_ error: any Error, whole: String) {
        switch error {
        case let error as RequestBodyFailure:
            self = error
        case let error as JSONReadingError:
            self.init(status: .badRequest, message: Self.jsonMessage(error), underlyingError: error)
        case let error as FormDecodingError:
            switch error {
            case .tooManyPairs, .keyTooLong, .valueTooLong:
                self.init(status: .contentTooLarge, message: error.description, underlyingError: error)
            case .malformedPercentEscape, .nestedTooDeep, .conflictingKeys:
                self.init(status: .badRequest, message: error.description, underlyingError: error)
            }
        case let error as MultipartParsingError:
            switch error {
            case .tooManyParts, .headersTooLarge, .tooManyHeaders, .fieldTooLarge, .fileTooLarge, .bodyTooLarge, .tooManySpilledFiles:
                self.init(status: .contentTooLarge, message: error.description, underlyingError: error)
            case .temporaryFileFailed:
                self.init(status: .internalServerError, message: "The upload could not be stored.", underlyingError: error)
            case .notMultipart, .invalidBoundary, .unterminated, .malformedDelimiter, .malformedHeader, .missingName,
                 .unreadableParameter, .nestingTooDeep:
                self.init(status: .badRequest, message: error.description, underlyingError: error)
            }
        case let error as DecodingError:
            // A reader's own error inside a decoding error (malformed JSON or form text, a
            // broken limit) answers as that error does, with its status.
            if case .dataCorrupted(let context) = error, let cause = context.underlyingError,
               let inner = RequestBodyFailure(cause, whole: whole) {
                self.init(status: inner.status, message: inner.message, underlyingError: error)
            } else {
                self.init(status: .badRequest, message: Self.decodingMessage(error, whole: whole), underlyingError: error)
            }
        default:
            return nil
        }
    }

    /// Equal when the status and message are: what a client sees.
    public static func == (lhs: RequestBodyFailure, rhs: RequestBodyFailure) -> Bool {
        lhs.status == rhs.status && lhs.message == rhs.message
    }

    /// Hashes the status and message.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(status)
        hasher.combine(message)
    }

    /// `413 Content Too Large` for a body longer than `limit` bytes, naming the limit, for an
    /// adapter that reads the body whole.
    public static func bodyTooLarge(limit: Int) -> RequestBodyFailure {
        RequestBodyFailure(status: .contentTooLarge, message: "The body is longer than the limit of \(limit) bytes.")
    }

    /// `415 Unsupported Media Type` for a body whose content type no decoder reads.
    public static func unsupportedContentType(_ contentType: String?) -> RequestBodyFailure {
        RequestBodyFailure(status: .unsupportedMediaType, message: contentType.map { "Bodies of type \"\($0.prefix(100))\" are not accepted." }
            ?? "The body has no Content-Type.")
    }

    /// `413 Content Too Large: message`, then the underlying error as the log should show it.
    public var description: String {
        let text = "\(status.code) \(status.reasonPhrase): \(message)"
        guard let underlyingError else { return text }
        return text + " (\(String(reflecting: underlyingError)))"
    }

    private static func jsonMessage(_ error: JSONReadingError) -> String {
        "The body is not valid JSON: \(error.reasonText) (byte \(error.offset))."
    }

    /// Where and what, from the coding path and the kind of mismatch.
    private static func decodingMessage(_ error: DecodingError, whole: String) -> String {
        func place(_ path: [any CodingKey]) -> String {
            var text = ""
            for key in path {
                if let index = key.intValue, key.stringValue == String(index) || key.stringValue.hasPrefix("Index ") {
                    text += "[\(index)]"
                } else {
                    text += text.isEmpty ? key.stringValue : "." + key.stringValue
                }
            }
            return text.isEmpty ? "the top level" : "`\(text.prefix(200))`"
        }
        switch error {
        case .dataCorrupted(let context):
            // The description is the decoder's or the model's, and may name Swift types.
            return "The value at \(place(context.codingPath)) is not valid."
        case .keyNotFound(let key, let context):
            return "The \(whole) lacks the required key \(place(context.codingPath + [key]))."
        case .valueNotFound(_, let context):
            return "The value at \(place(context.codingPath)) is missing or null."
        case .typeMismatch(_, let context):
            return "The value at \(place(context.codingPath)) is not of the expected kind."
        @unknown default:
            return "The \(whole) does not match what this endpoint expects."
        }
    }
}
