#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// One field and value of a flattened parameter tree: AFNetworking's `AFQueryStringPair`.
public struct QueryStringPair: Sendable, Hashable {
    /// The unescaped field name, such as `phone[home]`.
    public var field: String
    /// A scalar value, or `.null` for a bare key.
    public var value: ParameterValue

    /// A pair as `queryStringPairs(from:)` makes them: an unescaped field and a scalar or `.null`.
    public init(field: String, value: ParameterValue) {
        self.field = field
        self.value = value
    }

    /// `field=value`, both escaped, or the bare field for null.
    public func urlEncodedString(style: QueryStringStyle = .afNetworking) -> String {
        var writer = QueryStringWriter(style: style)
        var field = field
        field.withUTF8 { writer.pair(field: $0, value: value) }
        return writer.finish()
    }
}

/// Flattens parameters into the pairs a query string is made of, in output order.
///
/// For servers that need the pairs themselves, such as multipart form fields or a signature
/// over the sorted parameters.
///
/// ```swift
/// queryStringPairs(from: ["a": ["b": 1]])  // [QueryStringPair(field: "a[b]", value: 1)]
/// ```
public func queryStringPairs(
    from parameters: ParameterValue, style: QueryStringStyle = .afNetworking
) -> [QueryStringPair] {
    var collector = PairCollector()
    QueryStringFlattener(style: style).walk(parameters, into: &collector)
    return collector.pairs
}

/// Encodes parameters as a query string or `application/x-www-form-urlencoded` body.
///
/// The default style is AFNetworking's, byte for byte:
///
/// ```swift
/// queryString(from: ["key": "value", "key1": "value&"])  // "key=value&key1=value%26"
/// ```
public func queryString(from parameters: ParameterValue, style: QueryStringStyle = .afNetworking) -> String {
    QueryStringWriter(style: style).write(parameters)
}

private struct PairCollector: QueryPairSink {
    var pairs: [QueryStringPair] = []

    mutating func pair(field: UnsafeBufferPointer<UInt8>, value: ParameterValue) {
        pairs.append(QueryStringPair(field: String(decoding: field, as: UTF8.self), value: value))
    }
}

/// Writes escaped pairs joined by `&` straight into one byte buffer.
struct QueryStringWriter: QueryPairSink {
    let style: QueryStringStyle
    private let output = ByteOutput()
    /// Pairs written so far: a pair can be empty (a bare key with no name), so the output
    /// length cannot tell whether a separator is due.
    private var pairs = 0

    init(style: QueryStringStyle) {
        self.style = style
    }

    func write(_ parameters: ParameterValue) -> String {
        var writer = QueryStringWriter(style: style)
        QueryStringFlattener(style: style).walk(parameters, into: &writer)
        return writer.finish()
    }

    mutating func pair(field: UnsafeBufferPointer<UInt8>, value: ParameterValue) {
        if pairs > 0 { output.append(UInt8(ascii: "&")) }
        pairs += 1
        let start = output.count
        output.appendEscaped(field)
        switch value {
        case .null:
            if style.nullEncoding == .emptyValue { output.append(UInt8(ascii: "=")) }
        case .string(let string):
            output.append(UInt8(ascii: "="))
            output.appendEscaped(string)
        default:
            output.append(UInt8(ascii: "="))
            output.appendEscaped(style.text(for: value))
        }
        if style.spaceEncoding == .plus { replaceEscapedSpaces(from: start) }
    }

    /// `%20` can only come from a space: a literal `%` is written `%25`, and `+` is `%2B`.
    private func replaceEscapedSpaces(from start: Int) {
        let bytes = output.base
        let count = output.count
        var read = start
        var write = start
        while read < count {
            if bytes[read] == UInt8(ascii: "%"), read + 2 < count,
               bytes[read + 1] == UInt8(ascii: "2"), bytes[read + 2] == UInt8(ascii: "0") {
                bytes[write] = UInt8(ascii: "+")
                read += 3
            } else {
                bytes[write] = bytes[read]
                read += 1
            }
            write += 1
        }
        output.truncate(to: write)
    }

    func finish() -> String {
        output.makeString()
    }
}
