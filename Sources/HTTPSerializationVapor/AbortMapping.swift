#if Vapor
import HTTPSerializationCodable
import Vapor

/// Runs a read of a request's body, turning the package's failures into the `Abort` a
/// client should see (Vapor's error middleware answers other errors with 500).
func abortingOnFailure<T>(_ body: () throws -> T) throws -> T {
    do {
        return try body()
    } catch {
        throw abort(for: error)
    }
}

/// The streamed form of `abortingOnFailure(_:)`.
func abortingOnFailure<T>(_ body: () async throws -> T) async throws -> T {
    do {
        return try await body()
    } catch {
        throw abort(for: error)
    }
}

private func abort(for error: any Error) -> any Error {
    guard let failure = RequestBodyFailure(error) else { return error }
    return Abort(HTTPResponseStatus(statusCode: failure.status), reason: failure.message)
}
#endif
