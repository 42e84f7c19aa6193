import HTTPSerializationCore
/// XML 1.0 (fifth edition) character classes over Unicode scalars and UTF-8 bytes.
package enum XMLCharacters {
    /// `S`: space, tab, CR, LF.
    @inline(__always)
    package static func isSpace(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D
    }

    /// `Char`: what may appear in a document at all.
    package static func isChar(_ scalar: UInt32) -> Bool {
        switch scalar {
        case 0x09, 0x0A, 0x0D, 0x20...0xD7FF, 0xE000...0xFFFD, 0x10000...0x10FFFF: return true
        default: return false
        }
    }

    /// `NameStartChar`, without the colon (namespaces give it its own rule).
    package static func isNameStart(_ scalar: UInt32) -> Bool {
        switch scalar {
        case 0x41...0x5A, 0x61...0x7A, 0x5F: return true  // A-Z a-z _
        case 0xC0...0xD6, 0xD8...0xF6, 0xF8...0x2FF, 0x370...0x37D, 0x37F...0x1FFF, 0x200C...0x200D,
             0x2070...0x218F, 0x2C00...0x2FEF, 0x3001...0xD7FF, 0xF900...0xFDCF, 0xFDF0...0xFFFD, 0x10000...0xEFFFF:
            return true
        default: return false
        }
    }

    /// `NameChar`, without the colon.
    package static func isNameChar(_ scalar: UInt32) -> Bool {
        switch scalar {
        case 0x2D, 0x2E, 0x30...0x39, 0xB7, 0x300...0x36F, 0x203F...0x2040: return true  // - . 0-9
        default: return isNameStart(scalar)
        }
    }

    /// `PubidChar`.
    package static func isPublicIDChar(_ byte: UInt8) -> Bool {
        switch byte {
        case 0x20, 0x0D, 0x0A, 0x61...0x7A, 0x41...0x5A, 0x30...0x39: return true
        default: return Array("-'()+,./:=?;!*#@$_%".utf8).contains(byte)
        }
    }

    /// The scalar starting at `index` in valid UTF-8 and its length in bytes.
    @inline(__always)
    package static func scalar(in bytes: [UInt8], at index: Int) -> (value: UInt32, length: Int) {
        let lead = bytes[index]
        if lead < 0x80 { return (UInt32(lead), 1) }
        if lead < 0xE0 { return (UInt32(lead & 0x1F) << 6 | UInt32(bytes[index + 1] & 0x3F), 2) }
        if lead < 0xF0 {
            return (UInt32(lead & 0x0F) << 12 | UInt32(bytes[index + 1] & 0x3F) << 6 | UInt32(bytes[index + 2] & 0x3F), 3)
        }
        return (UInt32(lead & 0x07) << 18 | UInt32(bytes[index + 1] & 0x3F) << 12
                | UInt32(bytes[index + 2] & 0x3F) << 6 | UInt32(bytes[index + 3] & 0x3F), 4)
    }

    /// Appends the UTF-8 form of a scalar that is known to be valid.
    package static func appendUTF8(_ scalar: UInt32, to output: inout [UInt8]) {
        switch scalar {
        case ..<0x80:
            output.append(UInt8(scalar))
        case ..<0x800:
            output.append(UInt8(0xC0 | scalar >> 6))
            output.append(UInt8(0x80 | scalar & 0x3F))
        case ..<0x10000:
            output.append(UInt8(0xE0 | scalar >> 12))
            output.append(UInt8(0x80 | scalar >> 6 & 0x3F))
            output.append(UInt8(0x80 | scalar & 0x3F))
        default:
            output.append(UInt8(0xF0 | scalar >> 18))
            output.append(UInt8(0x80 | scalar >> 12 & 0x3F))
            output.append(UInt8(0x80 | scalar >> 6 & 0x3F))
            output.append(UInt8(0x80 | scalar & 0x3F))
        }
    }

    /// The offset of the first byte sequence in valid UTF-8 that is not an XML `Char`
    /// (C0 controls other than tab, LF and CR; U+FFFE; U+FFFF), or nil.
    package static func firstNonChar(in bytes: [UInt8]) -> Int? {
        bytes.withUnsafeBufferPointer { buffer -> Int? in
            var index = 0
            let count = buffer.count
            while index < count {
                let byte = buffer[index]
                if byte < 0x20 {
                    if byte != 0x09 && byte != 0x0A && byte != 0x0D { return index }
                } else if byte == 0xEF, index + 2 < count, buffer[index + 1] == 0xBF, buffer[index + 2] >= 0xBE {
                    return index
                }
                index += 1
            }
            return nil
        }
    }
}
