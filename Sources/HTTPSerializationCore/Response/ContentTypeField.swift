/// A `Content-Type` field value taken apart (RFC 9110 §8.3.1): the media type in lower case
/// and the `charset` parameter, matched case-insensitively and unquoted.
package struct ContentTypeField: Sendable, Equatable {
    /// `type/subtype`, lower-cased, without parameters.
    package var mimeType: String
    /// The `charset` parameter's value, if any, as written (quotes removed).
    package var charset: String?

    /// Nil for an empty value, which says nothing about the body.
    ///
    /// Read over the value's bytes, as a field is bytes on the wire: one pass splits at `;`
    /// outside quoted strings, and nothing is allocated but the two results.
    package init?(_ value: String) {
        var value = value
        let parsed = value.withUTF8 { bytes -> (mimeType: String, charset: String?)? in
            var type: Range<Int>?
            var charset: String?
            var parameterGiven = false
            // One `;`-separated part: the first is the media type, later ones parameters.
            func part(_ whole: Range<Int>) {
                let trimmed = Self.trimmed(bytes, whole)
                guard type != nil else {
                    type = trimmed
                    return
                }
                if !trimmed.isEmpty { parameterGiven = true }
                guard charset == nil, let equals = bytes[trimmed].firstIndex(of: UInt8(ascii: "=")) else { return }
                let name = UnsafeBufferPointer(rebasing: bytes[Self.trimmed(bytes, trimmed.lowerBound..<equals)])
                guard "charset".utf8.withContiguousStorageIfAvailable({ HTTPHeaderFields.namesMatch(name, $0) }) == true else { return }
                charset = Self.unquoted(UnsafeBufferPointer(rebasing: bytes[Self.trimmed(bytes, (equals + 1)..<trimmed.upperBound)]))
            }
            var start = 0
            var inQuotes = false
            var escaped = false
            for (index, byte) in bytes.enumerated() {
                if escaped {
                    escaped = false
                } else if inQuotes && byte == UInt8(ascii: "\\") {
                    escaped = true
                } else if byte == UInt8(ascii: "\"") {
                    inQuotes.toggle()
                } else if byte == UInt8(ascii: ";") && !inQuotes {
                    part(start..<index)
                    start = index + 1
                }
            }
            part(start..<bytes.count)
            guard let type, !type.isEmpty || parameterGiven else { return nil }
            return (Self.lowercased(UnsafeBufferPointer(rebasing: bytes[type])), charset)
        }
        guard let parsed else { return nil }
        mimeType = parsed.mimeType
        charset = parsed.charset
    }

    /// `range` without the spaces and tabs (RFC 9110 OWS) at either end.
    private static func trimmed(_ bytes: UnsafeBufferPointer<UInt8>, _ range: Range<Int>) -> Range<Int> {
        var lower = range.lowerBound
        var upper = range.upperBound
        while lower < upper, bytes[lower] == 0x20 || bytes[lower] == 0x09 { lower += 1 }
        while upper > lower, bytes[upper - 1] == 0x20 || bytes[upper - 1] == 0x09 { upper -= 1 }
        return lower..<upper
    }

    /// The text in lower case: ASCII letters byte by byte, anything else as `lowercased()` does.
    private static func lowercased(_ bytes: UnsafeBufferPointer<UInt8>) -> String {
        guard bytes.allSatisfy({ $0 < 0x80 }) else { return String(decoding: bytes, as: UTF8.self).lowercased() }
        return String(unsafeUninitializedCapacity: bytes.count) { target in
            for (index, byte) in bytes.enumerated() {
                target[index] = byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z") ? byte | 0x20 : byte
            }
            return bytes.count
        }
    }

    /// A quoted string's content with its backslash escapes resolved; other text as it is.
    private static func unquoted(_ text: UnsafeBufferPointer<UInt8>) -> String {
        guard text.count >= 2, text.first == UInt8(ascii: "\""), text.last == UInt8(ascii: "\"") else {
            return String(decoding: text, as: UTF8.self)
        }
        var result: [UInt8] = []
        result.reserveCapacity(text.count - 2)
        var escaped = false
        for byte in text[1..<(text.count - 1)] {
            if !escaped && byte == UInt8(ascii: "\\") {
                escaped = true
                continue
            }
            escaped = false
            result.append(byte)
        }
        return String(decoding: result, as: UTF8.self)
    }
}
