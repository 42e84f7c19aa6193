#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import HTTPSerializationCore

/// How a server answers a request body the package could not read: the status a client
/// should see and a message safe to send it.
///
/// One mapping for every framework adapter: malformed JSON, forms and multipart bodies, and
/// bodies that are not the model, are 400; a broken limit is 413; a body of a type no decoder
/// reads is 415; a temporary file that could not be written is 500 with no path in the message.
///
/// ```swift
/// catch {
///     if let failure = RequestBodyFailure(error) { return Response(status: failure.status, body: failure.message) }
///     throw error
/// }
/// ```
public struct RequestBodyFailure: Error, Sendable, Hashable, CustomStringConvertible {
    /// The HTTP status code: 400, 413, 415 or 500.
    public var status: Int
    /// One sentence for the client: what was wrong and where in the body, with nothing about
    /// the server (no file paths, no Swift type names).
    public var message: String

    /// A failure with the given status and message.
    public init(status: Int, message: String) {
        self.status = status
        self.message = message
    }

    /// The answer for `error`, or nil for an error that is not about the request body (a
    /// database failure in the route, say), which the framework should handle as it does.
    public init?(_ error: any Error) {
        switch error {
        case let error as RequestBodyFailure:
            self = error
        case let error as JSONReadingError:
            self.init(status: 400, message: Self.jsonMessage(error))
        case let error as FormDecodingError:
            switch error {
            case .tooManyPairs, .keyTooLong, .valueTooLong:
                self.init(status: 413, message: error.description)
            case .malformedPercentEscape, .nestedTooDeep, .conflictingKeys:
                self.init(status: 400, message: error.description)
            }
        case let error as MultipartParsingError:
            switch error {
            case .tooManyParts, .headersTooLarge, .tooManyHeaders, .fieldTooLarge, .fileTooLarge, .bodyTooLarge, .tooManySpilledFiles:
                self.init(status: 413, message: error.description)
            case .temporaryFileFailed:
                self.init(status: 500, message: "The upload could not be stored.")
            case .notMultipart, .invalidBoundary, .unterminated, .malformedDelimiter, .malformedHeader, .missingName,
                 .unreadableParameter, .nestingTooDeep:
                self.init(status: 400, message: error.description)
            }
        case let error as DecodingError:
            self.init(status: 400, message: Self.decodingMessage(error))
        default:
            return nil
        }
    }

    /// `413 Content Too Large` for a body longer than `limit` bytes, naming the limit, for an
    /// adapter that reads the body whole.
    public static func bodyTooLarge(limit: Int) -> RequestBodyFailure {
        RequestBodyFailure(status: 413, message: "The body is longer than the limit of \(limit) bytes.")
    }

    /// `415 Unsupported Media Type` for a body whose content type no decoder reads.
    public static func unsupportedContentType(_ contentType: String?) -> RequestBodyFailure {
        RequestBodyFailure(status: 415, message: contentType.map { "Bodies of type \"\($0.prefix(100))\" are not accepted." }
            ?? "The body has no Content-Type.")
    }

    /// `status: message`.
    public var description: String { "\(status): \(message)" }

    private static func jsonMessage(_ error: JSONReadingError) -> String {
        "The body is not valid JSON: \(error.reasonText) (byte \(error.offset))."
    }

    /// Where and what, from the coding path and the kind of mismatch.
    private static func decodingMessage(_ error: DecodingError) -> String {
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
            if let reading = context.underlyingError as? JSONReadingError { return jsonMessage(reading) }
            if let form = context.underlyingError as? FormDecodingError { return form.description }
            return "The value at \(place(context.codingPath)) is not valid: \(context.debugDescription.prefix(200))"
        case .keyNotFound(let key, let context):
            return "The body lacks the required key \(place(context.codingPath + [key]))."
        case .valueNotFound(_, let context):
            return "The value at \(place(context.codingPath)) is missing or null."
        case .typeMismatch(_, let context):
            return "The value at \(place(context.codingPath)) is not of the expected kind."
        @unknown default:
            return "The body does not match what this endpoint expects."
        }
    }
}
