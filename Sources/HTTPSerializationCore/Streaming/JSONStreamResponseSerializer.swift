#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import HTTPTypes

/// Reads a stream of JSON values, each as soon as it is complete: JSON Lines and NDJSON (one
/// value a line), RFC 7464 JSON text sequences (each value after an RS byte), or the elements
/// of one top-level JSON array.
///
/// For exports, logs and model APIs that send one record at a time, and for huge arrays that
/// should not be held whole: memory is bounded by the largest value, not the body. Blank
/// lines are skipped and CRLF is accepted; a line or element that is not JSON, or not the
/// value asked for, ends the stream with ``StreamingResponseError`` naming its line, record or
/// element, after the values before it. Values come as ``ParameterValue``s here; with
/// `HTTPSerializationCodable` as a `Decodable` model (`init(decoding:decoder:)`), and with
/// `HTTPSerializationFoundation` as Foundation's `Any` graph.
///
/// ```swift
/// for try await record in JSONStreamResponseSerializer().values(for: head, body: chunks) {
///     print(record["id"] ?? .null)
/// }
/// ```
///
/// As a whole-body ``ResponseSerializer`` it gives every value of a body in hand, in order.
@dynamicMemberLookup
public struct JSONStreamResponseSerializer<Value>: StreamingResponseSerializer, HTTPResponseSerializerComposing {
    /// How values are separated.
    public enum Format: Sendable, Equatable {
        /// From the content type: `application/json-seq` a text sequence, `application/json`
        /// (and `text/json`) an array, anything else lines.
        case automatic
        /// One value a line: JSON Lines, NDJSON.
        case lines
        /// RFC 7464: each value follows an RS (0x1E). A record is complete when the next one
        /// starts or the body ends.
        case textSequence
        /// The elements of one top-level array, each delivered when its bytes are complete.
        case array
    }

    /// Status codes 200–299; `application/x-ndjson`, `application/jsonl`,
    /// `application/jsonlines`, `application/x-jsonlines`, `application/json-seq`,
    /// `application/json` and `text/json`.
    public var base = HTTPResponseSerializer(acceptableContentTypes: [
        "application/x-ndjson", "application/jsonl", "application/jsonlines", "application/x-jsonlines", "application/json-seq",
        "application/json", "text/json",
    ])
    /// How values are separated; by default, from the content type.
    public var format = Format.automatic
    /// The longest line, record or array element read, in bytes; a longer one is
    /// ``StreamingResponseError/lineTooLong(line:limit:)`` (or
    /// ``StreamingResponseError/elementTooLarge(index:limit:)``) as soon as it passes the limit.
    public var maximumLineLength = 16 << 20
    /// The deepest nesting of arrays and objects in one value.
    public var maximumDepth = ParameterValue.defaultMaximumDepth

    /// Reads one value's UTF-8 JSON: the output each layer adds.
    private let read: @Sendable (UnsafeBufferPointer<UInt8>, Int) throws -> Value

    /// A serializer whose values `read` makes from a value's UTF-8 JSON and the depth limit;
    /// a `JSONReadingError` it throws is reported as unreadable JSON, anything else as an
    /// undecodable value.
    package init(reading read: @escaping @Sendable (UnsafeBufferPointer<UInt8>, Int) throws -> Value) {
        self.read = read
    }

    /// A decoder for `response`'s body.
    public func makeBodyDecoder(for response: HTTPResponse) throws -> JSONStreamDecoder<Value> {
        var resolved = format
        if resolved == .automatic {
            switch response.headerFields[.contentType].flatMap(ContentTypeField.init)?.mimeType {
            case "application/json-seq": resolved = .textSequence
            case "application/json", "text/json": resolved = .array
            default: resolved = .lines
            }
        }
        let splitter: JSONStreamDecoder<Value>.Splitter
        switch resolved {
        case .array: splitter = .array(JSONArraySplitter(maximumElementSize: maximumLineLength))
        case .textSequence: splitter = .lines(LineSplitter(terminator: .recordSeparator, maximumLength: maximumLineLength))
        default: splitter = .lines(LineSplitter(terminator: .lineFeed, maximumLength: maximumLineLength))
        }
        return JSONStreamDecoder(splitter: splitter, maximumDepth: maximumDepth, read: read)
    }

