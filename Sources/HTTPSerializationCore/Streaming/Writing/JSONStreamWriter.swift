#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Writes values as a stream of JSON: JSON Lines (NDJSON), RFC 7464 JSON text sequences, or
/// the elements of one top-level array, each value written as soon as it comes.
///
/// The writing half of ``JSONStreamResponseSerializer``, through the package's own JSON
/// writer: every value is compact, so no raw line break can appear inside one, and an
/// array's commas and brackets are right for any count, `[]` for none. Values come as
/// ``ParameterValue``s here; with `HTTPSerializationCodable` as `Encodable` models
/// (`init(format:encoder:)`), and with `HTTPSerializationFoundation` as `[String: Any]` graphs.
///
/// ```swift
/// let writer = JSONStreamWriter<ParameterValue>(format: .lines)
/// let body = writer.chunks(for: rows, minimumChunkSize: 64 * 1024)
/// ```
public struct JSONStreamWriter<Value>: StreamBodyWriter {
    /// How values are separated.
    public enum Format: Sendable, Hashable {
        /// One value a line, each ending with LF: JSON Lines, NDJSON.
        case lines
        /// RFC 7464: each value after an RS (0x1E) and before an LF.
        case textSequence
        /// The elements of one top-level array: `[`, values between commas, `]`.
        case array
    }

    /// How values are separated.
    public let format: Format
    /// The body's media type: by default `application/x-ndjson` for lines (the type bulk APIs
    /// such as Elasticsearch's ask for; set `application/jsonl` where that is wanted),
    /// `application/json-seq` for text sequences and `application/json` for an array.
    public var contentType: String

    private let encode: @Sendable (Value, inout [UInt8]) throws -> Void

    /// A writer whose values `encode` appends as compact JSON text, in UTF-8, appending
    /// nothing when it throws.
    package init(format: Format, encode: @escaping @Sendable (Value, inout [UInt8]) throws -> Void) {
        self.format = format
        self.encode = encode
        switch format {
        case .lines: contentType = "application/x-ndjson"
        case .textSequence: contentType = "application/json-seq"
        case .array: contentType = "application/json"
        }
    }

    /// An array's `[`.
    public func writeStart(into bytes: inout [UInt8]) {
        if format == .array { bytes.append(UInt8(ascii: "[")) }
    }

    /// Appends `value` with its separators.
    public func write(_ value: Value, index: Int, into bytes: inout [UInt8]) throws {
        switch format {
        case .lines: break
        case .textSequence: bytes.append(0x1E)
        case .array: if index > 1 { bytes.append(UInt8(ascii: ",")) }
        }
        do {
            try encode(value, &bytes)
        } catch {
            throw StreamWritingError.unencodableValue(index: index, underlying: UnderlyingError(error))
        }
        if format != .array { bytes.append(0x0A) }
    }

    /// An array's `]`.
    public func writeEnd(count: Int, into bytes: inout [UInt8]) {
        if format == .array { bytes.append(UInt8(ascii: "]")) }
    }
}

extension JSONStreamWriter where Value == ParameterValue {
    /// A writer of parameter trees.
    ///
    /// - Parameters:
    ///   - format: how values are separated.
    ///   - options: `.sortedKeys` and `.withoutEscapingSlashes` apply; output is always compact
    ///     (`.prettyPrinted` is ignored) and any value may be a scalar.
    ///   - maximumDepth: the deepest nesting written; a deeper value is refused.
    public init(format: Format = .lines, options: JSONWritingOptions = [], maximumDepth: Int = ParameterValue.defaultMaximumDepth) {
        let options = options.subtracting(.prettyPrinted).union(.fragmentsAllowed)
        self.init(format: format) { try $0.appendJSON(to: &$1, options: options, maximumDepth: maximumDepth) }
    }
}
