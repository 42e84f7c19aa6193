/// A header value with parameters taken apart: `form-data; name="a"; filename*=UTF-8''%E2%82%AC`
/// into its leading value and its parameters, names lower-cased, in order.
///
/// Quoted strings follow what senders write: a backslash is kept as it is (browsers and this
/// package escape `"`, CR and LF as `%22`, `%0D` and `%0A`, never with backslashes), except
/// before a quote that does not end the value, which is the RFC 9110 quoted pair that curl
/// before 7.81 and Python's `email` write for a quote inside a file name.
package struct HeaderParameters: Sendable, Equatable {
    package struct Parameter: Sendable, Equatable {
        /// Lower-cased, with an RFC 8187 `*` kept (`filename*`).
        package var name: String
        /// Unquoted; an extended value still encoded.
        package var value: String
    }

    /// The value before the first `;`, trimmed.
    package var value: String
    package var parameters: [Parameter]

    package init(_ field: String) {
        let bytes = Array(field.utf8)
        var index = 0
        value = String(decoding: Self.trimmed(Self.take(bytes, &index) { $0 == UInt8(ascii: ";") }), as: UTF8.self)
        parameters = []
        while index < bytes.count {
            index += 1  // the ';'
            let name = Self.trimmed(Self.take(bytes, &index) { $0 == UInt8(ascii: ";") || $0 == UInt8(ascii: "=") })
            var value: [UInt8] = []
            if index < bytes.count, bytes[index] == UInt8(ascii: "=") {
                index += 1
                while index < bytes.count, bytes[index] == 0x20 || bytes[index] == 0x09 { index += 1 }
                if index < bytes.count, bytes[index] == UInt8(ascii: "\"") {
                    value = Self.quoted(bytes, &index)
                    _ = Self.take(bytes, &index) { $0 == UInt8(ascii: ";") }  // anything after the closing quote
                } else {
                    value = Self.trimmed(Self.take(bytes, &index) { $0 == UInt8(ascii: ";") })
                }
            }
            guard !name.isEmpty else { continue }
            parameters.append(Parameter(name: String(decoding: name, as: UTF8.self).lowercased(), value: String(decoding: value, as: UTF8.self)))
        }
    }

    /// The first parameter called `name` (lower case), as written.
    package func parameter(_ name: String) -> String? {
        parameters.first { $0.name == name }?.value
    }

    private static func take(_ bytes: [UInt8], _ index: inout Int, until stop: (UInt8) -> Bool) -> ArraySlice<UInt8> {
        let start = index
        while index < bytes.count, !stop(bytes[index]) { index += 1 }
        return bytes[start..<index]
    }

    /// A quoted string's content from its opening quote at `index`; `index` ends after the
    /// closing quote (or at the end, for a string never closed).
    private static func quoted(_ bytes: [UInt8], _ index: inout Int) -> [UInt8] {
        var content: [UInt8] = []
        index += 1
        while index < bytes.count {
            let byte = bytes[index]
            if byte == UInt8(ascii: "\"") {
                index += 1
                return content
            }
            if byte == UInt8(ascii: "\\"), index + 1 < bytes.count, bytes[index + 1] == UInt8(ascii: "\""), !closes(bytes, quoteAt: index + 1) {
                content.append(UInt8(ascii: "\""))
                index += 2
                continue
            }
            content.append(byte)
            index += 1
        }
        return content
    }

    /// Whether the quote at `index` ends the value: only spaces until `;` or the end follow.
    private static func closes(_ bytes: [UInt8], quoteAt index: Int) -> Bool {
        var next = index + 1
        while next < bytes.count, bytes[next] == 0x20 || bytes[next] == 0x09 { next += 1 }
        return next == bytes.count || bytes[next] == UInt8(ascii: ";")
    }

    private static func trimmed(_ bytes: ArraySlice<UInt8>) -> [UInt8] {
        let isSpace = { (byte: UInt8) in byte == 0x20 || byte == 0x09 }
        guard let first = bytes.firstIndex(where: { !isSpace($0) }), let last = bytes.lastIndex(where: { !isSpace($0) }) else { return [] }
        return Array(bytes[first...last])
    }
}

extension HeaderParameters {
    /// An RFC 8187 extended value (`UTF-8'en'%E2%82%AC`) decoded; UTF-8 and ISO-8859-1 only,
    /// the two every recipient must support.
    ///
    /// - Throws: the reason, for another charset, a bad percent escape or invalid UTF-8.
    package static func decodeExtended(_ value: String) throws(ReasonError) -> String {
        let pieces = value.split(separator: "'", maxSplits: 2, omittingEmptySubsequences: false)
        guard pieces.count == 3 else { throw ReasonError("it is not charset'language'value") }
        var bytes: [UInt8] = []
        var iterator = pieces[2].utf8.makeIterator()
        while let byte = iterator.next() {
            guard byte == UInt8(ascii: "%") else {
                bytes.append(byte)
                continue
            }
            guard let high = iterator.next().flatMap(hexValue), let low = iterator.next().flatMap(hexValue) else {
                throw ReasonError("it has a bad percent escape")
            }
            bytes.append(high << 4 | low)
        }
        switch pieces[0].lowercased() {
        case "utf-8":
            let text = String(decoding: bytes, as: UTF8.self)
            guard text.utf8.elementsEqual(bytes) else { throw ReasonError("it is not valid UTF-8") }
            return text
        case "iso-8859-1":
            return String(String.UnicodeScalarView(bytes.map { Unicode.Scalar($0) }))
        default:
            throw ReasonError("its charset \"\(pieces[0])\" is not UTF-8 or ISO-8859-1")
        }
    }

    /// A form-data name or file name with the WHATWG escapes a browser (and this package's
    /// writer) puts in: `%22`, `%0D` and `%0A` back to `"`, CR and LF; every other `%` stays.
    package static func unescapedFormValue(_ value: String) -> String {
        guard value.utf8.contains(UInt8(ascii: "%")) else { return value }
        var bytes: [UInt8] = []
        let input = Array(value.utf8)
        var index = 0
        while index < input.count {
            if input[index] == UInt8(ascii: "%"), index + 2 < input.count, input[index + 1] == UInt8(ascii: "0") || input[index + 1] == UInt8(ascii: "2") {
                let pair = (input[index + 1], input[index + 2] | 0x20)
                let replacement: UInt8? = switch pair {
                case (UInt8(ascii: "2"), UInt8(ascii: "2")): UInt8(ascii: "\"")
                case (UInt8(ascii: "0"), UInt8(ascii: "d")): 0x0D
                case (UInt8(ascii: "0"), UInt8(ascii: "a")): 0x0A
                default: nil
                }
                if let replacement {
                    bytes.append(replacement)
                    index += 3
                    continue
                }
            }
            bytes.append(input[index])
            index += 1
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    private static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): return byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): return byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): return byte - UInt8(ascii: "A") + 10
        default: return nil
        }
    }

    /// Why a parameter could not be read.
    package struct ReasonError: Error {
        package var reason: String
        init(_ reason: String) { self.reason = reason }
    }
}
