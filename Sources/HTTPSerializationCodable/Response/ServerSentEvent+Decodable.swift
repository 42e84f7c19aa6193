#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import HTTPSerializationCore

extension ServerSentEvent {
    /// The event's data read as JSON into `type`, with the package's decoder.
    ///
    /// For event streams whose events carry JSON, as model and notification APIs send them.
    ///
    /// ```swift
    /// struct Delta: Decodable { var text: String }
    /// for try await event in ServerSentEventsResponseSerializer().values(for: head, body: chunks) where event.data != "[DONE]" {
    ///     print(try event.decodeData(as: Delta.self).text)
    /// }
    /// ```
    ///
    /// - Throws: `DecodingError`, as ``JSONBodyDecoder/decode(_:from:)`` throws it.
    public func decodeData<T: Decodable>(as type: T.Type, decoder: JSONBodyDecoder = JSONBodyDecoder()) throws -> T {
        try decoder.decode(type, from: Data(data.utf8))
    }
}
