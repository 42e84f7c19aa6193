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
    public var output: Output
    public var response: HTTPURLResponseValue
    public var data: Data

    public init(output: Output, response: HTTPURLResponseValue, data: Data) {
        self.output = output
        self.response = response
        self.data = data
    }
}

/// `HTTPURLResponse` under a name that reads well in signatures across modules.
public typealias HTTPURLResponseValue = HTTPURLResponse
