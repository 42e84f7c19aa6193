import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import HTTPSerializationCore

/// How far an upload or download has come.
public struct TransferProgress: Sendable, Equatable {
    /// Bytes sent or received so far.
    public var completed: Int64
    /// The expected total, when known.
    public var total: Int64?

    /// Progress of `completed` bytes out of `total`, nil when unknown.
    public init(completed: Int64, total: Int64?) {
        self.completed = completed
        self.total = total
    }

    /// 0…1 when the total is known.
    public var fraction: Double? {
        guard let total, total > 0 else { return nil }
        return min(1, Double(completed) / Double(total))
    }
}

/// The decoded body of a response with the response and raw body it came from.
public struct SerializedResponse<Output> {
    /// The body as the serializer decoded it.
    public var output: Output
    /// The HTTP response the body came with.
    public var response: HTTPURLResponseValue
    /// The body's bytes as received.
    public var data: Data

    /// Pairs a decoded body with its response and bytes.
    public init(output: Output, response: HTTPURLResponseValue, data: Data) {
        self.output = output
        self.response = response
        self.data = data
    }
}

/// `HTTPURLResponse` under a name that reads well in signatures across modules.
public typealias HTTPURLResponseValue = HTTPURLResponse
