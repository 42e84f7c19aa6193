#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import HTTPSerializationCore
import HTTPTypes

extension ResponseContext {
    /// This response with its `Content-Encoding` (gzip or deflate) undone: the body decoded
    /// within `limits`, and the head without `Content-Encoding` and `Content-Length`, which
    /// described the coded body.
    ///
    /// For the whole-body serializers, when the transport did not decode the body itself:
    ///
    /// ```swift
    /// let value = try JSONResponseSerializer().responseObject(for: context.decodingContentEncoding())
    /// ```
    ///
    /// - Throws: ``DecompressionError``: an unsupported coding, a corrupt, truncated or
    ///   over-long body, or bytes after its end.
    public func decodingContentEncoding(limits: DecompressionLimits = DecompressionLimits()) throws -> ResponseContext {
        guard let head = response, let encoding = try ContentEncoding(of: head) else { return self }
        var context = self
        context.response?.headerFields[.contentEncoding] = nil
        context.response?.headerFields[.contentLength] = nil
        guard let data, !data.isEmpty else { return context }
        let inflater = Inflater(encoding: encoding, limits: limits)
        var decoded = Data()
        try data.withUnsafeBytes { raw in
            try inflater.decompress(raw.bindMemory(to: UInt8.self)) { decoded.append($0) }
        }
        try inflater.finish()
        context.data = decoded
        return context
    }
}
