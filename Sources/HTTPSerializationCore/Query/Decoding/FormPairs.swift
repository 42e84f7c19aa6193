/// Reads `application/x-www-form-urlencoded` bodies and query strings back into pairs.
public enum FormPairs {
    /// The name-value pairs of a form body or query string, in order, repeats kept: `+` is a
    /// space (a literal plus arrives as `%2B`, as this package and browsers write it), a key
    /// without `=` is `.null` (AFNetworking's bare key), and empty pieces between `&`s are
    /// skipped.
    ///
    /// ```swift
    /// try FormPairs.parse("name=Ann+Lee&tags[]=a%26b&flag")
    /// // [name: "Ann Lee", tags[]: "a&b", flag: null]
    /// ```
    ///
    /// - Parameters:
    ///   - text: the body, or the part of a URL after `?`.
    ///   - limits: the most pairs and the longest key and value accepted.
    ///   - keepsMalformedEscapes: keep a `%` that starts no escape as it is, as the WHATWG URL
    ///     standard does, instead of failing.
    /// - Throws: ``FormDecodingError``.
    public static func parse(
        _ text: String, limits: FormDecodingLimits = FormDecodingLimits(), keepsMalformedEscapes: Bool = false
    ) throws(FormDecodingError) -> [QueryStringPair] {
        var text = text
        return try text.withUTF8 { bytes in
            Result { () throws(FormDecodingError) in try parse(buffer: bytes, limits: limits, keepsMalformedEscapes: keepsMalformedEscapes) }
        }.get()
    }

    /// ``parse(_:limits:keepsMalformedEscapes:)`` over UTF-8 bytes the caller holds, such as a
    /// body's `data.span` or NIO's `buffer.readableBytesUInt8Span`.
    ///
    /// - Parameters:
    ///   - bytes: the body, or the part of a URL after `?`.
    ///   - limits: the most pairs and the longest key and value accepted.
    ///   - keepsMalformedEscapes: keep a `%` that starts no escape as it is.
    /// - Throws: ``FormDecodingError``.
    public static func parse(
        utf8 bytes: Span<UInt8>, limits: FormDecodingLimits = FormDecodingLimits(), keepsMalformedEscapes: Bool = false
    ) throws(FormDecodingError) -> [QueryStringPair] {
        try bytes.withUnsafeBufferPointer { bytes throws(FormDecodingError) in
            try parse(buffer: bytes, limits: limits, keepsMalformedEscapes: keepsMalformedEscapes)
        }
    }

    private static func parse(
        buffer bytes: UnsafeBufferPointer<UInt8>, limits: FormDecodingLimits, keepsMalformedEscapes: Bool
    ) throws(FormDecodingError) -> [QueryStringPair] {
        var pairs: [QueryStringPair] = []
        var start = 0
        while start <= bytes.count {
            var end = start
            while end < bytes.count, bytes[end] != UInt8(ascii: "&") { end += 1 }
            defer { start = end + 1 }
            guard end > start else { continue }
            guard pairs.count < limits.maximumPairs else { throw .tooManyPairs(limit: limits.maximumPairs) }
            var equals = start
            while equals < end, bytes[equals] != UInt8(ascii: "=") { equals += 1 }
            let key = try decode(bytes, start, equals, keepsMalformedEscapes)
            guard key.utf8.count <= limits.maximumKeyLength else { throw .keyTooLong(limit: limits.maximumKeyLength) }
            guard equals < end else {
                pairs.append(QueryStringPair(field: key, value: .null))
                continue
            }
            let value = try decode(bytes, equals + 1, end, keepsMalformedEscapes)
            guard value.utf8.count <= limits.maximumValueLength else { throw .valueTooLong(key: key, limit: limits.maximumValueLength) }
            pairs.append(QueryStringPair(field: key, value: .string(value)))
        }
        return pairs
    }

    /// `bytes[start..<end]` with `+` as space and percent escapes undone; invalid UTF-8
    /// becomes U+FFFD, as browsers read forms.
    private static func decode(
        _ bytes: UnsafeBufferPointer<UInt8>, _ start: Int, _ end: Int, _ lenient: Bool
    ) throws(FormDecodingError) -> String {
        var plain = true
        for index in start..<end where bytes[index] == UInt8(ascii: "%") || bytes[index] == UInt8(ascii: "+") {
            plain = false
            break
        }
        if plain { return String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<end]), as: UTF8.self) }
        // Decoded text is never longer than its escaped form: written in place, then checked
        // as UTF-8 once by the String.
        var malformed: Int?
        let text = String(unsafeUninitializedCapacity: end - start) { output in
            var written = 0
            var index = start
            while index < end {
                let byte = bytes[index]
                if byte == UInt8(ascii: "+") {
                    output[written] = 0x20
                } else if byte == UInt8(ascii: "%"), index + 2 < end, let high = JSONUTF8.hexValue(bytes[index + 1]), let low = JSONUTF8.hexValue(bytes[index + 2]) {
                    output[written] = high << 4 | low
                    index += 2
                } else {
                    if byte == UInt8(ascii: "%"), !lenient {
                        malformed = index
                        return 0
                    }
                    output[written] = byte
                }
                written += 1
                index += 1
            }
            return written
        }
        if let malformed { throw .malformedPercentEscape(offset: malformed) }
        return text
    }
}
