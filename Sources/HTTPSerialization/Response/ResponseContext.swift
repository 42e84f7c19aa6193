import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The response a response error is about: the response itself, the body, and, when the
/// body could be decoded despite a failed validation, what it held.
///
/// A failed status check usually comes with a useful body (`{"error": "…"}`): read it from
/// ``data`` or ``decodedBody``, or decode it with
/// ``DecodableResponseSerializer/decodeErrorPayload(_:from:)``.
public struct ResponseContext: Sendable, Equatable {
    public var response: HTTPURLResponse?
    public var data: Data?
    /// The decoded body (JSON serializer), attached when a status check failed.
    public var decodedBody: ParameterValue?

    public init(response: HTTPURLResponse?, data: Data?, decodedBody: ParameterValue? = nil) {
        self.response = response
        self.data = data
        self.decodedBody = decodedBody
    }
}
