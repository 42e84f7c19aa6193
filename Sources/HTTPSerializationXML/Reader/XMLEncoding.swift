import HTTPSerializationCore
/// Finds a document's encoding from its byte-order mark, its first bytes and its XML
/// declaration (XML 1.0 appendix F), insists that the three agree, and produces UTF-8.
///
/// FoundationXML trusts the declaration and libxml2 trusts the bytes; when they disagree
/// (8-bit bytes labelled UTF-16) FoundationXML traps. Here a disagreement is an error, and
/// every document reaches the tokenizer and FoundationXML as UTF-8 that declares itself so.
enum XMLEncoding {
    enum Family: Equatable {
        case utf8(byteOrderMark: Bool)
        case utf16(bigEndian: Bool, byteOrderMark: Bool)
        case utf32(bigEndian: Bool, byteOrderMark: Bool)
    }

    /// The document as UTF-8, and whether it had to be transcoded (then its declaration says
    /// `encoding="UTF-8"`).
    static func utf8(_ bytes: [UInt8]) throws(XMLReadingError) -> (bytes: [UInt8], transcoded: Bool) {
        let family = detectFamily(bytes)
        let declared = declaredEncoding(bytes, family: family)?.lowercased()
        switch family {
        case .utf8(let byteOrderMark):
            let label = declared ?? "utf-8"
            switch label {
            case "utf-8", "utf8":
                try validateUTF8(bytes)
                return (bytes, false)
            case _ where byteOrderMark:
                throw XMLReadingError(.encodingMismatch("a UTF-8 byte-order mark, but the declaration says \"\(label)\""), offset: 0)
            case "us-ascii", "ascii":
                if let index = bytes.firstIndex(where: { $0 >= 0x80 }) {
                    throw XMLReadingError(.invalidEncoding("US-ASCII: a byte above 0x7F"), offset: index)
                }
                return (bytes, false)
            case "iso-8859-1", "latin1", "iso-latin-1", "l1":
                return (relabel(latin1(bytes)), true)
            case "utf-16", "utf-16le", "utf-16be", "ucs-2", "iso-10646-ucs-2", "utf-32", "utf-32le", "utf-32be", "ucs-4", "iso-10646-ucs-4":
                throw XMLReadingError(.encodingMismatch("the declaration says \"\(label)\", but the bytes are 8-bit"), offset: 0)
            default:
                guard let table = XMLSingleByteEncodings.table(forLabel: label) else {
                    throw XMLReadingError(.unsupportedEncoding(label))
                }
                return (relabel(try decodeSingleByte(bytes, table: table, label: label)), true)
            }
        case .utf16(let bigEndian, let byteOrderMark):
            let order = bigEndian ? "utf-16be" : "utf-16le"
            if let declared, !["utf-16", order, "ucs-2", "iso-10646-ucs-2"].contains(declared) {
                throw XMLReadingError(.encodingMismatch("the bytes are \(order.uppercased()), but the declaration says \"\(declared)\""), offset: 0)
            }
            return (relabel(try decodeUTF16(bytes, bigEndian: bigEndian, skip: byteOrderMark ? 2 : 0)), true)
        case .utf32(let bigEndian, let byteOrderMark):
            let order = bigEndian ? "utf-32be" : "utf-32le"
            if let declared, !["utf-32", order, "ucs-4", "iso-10646-ucs-4"].contains(declared) {
                throw XMLReadingError(.encodingMismatch("the bytes are \(order.uppercased()), but the declaration says \"\(declared)\""), offset: 0)
            }
            return (relabel(try decodeUTF32(bytes, bigEndian: bigEndian, skip: byteOrderMark ? 4 : 0)), true)
        }
    }

