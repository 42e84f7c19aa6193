import Foundation

/// Server-controlled text bound for a terminal, with its control characters made visible
/// (`^[` for ESC, as `cat -v` shows it), so a response cannot move the cursor, rewrite the
/// window title or hide what it sent. Tabs and line breaks stay.
enum TerminalText {
    static func sanitized(_ text: String) -> String {
        guard text.unicodeScalars.contains(where: isControl) else { return text }
        var result = String.UnicodeScalarView()
        for scalar in text.unicodeScalars {
            if !isControl(scalar) {
                result.append(scalar)
            } else if scalar.value < 0x20 {
                result.append(contentsOf: "^\(Character(Unicode.Scalar(UInt8(scalar.value) + 0x40)))".unicodeScalars)
            } else if scalar.value == 0x7F {
                result.append(contentsOf: "^?".unicodeScalars)
            } else {
                result.append("\u{FFFD}")
            }
        }
        return String(result)
    }

    /// Bytes as they should reach a terminal: unchanged unless they hold a control character.
    static func sanitized(_ data: Data) -> Data {
        let hasControl = data.contains { $0 < 0x20 && $0 != 0x09 && $0 != 0x0A && $0 != 0x0D || $0 == 0x7F || $0 == 0xC2 }
        guard hasControl else { return data }
        let text = String(decoding: data, as: UTF8.self)
        let clean = sanitized(text)
        return clean == text ? data : Data(clean.utf8)
    }

    /// C0 controls other than tab, line feed and carriage return; DEL; the C1 controls.
    static func isControl(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x09, 0x0A, 0x0D: return false
        case 0x00..<0x20, 0x7F...0x9F: return true
        default: return false
        }
    }
}
