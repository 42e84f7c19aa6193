#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// A `multipart/form-data` body read whole: its fields in order, repeats kept, and its files,
/// small ones in memory and larger ones in temporary files.
///
/// For a server route taking an upload: everything the limits allow is read, no file part is
/// ever held in memory past ``spillThreshold`` bytes, and temporary files are removed when
/// the last ``MultipartFile`` that refers to one goes, on every path (an error or a
/// cancellation halfway included), unless moved.
///
/// ```swift
/// let form = try await MultipartForm.read(request.body, contentType: contentType)
/// form.value(named: "title")                 // "Holiday"
/// form.values(named: "tags")                 // ["sea", "sun"]
/// try form.file(named: "photo")?.move(to: destination)
/// ```
public struct MultipartForm: Sendable, Hashable {
    /// A text field: a part without a file name.
    public struct Field: Sendable, Hashable {
        /// The field's name.
        public var name: String
        /// The field's bytes as UTF-8 text, invalid bytes replaced.
        public var value: String
        /// The part's full head.
        public var head: MultipartPartHead

        /// A field from its name and text, for tests and forms made by hand.
        public init(name: String, value: String, head: MultipartPartHead? = nil) {
            self.name = name
            self.value = value
            self.head = head ?? MultipartPartHead(name: name)
        }
    }

    /// File parts larger than this go to a temporary file: 1 MiB unless the read says otherwise.
    public static let spillThreshold = 1 << 20

    /// The text fields, in body order.
    public var fields: [Field]
    /// The file parts, in body order; files of a nested `multipart/mixed` part carry the
    /// outer part's name.
    public var files: [MultipartFile]

    /// An empty form.
    public init(fields: [Field] = [], files: [MultipartFile] = []) {
        self.fields = fields
        self.files = files
    }

    /// The first value of the field `name`.
    public func value(named name: String) -> String? {
        fields.first { $0.name == name }?.value
    }

    /// Every value of the field `name`, in order.
    public func values(named name: String) -> [String] {
        fields.filter { $0.name == name }.map(\.value)
    }

    /// The first file sent under `name`.
    public func file(named name: String) -> MultipartFile? {
        files.first { $0.fieldName == name }
    }

    /// The fields as ordered name-value pairs, the input of the form decoders.
    public var pairs: [QueryStringPair] {
        fields.map { QueryStringPair(field: $0.name, value: .string($0.value)) }
    }

    /// Reads a form arriving as an async sequence of chunks.
    ///
    /// Chunks that may create, write or close a temporary file are read on a thread outside
    /// Swift's cooperative pool, so a slow disk stalls this read and no other task.
    ///
    /// - Parameters:
    ///   - body: the body's chunks.
    ///   - contentType: the request's `Content-Type`, with its boundary.
    ///   - limits: what the body and each part are held to.
    ///   - spillThreshold: file parts longer than this go to a temporary file.
    ///   - temporaryDirectory: where temporary files go: `TMPDIR`, else `/tmp`, by default.
    /// - Throws: a ``MultipartParsingError``, or `CancellationError`; temporary files made
    ///   before the error are removed.
    public static func read<Body: AsyncSequence>(
        _ body: Body, contentType: String, limits: MultipartParsingLimits = MultipartParsingLimits(),
        spillThreshold: Int = MultipartForm.spillThreshold, temporaryDirectory: URL? = nil
    ) async throws -> MultipartForm where Body.Element: Sequence<UInt8> {
        let feed = try MultipartCollectorFeed(MultipartFormCollector(
            contentType: contentType, limits: limits, spillThreshold: spillThreshold,
            directory: temporaryDirectory?.path ?? TemporaryFile.defaultDirectory))
        for try await chunk in body {
            try Task.checkCancellation()
            try await feed.take(chunk)
        }
        return try await feed.finish()
    }

    /// Reads a form already in memory.
    ///
    /// - Parameters:
    ///   - body: the whole body.
    ///   - contentType: the request's `Content-Type`, with its boundary.
    ///   - limits: what the body and each part are held to.
    ///   - spillThreshold: file parts longer than this go to a temporary file.
    ///   - temporaryDirectory: where temporary files go: `TMPDIR`, else `/tmp`, by default.
    /// - Throws: a ``MultipartParsingError``.
    public static func read(
        _ body: some Sequence<UInt8>, contentType: String, limits: MultipartParsingLimits = MultipartParsingLimits(),
        spillThreshold: Int = MultipartForm.spillThreshold, temporaryDirectory: URL? = nil
    ) throws -> MultipartForm {
        let collector = try MultipartFormCollector(contentType: contentType, limits: limits, spillThreshold: spillThreshold,
                                                   directory: temporaryDirectory?.path ?? TemporaryFile.defaultDirectory)
        try body.withChunkBytes { try collector.feed(UnsafeRawBufferPointer($0)) }
        return try collector.finish()
    }
}