    static func detectFamily(_ bytes: [UInt8]) -> Family {
        let head = Array(bytes.prefix(4)) + [UInt8](repeating: 0x01, count: max(0, 4 - bytes.count))
        switch (head[0], head[1], head[2], head[3]) {
        case (0x00, 0x00, 0xFE, 0xFF): return .utf32(bigEndian: true, byteOrderMark: true)
        case (0xFF, 0xFE, 0x00, 0x00): return .utf32(bigEndian: false, byteOrderMark: true)
        case (0xFE, 0xFF, _, _): return .utf16(bigEndian: true, byteOrderMark: true)
        case (0xFF, 0xFE, _, _): return .utf16(bigEndian: false, byteOrderMark: true)
        case (0xEF, 0xBB, 0xBF, _): return .utf8(byteOrderMark: true)
        case (0x00, 0x00, 0x00, 0x3C): return .utf32(bigEndian: true, byteOrderMark: false)
        case (0x3C, 0x00, 0x00, 0x00): return .utf32(bigEndian: false, byteOrderMark: false)
        case (0x00, 0x3C, 0x00, 0x3F): return .utf16(bigEndian: true, byteOrderMark: false)
        case (0x3C, 0x00, 0x3F, 0x00): return .utf16(bigEndian: false, byteOrderMark: false)
        default: return .utf8(byteOrderMark: false)
        }
    }

    /// The `encoding` value of the XML declaration, read from its ASCII characters in the
    /// detected code-unit width.
    static func declaredEncoding(_ bytes: [UInt8], family: Family) -> String? {
        let (width, skip, bigEndian): (Int, Int, Bool)
        switch family {
        case .utf8(let mark): (width, skip, bigEndian) = (1, mark ? 3 : 0, true)
        case .utf16(let big, let mark): (width, skip, bigEndian) = (2, mark ? 2 : 0, big)
        case .utf32(let big, let mark): (width, skip, bigEndian) = (4, mark ? 4 : 0, big)
        }
        var ascii: [UInt8] = []
        var index = skip
        while index + width <= bytes.count, ascii.count < 512 {
            let unit = bytes[(bigEndian ? index + width - 1 : index)]
            let rest = bigEndian ? bytes[index..<(index + width - 1)] : bytes[(index + 1)..<(index + width)]
            guard rest.allSatisfy({ $0 == 0 }), unit < 0x80 else { break }
            ascii.append(unit)
            if unit == UInt8(ascii: ">") { break }
            index += width
        }
        guard let range = declarationEncodingRange(ascii) else { return nil }
        return String(decoding: ascii[range], as: UTF8.self)
    }

    /// Where the `encoding` value sits in an XML declaration at the start of `bytes`.
    static func declarationEncodingRange(_ bytes: [UInt8]) -> Range<Int>? {
        var start = 0
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { start = 3 }
        guard bytes[start...].starts(with: Array("<?xml".utf8)), bytes.count > start + 5,
              XMLCharacters.isSpace(bytes[start + 5]) else { return nil }
        let end = bytes[start...].firstIndex(of: UInt8(ascii: ">")) ?? bytes.count
        let key = Array("encoding".utf8)
        var index = start + 5
        while index + key.count <= end {
            if bytes[index..<(index + key.count)].elementsEqual(key), XMLCharacters.isSpace(bytes[index - 1]) {
                var cursor = index + key.count
                while cursor < end, XMLCharacters.isSpace(bytes[cursor]) { cursor += 1 }
                guard cursor < end, bytes[cursor] == UInt8(ascii: "=") else { return nil }
                cursor += 1
                while cursor < end, XMLCharacters.isSpace(bytes[cursor]) { cursor += 1 }
                guard cursor < end, bytes[cursor] == UInt8(ascii: "\"") || bytes[cursor] == UInt8(ascii: "'") else { return nil }
                let quote = bytes[cursor]
                guard let close = bytes[(cursor + 1)..<end].firstIndex(of: quote) else { return nil }
                return (cursor + 1)..<close
            }
            index += 1
        }
        return nil
    }

    /// Rewrites a transcoded document's declared encoding to UTF-8.
    static func relabel(_ bytes: [UInt8]) -> [UInt8] {
        guard let range = declarationEncodingRange(bytes) else { return bytes }
        var output = bytes
        output.replaceSubrange(range, with: Array("UTF-8".utf8))
        return output
    }

