#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import HTTPSerializationCore

/// Decodes `Decodable` models from `multipart/form-data` bodies, streamed or whole: the
/// parser's limits, where files go, and the form decoder in one value.
///
/// Fields decode as ``FormDecoder`` decodes a form; file parts decode into
/// ``/HTTPSerializationCore/MultipartFile`` properties, those past ``spillThreshold`` bytes
/// held in temporary files rather than memory. Framework integrations take one of these, so
/// the limits are set in one place.
///
/// ```swift
/// struct Upload: Decodable { var title: String; var file: MultipartFile }
/// let upload = try await MultipartFormDecoder().decode(Upload.self, from: chunks, contentType: contentType)
/// ```
public struct MultipartFormDecoder: Sendable {
    /// Decodes the fields and files into the model.
    public var form: FormDecoder
    /// What a body and each of its parts are held to.
    public var limits: MultipartParsingLimits
    /// File parts longer than this many bytes go to a temporary file.
    public var spillThreshold: Int
    /// Where temporary files go; `TMPDIR`, else `/tmp`, when nil.
    public var temporaryDirectory: URL?

    /// A decoder with the parser's default limits and a 1 MiB spill threshold.
    public init(form: FormDecoder = FormDecoder(), limits: MultipartParsingLimits = MultipartParsingLimits(),
                spillThreshold: Int = MultipartForm.spillThreshold, temporaryDirectory: URL? = nil) {
        self.form = form
        self.limits = limits
        self.spillThreshold = spillThreshold
        self.temporaryDirectory = temporaryDirectory
    }

    /// Reads the form from a body arriving in chunks, as it arrives.
    ///
    /// - Throws: ``/HTTPSerializationCore/MultipartParsingError``, or `CancellationError`.
    public func read<Body: AsyncSequence>(_ body: Body, contentType: String) async throws -> MultipartForm
    where Body.Element: Sequence<UInt8> {
        try await MultipartForm.read(body, contentType: contentType, limits: limits, spillThreshold: spillThreshold,
                                     temporaryDirectory: temporaryDirectory)
    }

    /// Reads the form from a body arriving in chunks and decodes `type` from it.
    ///
    /// - Throws: ``/HTTPSerializationCore/MultipartParsingError`` for a body that cannot be read,
    ///   ``/HTTPSerializationCore/FormDecodingError`` or `DecodingError` for one that is not the model.
    public func decode<T: Decodable, Body: AsyncSequence>(_ type: T.Type, from body: Body, contentType: String) async throws -> T
    where Body.Element: Sequence<UInt8> {
        try form.decode(type, from: await read(body, contentType: contentType))
    }

    /// Decodes `type` from a whole body already in memory.
    ///
    /// - Throws: the same errors as the streamed decode.
    public func decode<T: Decodable>(_ type: T.Type, from body: some Sequence<UInt8>, contentType: String) throws -> T {
        let received = try MultipartForm.read(body, contentType: contentType, limits: limits, spillThreshold: spillThreshold,
                                              temporaryDirectory: temporaryDirectory)
        return try form.decode(type, from: received)
    }
}
