#if Vapor
public import HTTPSerializationCodable
public import Vapor

/// Vapor's `AbortError` for a request body the package could not read: what every coder and
/// `req.decodeMultipart` throws.
///
/// Vapor's error middleware answers it as it answers `Abort`: the status, and
/// `{"error":true,"reason":"…"}` with the failure's message. Unlike `Abort` it keeps the
/// ``/HTTPSerializationCodable/RequestBodyFailure`` and, through it, the error behind it, which
/// Vapor's log line shows as the possible cause; the client never sees that error.
///
/// ```swift
/// catch let abort as RequestBodyAbort {
///     request.logger.info("refused body", metadata: ["cause": "\(abort.failure.underlyingError.map { "\($0)" } ?? "")"])
///     throw abort
/// }
/// ```
public struct RequestBodyAbort: AbortError, DebuggableError {
    /// The status, the message for the client, and the underlying error.
    public var failure: RequestBodyFailure

    /// The abort for `failure`.
    public init(_ failure: RequestBodyFailure) {
        self.failure = failure
    }

    /// The failure's status.
    public var status: HTTPResponseStatus { HTTPResponseStatus(statusCode: failure.status.code) }
    /// The failure's message: the `reason` Vapor sends the client.
    public var reason: String { failure.message }
    /// The underlying error, as the log should show it: Vapor prints it after the reason.
    public var possibleCauses: [String] { failure.underlyingError.map { [String(reflecting: $0)] } ?? [] }
}

/// Runs a read of a request's body (or, `readingQuery`, its query string), throwing the
/// package's failures as ``RequestBodyAbort`` (Vapor's error middleware answers other errors
/// with 500).
func abortingOnFailure<T>(readingQuery: Bool = false, _ body: () throws -> T) throws -> T {
    do {
        return try body()
    } catch {
        throw abort(for: error, readingQuery: readingQuery)
    }
}

/// The streamed form of `abortingOnFailure(_:)`.
func abortingOnFailure<T>(_ body: () async throws -> T) async throws -> T {
    do {
        return try await body()
    } catch {
        throw abort(for: error, readingQuery: false)
    }
}

private func abort(for error: any Error, readingQuery: Bool) -> any Error {
    guard let failure = readingQuery ? RequestBodyFailure(queryError: error) : RequestBodyFailure(error) else { return error }
    return RequestBodyAbort(failure)
}
#endif
