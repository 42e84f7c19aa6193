/// How far an upload, a download or a body written to a file has come.
///
/// Every progress callback in the package takes one: the transports' upload and download
/// progress and ``MultipartFormData/writeEncodedBody(to:progress:)``.
public struct TransferProgress: Sendable, Equatable {
    /// Bytes sent, received or written so far.
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
