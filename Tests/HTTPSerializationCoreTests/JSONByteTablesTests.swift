import Testing
@testable import HTTPSerializationCore

@Suite("JSON byte tables: the generated literals are the rules they were generated from")
struct JSONByteTablesTests {
    typealias S = JSONUTF8.UTF8State

    /// Unicode's Table 3-7, as the automaton walks it, plus a string's escapes and specials.
    static func next(_ state: UInt64, _ byte: Int) -> UInt64 {
        let continuation = 0x80...0xBF ~= byte
        switch state {
        case S.boundary:
            switch byte {
            case 0x5C: return S.escape
            case 0x22, 0x00..<0x20: return S.special
            case 0x20..<0x80: return S.boundary
            case 0xC2...0xDF: return S.oneLeft
            case 0xE0: return S.afterE0
            case 0xE1...0xEC, 0xEE...0xEF: return S.twoLeft
            case 0xED: return S.afterED
            case 0xF0: return S.afterF0
            case 0xF1...0xF3: return S.threeLeft
            case 0xF4: return S.afterF4
            default: return S.error
            }
        case S.oneLeft: return continuation ? S.boundary : S.error
        case S.twoLeft: return continuation ? S.oneLeft : S.error
        case S.afterE0: return 0xA0...0xBF ~= byte ? S.oneLeft : S.error
        case S.afterED: return 0x80...0x9F ~= byte ? S.oneLeft : S.error
        case S.threeLeft: return continuation ? S.twoLeft : S.error
        case S.afterF0: return 0x90...0xBF ~= byte ? S.twoLeft : S.error
        case S.afterF4: return 0x80...0x8F ~= byte ? S.twoLeft : S.error
        case S.escape: return [0x22, 0x5C, 0x2F, 0x62, 0x66, 0x6E, 0x72, 0x74].contains(byte) ? S.boundary : S.escapeToCheck
        default: fatalError("exits are not states")
        }
    }

    @Test("every row of the UTF-8 automaton moves every state as Unicode's table and JSON's escapes say")
    func transitionsFollowTheTable() {
        #expect(JSONUTF8.utf8Transitions.count == 256)
        for byte in 0...255 {
            let fields = stride(from: UInt64(0), through: S.escape, by: 6).reduce(UInt64(0)) { $0 | Self.next($1, byte) << $1 }
            let expected = fields | (byte == 0x5C ? 1 << 63 : 0) | (byte >= 0x80 ? 1 << 62 : 0)
            #expect(JSONUTF8.utf8Transitions[byte] == expected, "byte \(byte)")
        }
    }

    @Test("every byte reads as its hex digit's value, or as no digit")
    func hexDigitsFollowTheAlphabet() {
        #expect(JSONUTF8.hexDigits.count == 256)
        for byte in 0...255 {
            let expected = UInt8(String(UnicodeScalar(UInt8(byte))), radix: 16) ?? 0xFF
            #expect(JSONUTF8.hexDigits[byte] == expected, "byte \(byte)")
            #expect(JSONUTF8.hexValue(UInt8(byte)) == (expected == 0xFF ? nil : expected))
        }
    }

    @Test("every byte after a backslash decodes as JSON's escapes say")
    func escapesFollowTheGrammar() {
        let simple: [UInt8: UInt8] = [0x22: 0x22, 0x5C: 0x5C, 0x2F: 0x2F, 0x62: 0x08, 0x66: 0x0C, 0x6E: 0x0A, 0x72: 0x0D, 0x74: 0x09]
        #expect(JSONUTF8.escapes.count == 256)
        for byte in 0...255 {
            let expected: UInt8 = simple[UInt8(byte)] ?? (byte == 0x75 ? 1 : 0)
            #expect(JSONUTF8.escapes[byte] == expected, "byte \(byte)")
        }
    }
}
