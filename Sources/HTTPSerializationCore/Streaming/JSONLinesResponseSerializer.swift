#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import HTTPTypes

/// Reads a stream of JSON values: JSON Lines and NDJSON (one value a line) or RFC 7464 JSON
/// text sequences (each value after an RS byte), each value as soon as it is complete.
///
/// For exports, logs and model APIs that send one record at a time. Blank lines are
/// skipped and CRLF is accepted; a line that is not JSON, or not the value asked for, ends
/// the stream with ``StreamingResponseError`` naming its line (or record) number, after the
/// values before it. Values come as ``ParameterValue``s here; with `HTTPSerializationCodable`
/// as a `Decodable` model (`init(decoding:decoder:)`), and with `HTTPSerializationFoundation`
/// as Foundation's `Any` graph.
///
/// ```swift
/// for try await record in JSONLinesResponseSerializer().values(for: head, body: chunks) {
///     print(record["id"] ?? .null)
/// }
/// ```
///
/// As a whole-body ``ResponseSerializer`` it gives every value of a body in hand, in order.
@dynamicMemberLookup
public struct JSONLinesResponseSerializer<Value>: StreamingResponseSerializer, HTTPResponseSerializerComposing {
    /// How values are separated.
    public enum Format: Sendable, Equatable {
        /// `application/json-seq` reads as a text sequence, anything else as lines.
        case automatic
        /// One value a line: JSON Lines, NDJSON.
        case lines
        /// RFC 7464: each value follows an RS (0x1E). A record is complete when the next one
        /// starts or the body ends.
        case textSequence
    }

    /// Status codes 200–299; `application/x-ndjson`, `application/jsonl`,
    /// `application/jsonlines`, `application/x-jsonlines` and `application/json-seq`.
    public var base = HTTPResponseSerializer(acceptableContentTypes: [
        "application/x-ndjson", "application/jsonl", "application/jsonlines", "application/x-jsonlines", "application/json-seq",
    ])
    /// How values are separated; by default, from the content type.
    public var format = Format.automatic
    /// The longest line (or record) read, in bytes; a longer one is
    /// ``StreamingResponseError/lineTooLong(line:limit:)`` as soon as it passes the limit.
    public var maximumLineLength = 16 << 20
    /// The deepest nesting of arrays and objects in one value.
    public var maximumDepth = ParameterValue.defaultMaximumDepth

    /// Reads one line's UTF-8 JSON into a value: the output each layer adds.
    private let read: @Sendable (UnsafeBufferPointer<UInt8>, Int) throws -> Value

    /// A serializer whose values `read` makes from a line's UTF-8 JSON and the depth limit;
    /// a `JSONReadingError` it throws is reported as unreadable JSON, anything else as an
    /// undecodable value.
    package init(reading read: @escaping @Sendable (UnsafeBufferPointer<UInt8>, Int) throws -> Value) {
        self.read = read
    }

    /// A decoder for `response`'s body.
    public func makeBodyDecoder(for response: HTTPResponse) throws -> JSONLinesDecoder<Value> {
        var sequence = format == .textSequence
        if format == .automatic, let type = response.headerFields[.contentType].flatMap(ContentTypeField.init) {
            sequence = type.mimeType == "application/json-seq"
        }
        return JSONLinesDecoder(
            splitter: LineSplitter(terminator: sequence ? .recordSeparator : .lineFeed, maximumLength: maximumLineLength),
            maximumDepth: maximumDepth, read: read)
    }

    /// Validates, then reads every value of the body in hand; an empty body gives none.
    public func responseObject(for response: ResponseContext) throws -> [Value] {
        try allValues(in: response)
    }
}

extension JSONLinesResponseSerializer where Value == ParameterValue {
    /// Values as ``ParameterValue`` trees, read by the package's JSON reader.
    public init() {
        self.init { bytes, depth throws(JSONReadingError) in try ParameterValue(utf8JSON: bytes, maximumDepth: depth) }
    }
}

/// Splits a body into lines or records and reads each as JSON.
public struct JSONLinesDecoder<Value>: StreamingBodyDecoder {
    var splitter: LineSplitter
    let maximumDepth: Int
    let read: @Sendable (UnsafeBufferPointer<UInt8>, Int) throws -> Value

    /// Reads every line `bytes` completes.
    public mutating func decode(_ bytes: UnsafeBufferPointer<UInt8>, into values: inout [Value]) throws {
        let depth = maximumDepth, read = read
        try splitter.split(bytes) { line, number in
            if let value = try Self.value(of: line, number: number, depth: depth, read) { values.append(value) }
        }
    }

    /// Reads a last line the body did not end with a line feed.
    public mutating func finish(into values: inout [Value]) throws {
        let number = splitter.nextLineNumber
        guard let last = splitter.takeUnterminated() else { return }
        let value = try last.withUnsafeBufferPointer { try Self.value(of: $0, number: number, depth: maximumDepth, read) }
        if let value { values.append(value) }
    }

    /// The value of one line; nil for a blank one.
    private static func value(
        of line: UnsafeBufferPointer<UInt8>, number: Int, depth: Int, _ read: (UnsafeBufferPointer<UInt8>, Int) throws -> Value
    ) throws -> Value? {
        guard line.contains(where: { $0 != 0x20 && $0 != 0x09 && $0 != 0x0A && $0 != 0x0D }) else { return nil }
        do {
            return try read(line, depth)
        } catch let error as JSONReadingError {
            throw StreamingResponseError.unreadableJSON(line: number, error)
        } catch {
            throw StreamingResponseError.undecodableValue(line: number, underlying: UnderlyingError(error))
        }
    }
}
