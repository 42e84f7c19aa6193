#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import HTTPSerializationCore

extension ServerSentEvent {
    /// An event whose data is `value` encoded as compact JSON, one line, by the package's encoder.
    ///
    /// For event streams that carry models, as model and notification APIs send them; the
    /// client reads them back with `decodeData(as:decoder:)`.
    ///
    /// ```swift
    /// let writer = ServerSentEventWriter<Delta> { try .event(ServerSentEvent(event: "delta", encoding: $0)) }
    /// ```
    ///
    /// - Throws: what ``JSONBodyEncoder/encode(_:)`` throws for `value`.
    public init(event: String? = nil, encoding value: some Encodable, id: String? = nil, retry: Int? = nil,
                encoder: JSONBodyEncoder = JSONBodyEncoder()) throws {
        var encoder = encoder
        encoder.outputFormatting.remove(.prettyPrinted)
        self.init(event: event, data: String(decoding: try encoder.encode(value), as: UTF8.self), id: id, retry: retry)
    }
}
