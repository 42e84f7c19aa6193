#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// A step that changes a response body before it is validated and decoded: Alamofire's
/// `DataPreprocessor`.
///
/// For bodies that are not quite the format they claim: JSON behind an anti-hijacking prefix
/// (``GoogleXSSIPreprocessor``), a payload wrapped in an envelope, bytes that need unmasking.
/// Set one as ``HTTPResponseSerializer/preprocessor``, or with
/// ``HTTPResponseSerializerComposing/preprocessing(_:)``; every whole-body serializer then
/// validates, checks and decodes the body it returns, and errors carry that body. A
/// preprocessor that throws is reported as
/// ``ResponseSerializationError/preprocessingFailed(_:response:)``.
///
/// ```swift
/// struct Unwrapping: ResponseBodyPreprocessor {
///     func preprocess(_ data: Data) throws -> Data {
///         guard data.starts(with: Data("while(1);".utf8)) else { return data }
///         return data.dropFirst(9)
///     }
/// }
/// ```
///
/// Streams read as they arrive (``StreamingResponseSerializer/values(for:body:requestMethod:request:)``)
/// are not preprocessed: a preprocessor sees a whole body.
public protocol ResponseBodyPreprocessor: Sendable {
    /// The body to validate and decode in place of `data`; never called for an empty body.
    ///
    /// Return a slice of `data` to drop a prefix without copying it.
    func preprocess(_ data: Data) throws -> Data
}

/// Strips the prefix Google's APIs (and Angular's JSON vulnerability protection) put before
/// JSON so a page cannot run it as a script: `)]}'`, an optional comma, and a line end.
///
/// A body without the prefix is returned as it is, so the preprocessor is safe to set on a
/// client whose endpoints differ. The body is sliced, not copied.
public struct GoogleXSSIPreprocessor: ResponseBodyPreprocessor {
    /// A preprocessor for bodies that may start with `)]}'`.
    public init() {}

    /// `data` after the prefix and its line end, or `data` itself when it does not start with one.
    public func preprocess(_ data: Data) throws -> Data {
        var index = data.startIndex
        for byte in ")]}'".utf8 {
            guard index < data.endIndex, data[index] == byte else { return data }
            index += 1
        }
        if index < data.endIndex, data[index] == UInt8(ascii: ",") { index += 1 }
        if index < data.endIndex, data[index] == UInt8(ascii: "\r") { index += 1 }
        guard index < data.endIndex, data[index] == UInt8(ascii: "\n") else { return data }
        return data[(index + 1)...]
    }
}

extension HTTPResponseSerializerComposing {
    /// A copy of this serializer that runs `preprocessor` on each body before validating and
    /// decoding it.
    ///
    /// ```swift
    /// let serializer = DecodableResponseSerializer(Feed.self).preprocessing(GoogleXSSIPreprocessor())
    /// ```
    public func preprocessing(_ preprocessor: some ResponseBodyPreprocessor) -> Self {
        var copy = self
        copy.base.preprocessor = preprocessor
        return copy
    }

    /// `response` with its body preprocessed, what every whole-body serializer starts from.
    ///
    /// A preprocessor that throws on a response the status and content-type rules refuse
    /// leaves that refusal, the more useful error, to be reported with the body as received.
    package func preprocessed(_ response: ResponseContext) throws -> ResponseContext {
        guard let preprocessor = base.preprocessor, let data = response.data, !data.isEmpty else { return response }
        do {
            var prepared = response
            prepared.data = try preprocessor.preprocess(data)
            return prepared
        } catch {
            try base.rulesOnly.validate(response)
            throw ResponseSerializationError.preprocessingFailed(UnderlyingError(error), response: response.withoutDecodedBody)
        }
    }
}
