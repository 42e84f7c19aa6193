#if Hummingbird
import Hummingbird
import HTTPSerializationCodable
import NIOCore

/// The whole body, or a 413 naming `limit` (Hummingbird's own collect answers an empty 413).
func collectBody(of request: Request, limit: Int) async throws -> ByteBuffer {
    do {
        return try await request.body.collect(upTo: limit)
    } catch is NIOTooManyBytesError {
        throw RequestBodyFailure.bodyTooLarge(limit: limit)
    }
}

/// Runs a read of a request's body, throwing the package's failures as ``RequestBodyFailure``,
/// Hummingbird's `HTTPResponseError` here (it answers other errors with 500).
func refusingBody<T>(_ read: () async throws -> T) async throws -> T {
    do {
        return try await read()
    } catch {
        guard let failure = RequestBodyFailure(error) else { throw error }
        throw failure
    }
}

/// A 200 response holding `bytes`, with the headers Hummingbird's own encoders send.
func encodedResponse(_ bytes: some Sequence<UInt8>, contentType: String) -> Response {
    let buffer = ByteBuffer(bytes: bytes)
    return Response(
        status: .ok,
        headers: [.contentType: contentType, .contentLength: String(buffer.readableBytes)],
        body: ResponseBody(byteBuffer: buffer))
}
#endif
