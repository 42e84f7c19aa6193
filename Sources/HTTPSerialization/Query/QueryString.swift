import Foundation

/// One field and value of a flattened parameter tree: AFNetworking's `AFQueryStringPair`.
public struct QueryStringPair: Sendable, Hashable {
    /// The unescaped field name, such as `phone[home]`.
    public var field: String
    /// A scalar value, or `.null` for a bare key.
    public var value: ParameterValue

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
    private var output: [UInt8] = []

    init(style: QueryStringStyle) {
        self.style = style
    }

    func write(_ parameters: ParameterValue) -> String {
        var writer = self
        QueryStringFlattener(style: style).walk(parameters, into: &writer)
        return writer.finish()
    }

    mutating func pair(field: UnsafeBufferPointer<UInt8>, value: ParameterValue) {
        if !output.isEmpty { output.append(UInt8(ascii: "&")) }
        let start = output.count
        PercentEscaping.append(field, to: &output)
        switch value {
        case .null:
            if style.nullEncoding == .emptyValue { output.append(UInt8(ascii: "=")) }
        case .string(var string):
            output.append(UInt8(ascii: "="))
            string.withUTF8 { PercentEscaping.append($0, to: &output) }
        default:
            output.append(UInt8(ascii: "="))
            PercentEscaping.append(style.text(for: value), to: &output)
        }
        if style.spaceEncoding == .plus { replaceEscapedSpaces(from: start) }
    }

    /// `%20` can only come from a space: a literal `%` is written `%25`, and `+` is `%2B`.
    private mutating func replaceEscapedSpaces(from start: Int) {
        var read = start
        var write = start
        let count = output.count
        while read < count {
            if output[read] == UInt8(ascii: "%"), read + 2 < count,
               output[read + 1] == UInt8(ascii: "2"), output[read + 2] == UInt8(ascii: "0") {
                output[write] = UInt8(ascii: "+")
                read += 3
            } else {
                output[write] = output[read]
                read += 1
            }
            write += 1
        }
        output.removeSubrange(write...)
    }

    func finish() -> String {
        String(decoding: output, as: UTF8.self)
    }
}