    static func validateUTF8(_ bytes: [UInt8]) throws(XMLReadingError) {
        if String(validating: bytes, as: UTF8.self) != nil { return }
        var index = 0
        // Find the first bad sequence for the error's offset (only on failure).
        while index < bytes.count {
            let lead = bytes[index]
            let length: Int
            switch lead {
            case 0x00...0x7F: length = 1
            case 0xC2...0xDF: length = 2
            case 0xE0...0xEF: length = 3
            case 0xF0...0xF4: length = 4
            default: throw XMLReadingError(.invalidEncoding("UTF-8"), offset: index)
            }
            guard index + length <= bytes.count,
                  String(validating: bytes[index..<(index + length)], as: UTF8.self) != nil else {
                throw XMLReadingError(.invalidEncoding("UTF-8"), offset: index)
            }
            index += length
        }
    }

    /// ISO-8859-1: every byte is the scalar of the same value.
    static func latin1(_ bytes: [UInt8]) -> [UInt8] {
        var output: [UInt8] = []
        output.reserveCapacity(bytes.count + bytes.count / 8)
        for byte in bytes {
            XMLCharacters.appendUTF8(UInt32(byte), to: &output)
        }
        return output
    }

    static func decodeSingleByte(_ bytes: [UInt8], table: [UInt16], label: String) throws(XMLReadingError) -> [UInt8] {
        var output: [UInt8] = []
        output.reserveCapacity(bytes.count + bytes.count / 4)
        for (index, byte) in bytes.enumerated() {
            if byte < 0x80 {
                output.append(byte)
                continue
            }
            let scalar = table[Int(byte) - 0x80]
            guard scalar != 0xFFFF else { throw XMLReadingError(.invalidEncoding("\(label): byte 0x\(String(byte, radix: 16, uppercase: true)) is undefined"), offset: index) }
            XMLCharacters.appendUTF8(UInt32(scalar), to: &output)
        }
        return output
    }

    static func decodeUTF16(_ bytes: [UInt8], bigEndian: Bool, skip: Int) throws(XMLReadingError) -> [UInt8] {
        guard (bytes.count - skip) % 2 == 0 else { throw XMLReadingError(.invalidEncoding("UTF-16: an odd number of bytes"), offset: bytes.count - 1) }
        var output: [UInt8] = []
        output.reserveCapacity(bytes.count)
        var index = skip
        func unit(_ at: Int) -> UInt32 {
            bigEndian ? UInt32(bytes[at]) << 8 | UInt32(bytes[at + 1]) : UInt32(bytes[at + 1]) << 8 | UInt32(bytes[at])
        }
        while index < bytes.count {
            let first = unit(index)
            switch first {
            case 0xD800...0xDBFF:
                guard index + 4 <= bytes.count, case let second = unit(index + 2), (0xDC00...0xDFFF).contains(second) else {
                    throw XMLReadingError(.invalidEncoding("UTF-16: a lone surrogate"), offset: index)
                }
                XMLCharacters.appendUTF8(0x10000 + ((first - 0xD800) << 10) + (second - 0xDC00), to: &output)
                index += 4
            case 0xDC00...0xDFFF:
                throw XMLReadingError(.invalidEncoding("UTF-16: a lone surrogate"), offset: index)
            default:
                XMLCharacters.appendUTF8(first, to: &output)
                index += 2
            }
        }
        return output
    }

    static func decodeUTF32(_ bytes: [UInt8], bigEndian: Bool, skip: Int) throws(XMLReadingError) -> [UInt8] {
        guard (bytes.count - skip) % 4 == 0 else { throw XMLReadingError(.invalidEncoding("UTF-32: a length that is not a multiple of 4"), offset: bytes.count - 1) }
        var output: [UInt8] = []
        output.reserveCapacity(bytes.count / 2)
        var index = skip
        while index < bytes.count {
            let value = bigEndian
                ? UInt32(bytes[index]) << 24 | UInt32(bytes[index + 1]) << 16 | UInt32(bytes[index + 2]) << 8 | UInt32(bytes[index + 3])
                : UInt32(bytes[index + 3]) << 24 | UInt32(bytes[index + 2]) << 16 | UInt32(bytes[index + 1]) << 8 | UInt32(bytes[index])
            guard value <= 0x10FFFF, !(0xD800...0xDFFF).contains(value) else {
                throw XMLReadingError(.invalidEncoding("UTF-32: a value that is not a Unicode scalar"), offset: index)
            }
            XMLCharacters.appendUTF8(value, to: &output)
            index += 4
        }
        return output
    }
}
