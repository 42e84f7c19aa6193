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

    /// The value before the first `;`, trimmed and lower-cased (a media or disposition type).
    package var value: String
    package var parameters: [Parameter]

    package init(_ field: String) {
        var field = field
        self = field.withUTF8 { HeaderParameters(utf8: $0[...]) }
    }

    /// A header value's bytes, read in place.
    package typealias Bytes = Slice<UnsafeBufferPointer<UInt8>>

    package init(utf8 bytes: Bytes) {
        var parameters: [Parameter] = []
        let type = Self.forEachParameter(bytes) { name, value in
            parameters.append(Parameter(name: Self.lowercased(name), value: Self.text(of: value)))
        }
        value = Self.lowercased(type)
        self.parameters = parameters
    }

    /// A `Content-Disposition` value's type (lower-cased) and the three parameters a form part
    /// needs, without keeping the others.
    ///
    /// RFC 2231 continuations (`filename*0*=utf-8''a; filename*1*=b`, which Python's `email`
    /// writes for long names) are joined into one extended value.
    package static func disposition(utf8 bytes: Bytes) -> (type: String, name: String?, fileName: String?, extendedFileName: String?) {
        var name: String?, fileName: String?, extendedFileName: String?
        var sections: [(index: Int, encoded: Bool, text: String)] = []
        let type = forEachParameter(bytes) { parameter, value in
            if name == nil, matches(parameter, "name") { name = text(of: value) }
            else if fileName == nil, matches(parameter, "filename") { fileName = text(of: value) }
            else if extendedFileName == nil, matches(parameter, "filename*") { extendedFileName = text(of: value) }
            else if let section = continuation(parameter, of: "filename") { sections.append((section.index, section.encoded, text(of: value))) }
        }
        if extendedFileName == nil, !sections.isEmpty { extendedFileName = joined(sections) }
        return (lowercased(type), name, fileName, extendedFileName)
    }

    /// The section number of an RFC 2231 continuation `NAME*N` or `NAME*N*`, and whether it
    /// is percent-encoded.
    private static func continuation(_ parameter: Bytes, of name: StaticString) -> (index: Int, encoded: Bool)? {
        let prefix = name.utf8CodeUnitCount
        guard parameter.count > prefix + 1, matches(parameter.prefix(prefix), name), parameter[parameter.startIndex + prefix] == UInt8(ascii: "*") else { return nil }
        var digits = parameter.dropFirst(prefix + 1)
        let encoded = digits.last == UInt8(ascii: "*")
        if encoded { digits = digits.dropLast() }
        guard !digits.isEmpty, digits.count <= 4, digits.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }) else { return nil }
        return (digits.reduce(0) { $0 * 10 + Int($1 - UInt8(ascii: "0")) }, encoded)
    }

    /// Continuation sections from 0 up to the first missing one, as one extended value
    /// (`charset'language'encoded`) for `decodeExtended`.
    private static func joined(_ sections: [(index: Int, encoded: Bool, text: String)]) -> String? {
        let ordered = sections.sorted { $0.index < $1.index }
        guard let first = ordered.first, first.index == 0 else { return nil }
        var value = first.encoded ? first.text : "utf-8''" + percentEncoded(first.text)
        var next = 1
        for section in ordered.dropFirst() where section.index == next {
            value += section.encoded ? section.text : percentEncoded(section.text)
            next += 1
        }
        return value
    }

    private static func percentEncoded(_ text: String) -> String {
        var result = ""
        for byte in text.utf8 {
            if byte.isASCIIAlphanumeric || byte == UInt8(ascii: ".") || byte == UInt8(ascii: "-") || byte == UInt8(ascii: "_") {
                result.unicodeScalars.append(Unicode.Scalar(byte))
            } else {
                result += "%" + String(byte >> 4, radix: 16, uppercase: true) + String(byte & 15, radix: 16, uppercase: true)
            }
        }
        return result
    }

    /// A parameter's value as written: a token, trimmed, or a quoted string with its quotes.
    private typealias RawValue = Bytes

    /// Walks the parameters after the leading value, handing each non-empty name and its raw
    /// value; returns the leading value, trimmed.
    private static func forEachParameter(_ bytes: Bytes, _ body: (Bytes, RawValue) -> Void) -> Bytes {
        var index = bytes.startIndex
        let leading = trimmed(take(bytes, &index) { $0 == UInt8(ascii: ";") })
        while index < bytes.endIndex {
            index += 1  // the ';'
            let name = trimmed(take(bytes, &index) { $0 == UInt8(ascii: ";") || $0 == UInt8(ascii: "=") })
            var value: RawValue = bytes[index..<index]
            if index < bytes.endIndex, bytes[index] == UInt8(ascii: "=") {
                index += 1
                while index < bytes.endIndex, bytes[index] == 0x20 || bytes[index] == 0x09 { index += 1 }
                if index < bytes.endIndex, bytes[index] == UInt8(ascii: "\"") {
                    let start = index
                    skipQuoted(bytes, &index)
                    value = bytes[start..<index]
                    _ = take(bytes, &index) { $0 == UInt8(ascii: ";") }  // anything after the closing quote
                } else {
                    value = trimmed(take(bytes, &index) { $0 == UInt8(ascii: ";") })
                }
            }
            if !name.isEmpty { body(name, value) }
        }
        return leading
    }

    /// Whether a parameter name is `lowercaseName`, in any case.
    private static func matches(_ name: Bytes, _ lowercaseName: StaticString) -> Bool {
        guard name.count == lowercaseName.utf8CodeUnitCount else { return false }
        let target = UnsafeBufferPointer(start: lowercaseName.utf8Start, count: lowercaseName.utf8CodeUnitCount)
        return zip(name, target).allSatisfy { HTTPHeaderFields.lowercased($0) == $1 }
    }

    /// The first parameter called `name` (lower case), as written.
    package func parameter(_ name: String) -> String? {
        parameters.first { $0.name == name }?.value
    }

    private static func take(_ bytes: Bytes, _ index: inout Int, until stop: (UInt8) -> Bool) -> Bytes {
        let start = index
        while index < bytes.endIndex, !stop(bytes[index]) { index += 1 }
        return bytes[start..<index]
    }

    /// Moves `index` from a quoted string's opening quote to after its closing quote (or to
    /// the end, for a string never closed).
    private static func skipQuoted(_ bytes: Bytes, _ index: inout Int) {
        index += 1
        while index < bytes.endIndex {
            if bytes[index] == UInt8(ascii: "\"") {
                index += 1
                return
            }
            index += isEscapedQuote(bytes, at: index) ? 2 : 1
        }
    }

    /// A raw value as text: a quoted string without its quotes, an escaped inner quote
    /// without its backslash; a token as it is.
    private static func text(of raw: RawValue) -> String {
        guard raw.first == UInt8(ascii: "\"") else { return String(decoding: raw, as: UTF8.self) }
        var end = raw.endIndex
        if raw.count > 1, raw.last == UInt8(ascii: "\""), !(raw.count > 2 && isEscapedQuote(raw, at: raw.endIndex - 2)) { end -= 1 }
        let content = raw[(raw.startIndex + 1)..<end]
        guard content.contains(UInt8(ascii: "\\")) else { return String(decoding: content, as: UTF8.self) }
        var bytes: [UInt8] = []
        var index = content.startIndex
        while index < content.endIndex {
            if isEscapedQuote(content, at: index) {
                bytes.append(UInt8(ascii: "\""))
                index += 2
            } else {
                bytes.append(content[index])
                index += 1
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Whether a backslash at `index` escapes a quote that does not end the value.
    private static func isEscapedQuote(_ bytes: Bytes, at index: Int) -> Bool {
        bytes[index] == UInt8(ascii: "\\") && index + 1 < bytes.endIndex && bytes[index + 1] == UInt8(ascii: "\"")
            && !closes(bytes, quoteAt: index + 1)
    }

    /// Whether the quote at `index` ends the value: only spaces until `;` or the end follow.
    private static func closes(_ bytes: Bytes, quoteAt index: Int) -> Bool {
        var next = index + 1
        while next < bytes.endIndex, bytes[next] == 0x20 || bytes[next] == 0x09 { next += 1 }
        return next == bytes.endIndex || bytes[next] == UInt8(ascii: ";")
    }

    /// ASCII letters lower-cased; names and types are tokens.
    private static func lowercased(_ bytes: Bytes) -> String {
        String(unsafeUninitializedCapacity: bytes.count) { buffer in
            for (offset, byte) in bytes.enumerated() { buffer[offset] = HTTPHeaderFields.lowercased(byte) }
            return bytes.count
        }
    }

    /// Without surrounding spaces and tabs (RFC 9110 OWS).
    package static func trimmed(_ bytes: Bytes) -> Bytes {
        var start = bytes.startIndex, end = bytes.endIndex
        while start < end, bytes[start] == 0x20 || bytes[start] == 0x09 { start += 1 }
        while end > start, bytes[end - 1] == 0x20 || bytes[end - 1] == 0x09 { end -= 1 }
        return bytes[start..<end]
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
            guard let high = iterator.next().flatMap(JSONUTF8.hexValue), let low = iterator.next().flatMap(JSONUTF8.hexValue) else {
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
        let hasPercent = value.utf8.withContiguousStorageIfAvailable { bytes in bytes.contains(UInt8(ascii: "%")) }
            ?? value.utf8.contains(UInt8(ascii: "%"))
        guard hasPercent else { return value }
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

    /// Why a parameter could not be read.
    package struct ReasonError: Error {
        package var reason: String
        init(_ reason: String) { self.reason = reason }
    }
}