    /// Validates, then reads every value of the body in hand; an empty body gives none.
    public func responseObject(for response: ResponseContext) throws -> [Value] {
        try allValues(in: response)
    }
}

extension JSONStreamResponseSerializer where Value == ParameterValue {
    /// Values as ``ParameterValue`` trees, read by the package's JSON reader.
    public init() {
        self.init { bytes, depth throws(JSONReadingError) in try ParameterValue(utf8JSON: bytes, maximumDepth: depth) }
    }
}

/// Splits a body into lines, records or array elements and reads each as JSON.
public struct JSONStreamDecoder<Value>: StreamingBodyDecoder {
    enum Splitter {
        case lines(LineSplitter)
        case array(JSONArraySplitter)
    }

    var splitter: Splitter
    let maximumDepth: Int
    let read: @Sendable (UnsafeBufferPointer<UInt8>, Int) throws -> Value

    /// Reads every value `bytes` completes.
    public mutating func decode(_ bytes: Span<UInt8>, into values: inout [Value]) throws {
        try bytes.withUnsafeBufferPointer { bytes in try decode(buffer: bytes, into: &values) }
    }

    private mutating func decode(buffer bytes: UnsafeBufferPointer<UInt8>, into values: inout [Value]) throws {
        let depth = maximumDepth, read = read
        switch splitter {
        case .lines(var lines):
            // Moved out while it runs, so its buffer is never copied.
            splitter = .array(JSONArraySplitter(maximumElementSize: 1))
            defer { splitter = .lines(lines) }
            try lines.split(bytes) { line, number in
                if let value = try Self.value(of: line, depth: depth, read, unreadable: { .unreadableJSON(line: number, $0) },
                                              undecodable: { .undecodableValue(line: number, underlying: $0) }) {
                    values.append(value)
                }
            }
        case .array(var elements):
            splitter = .lines(LineSplitter(terminator: .lineFeed, maximumLength: 1))
            defer { splitter = .array(elements) }
            try elements.split(bytes) { element, index in
                if let value = try Self.value(of: element, depth: depth, read, unreadable: { .unreadableElement(index: index, $0) },
                                              undecodable: { .undecodableElement(index: index, underlying: $0) }) {
                    values.append(value)
                }
            }
        }
    }

    /// Reads a last line the body did not end with a line feed; an array must be closed.
    public mutating func finish(into values: inout [Value]) throws {
        switch splitter {
        case .array(let elements):
            try elements.finish()
        case .lines(var lines):
            let number = lines.nextLineNumber
            let last = lines.takeUnterminated()
            splitter = .lines(lines)
            guard let last else { return }
            let value = try last.withUnsafeBufferPointer {
                try Self.value(of: $0, depth: maximumDepth, read, unreadable: { .unreadableJSON(line: number, $0) },
                               undecodable: { .undecodableValue(line: number, underlying: $0) })
            }
            if let value { values.append(value) }
        }
    }

    /// The value of one line or element; nil for a blank line.
    private static func value(
        of text: UnsafeBufferPointer<UInt8>, depth: Int, _ read: (UnsafeBufferPointer<UInt8>, Int) throws -> Value,
        unreadable: (JSONReadingError) -> StreamingResponseError, undecodable: (UnderlyingError) -> StreamingResponseError
    ) throws -> Value? {
        guard text.contains(where: { $0 != 0x20 && $0 != 0x09 && $0 != 0x0A && $0 != 0x0D }) else { return nil }
        do {
            return try read(text, depth)
        } catch let error as JSONReadingError {
            throw unreadable(error)
        } catch {
            throw undecodable(UnderlyingError(error))
        }
    }
}
