import Foundation
import SeededGenerators
import Testing
@testable import HTTPSerialization
@testable import HTTPSerializationCodable
@testable import HTTPSerializationCore
@testable import HTTPSerializationFoundation
@testable import HTTPSerializationImages
@testable import HTTPSerializationXML

@Suite("JSON reader: strict, exact, iterative")
struct JSONReaderTests {
    static func read(_ text: String, maximumDepth: Int = 512) throws(JSONReadingError) -> ParameterValue {
        try ParameterValue(json: Data(text.utf8), maximumDepth: maximumDepth)
    }

    @Test("bad documents are exact errors with the offset of the fault")
    func exactErrors() {
        let cases: [(String, JSONReadingError)] = [
            ("", JSONReadingError(.noValue, offset: 0)),
            (" \n\t ", JSONReadingError(.noValue, offset: 4)),
            ("[1,]", JSONReadingError(.unexpectedCharacter(UInt8(ascii: "]"), expected: "a value"), offset: 3)),
            ("{\"a\" 1}", JSONReadingError(.unexpectedCharacter(UInt8(ascii: "1"), expected: "\":\""), offset: 5)),
            ("{a:1}", JSONReadingError(.unexpectedCharacter(UInt8(ascii: "a"), expected: "a key in quotes"), offset: 1)),
            ("[1 2]", JSONReadingError(.unexpectedCharacter(UInt8(ascii: "2"), expected: "\",\" or \"]\""), offset: 3)),
            ("[\"abc", JSONReadingError(.unexpectedEnd(expected: "a closing quote"), offset: 5)),
            ("[\"a\tb\"]", JSONReadingError(.controlCharacterInString, offset: 3)),
            ("[\"\\x\"]", JSONReadingError(.invalidEscape, offset: 2)),
            ("[\"\\u12G4\"]", JSONReadingError(.invalidEscape, offset: 6)),
            ("[\"\\uD834\"]", JSONReadingError(.loneSurrogate, offset: 2)),
            ("[\"\\uDD1E\\uD834\"]", JSONReadingError(.loneSurrogate, offset: 2)),
            ("[01]", JSONReadingError(.invalidNumber, offset: 2)),
            ("[1.]", JSONReadingError(.invalidNumber, offset: 3)),
            ("[-]", JSONReadingError(.invalidNumber, offset: 2)),
            ("[1e+]", JSONReadingError(.invalidNumber, offset: 4)),
            ("[1e400]", JSONReadingError(.numberOutOfRange, offset: 1)),
            ("[-2e308]", JSONReadingError(.numberOutOfRange, offset: 1)),
            ("[tru]", JSONReadingError(.unexpectedCharacter(UInt8(ascii: "]"), expected: "\"true\""), offset: 4)),
            ("nul", JSONReadingError(.unexpectedEnd(expected: "\"null\""), offset: 3)),
            ("{} {}", JSONReadingError(.trailingData, offset: 3)),
            ("[1]x", JSONReadingError(.trailingData, offset: 3)),
        ]
        for (text, error) in cases {
            #expect(throws: error, "\(text.debugDescription)") { try Self.read(text) }
        }
        // Bytes that are not UTF-8: a lone continuation byte, an overlong "/", a surrogate.
        for (bytes, offset) in [([0x5B, 0x22, 0x80, 0x22, 0x5D], 2), ([0x5B, 0x22, 0xC0, 0xAF, 0x22, 0x5D], 2),
                                ([0x5B, 0x22, 0xED, 0xA0, 0x80, 0x22, 0x5D], 2)] as [([UInt8], Int)] {
            #expect(throws: JSONReadingError(.invalidEncoding, offset: offset)) { try ParameterValue(json: Data(bytes)) }
        }
    }

    @Test("nesting is bounded at any input depth: a million [ is an error at the first excess level")
    func nesting() throws {
        let million = Data(repeating: UInt8(ascii: "["), count: 1_000_000)
        #expect(throws: JSONReadingError(.nestingTooDeep(limit: 512), offset: 512)) { try ParameterValue(json: million) }
        let objects = String(repeating: "{\"a\":", count: 100_000) + "1" + String(repeating: "}", count: 100_000)
        #expect(throws: JSONReadingError(.nestingTooDeep(limit: 512), offset: 512 * 5)) { try Self.read(objects) }
        let atLimit = String(repeating: "[", count: 512) + String(repeating: "]", count: 512)
        #expect(try Self.read(atLimit).depth == 512)
        #expect(throws: JSONReadingError(.nestingTooDeep(limit: 3), offset: 3)) { try Self.read("[[[[]]]]", maximumDepth: 3) }
        // A deep tree within a raised limit is built and freed without recursion.
        let deep = String(repeating: "[", count: 100_000) + String(repeating: "]", count: 100_000)
        #expect(try Self.read(deep, maximumDepth: 100_000).depth == 100_000)
    }

    @Test("numbers are exact: Int when they fit, Decimal beyond, nearest Double otherwise; -0 keeps its sign")
    func numbers() throws {
        #expect(try Self.read("[0, -1, 9223372036854775807, -9223372036854775808]") == [0, -1, .int(Int.max), .int(Int.min)])
        #expect(try Self.read("[9223372036854775808, 18446744073709551616, -9223372036854775809]") == [
            .decimal(Decimal(UInt64(Int.max) + 1)), .decimal(Decimal(string: "18446744073709551616")!),
            .decimal(Decimal(string: "-9223372036854775809")!),
        ])
        guard case .array(let zeros) = try Self.read("[-0, -0.0, 0.0]"), case .double(let negativeZero) = zeros[0] else {
            Issue.record("-0 is not a double")
            return
        }
        #expect(negativeZero == 0 && negativeZero.sign == .minus)
        #expect(zeros[2] == .double(0))
        // Doubles read as the nearest representable value, the fast path and the slow one alike.
        let doubles = ["0.1", "1e2", "1E-2", "-1.5e+3", "123456789012345678.0", "1.7976931348623157e308", "5e-324",
                       "2.2250738585072011e-308", "9007199254740993.0", "0.30000000000000004", "4.9406564584124654e-324",
                       "1e-400", "123.456e-789", "1e22", "1e23", "0.000001234567890123456789"]
        for text in doubles {
            #expect(try Self.read("[\(text)]") == [.double(Double(text)!)], "\(text)")
        }
    }

    @Test("strings: escapes and surrogate pairs decode, raw UTF-8 passes, U+FEFF is data, duplicate keys keep the last")
    func strings() throws {
        #expect(try Self.read(#"["\"\\\/\b\f\n\r\t", "\u00e9\u4e2d", "\ud834\udd1e", "é中𝄞"]"#) == [
            "\"\\/\u{8}\u{C}\n\r\t", "\u{E9}\u{4E2D}", "\u{1D11E}", "é中𝄞",
        ])
        // Foundation drops a leading U+FEFF written raw; it is part of the string.
        #expect(try ParameterValue(json: Data([0x5B, 0x22, 0xEF, 0xBB, 0xBF, 0x78, 0x22, 0x5D])) == ["\u{FEFF}x"])
        #expect(try Self.read(#"{"\ufeffk": "\ufeff"}"#) == ["\u{FEFF}k": "\u{FEFF}"])
        #expect(try Self.read(#"{"a": 1, "b": 2, "a": 3}"#) == ["a": 3, "b": 2])
        // Long strings cross the eight-byte scan at every alignment.
        for length in 0..<40 {
            let text = String(repeating: "x", count: length) + "é\\n" + String(repeating: "y", count: length)
            #expect(try Self.read("[\"\(text)\"]") == [.string(String(repeating: "x", count: length) + "é\n" + String(repeating: "y", count: length))])
        }
    }

    @Test("UTF-16 and UTF-32, with or without a byte-order mark, read as the same value")
    func encodings() throws {
        let text = #"{"k": ["é", "𝄞", 1]}"#
        let expected: ParameterValue = ["k": ["é", "𝄞", 1]]
        let forms: [(String.Encoding, [UInt8])] = [
            (.utf16BigEndian, []), (.utf16LittleEndian, []), (.utf16BigEndian, [0xFE, 0xFF]), (.utf16LittleEndian, [0xFF, 0xFE]),
            (.utf32BigEndian, []), (.utf32LittleEndian, []), (.utf32BigEndian, [0, 0, 0xFE, 0xFF]), (.utf32LittleEndian, [0xFF, 0xFE, 0, 0]),
            (.utf8, [0xEF, 0xBB, 0xBF]),
        ]
        for (encoding, mark) in forms {
            let data = Data(mark) + text.data(using: encoding)!
            #expect(try ParameterValue(json: data) == expected, "\(encoding) \(mark)")
        }
        // A lone surrogate in UTF-16 text and a truncated unit are encoding errors.
        #expect(throws: JSONReadingError(.invalidEncoding, offset: 2)) { try ParameterValue(json: Data([0x5B, 0x00, 0x22, 0x00, 0x00, 0xD8, 0x22, 0x00, 0x5D, 0x00])) }
        #expect(throws: JSONReadingError(.invalidEncoding, offset: 0)) { try ParameterValue(json: Data([0x5B, 0x00, 0x5D])) }
        // Fuzz regression: zeros only in the second byte are not UTF-16 (RFC 4627 §3 wants the
        // pattern in all four), so this is UTF-8 holding a raw NUL, as JSONSerialization reads it.
        #expect(throws: JSONReadingError(.controlCharacterInString, offset: 1)) {
            try ParameterValue(json: Data([0x22, 0x00, 0x6C, 0x0A, 0x5B, 0x0A, 0x22, 0x00]))
        }
    }

    @Test("5,000 seeded documents read the same as JSONSerialization reads them")
    func differentialAgainstFoundation() throws {
        var random = SplitMix64(seed: 8_259)
        for round in 0..<5_000 {
            var generator = JSONDocumentGenerator(random: random)
            let text = generator.document()
            random = generator.random
            let data = Data(text.utf8)
            let ours = try ParameterValue(json: data)
            let foundation = try ParameterValue(any: JSONSerialization.jsonObject(with: data, options: .fragmentsAllowed))
            let difference = JSONNumbers.difference(ours, foundation)
            #expect(difference == nil, "round \(round): \(difference ?? "")")
        }
    }
}

/// Random JSON text rich in what readers get wrong: escapes, surrogate pairs, raw multi-byte
/// UTF-8, every number form, duplicate keys, deep and wide nesting, odd whitespace.
struct JSONDocumentGenerator {
    var random: SplitMix64

    mutating func document() -> String {
        var output = ""
        value(into: &output, depth: random.range(0, 6))
        return whitespace() + output + whitespace()
    }

    private mutating func whitespace() -> String {
        (0..<random.range(0, 2)).map { _ in [" ", "\n", "\t", "\r", "  "][random.range(0, 4)] }.joined()
    }

    private mutating func value(into output: inout String, depth: Int) {
        switch random.range(0, depth > 0 ? 9 : 5) {
        case 0: output += ["true", "false", "null"][random.range(0, 2)]
        case 1, 2: output += number()
        case 3, 4, 5: output += string()
        case 6, 7:
            output += "["
            let count = random.range(0, random.range(0, 1) == 0 ? 3 : 40)
            for index in 0..<count {
                if index > 0 { output += "," }
                output += whitespace()
                value(into: &output, depth: depth - 1)
                output += whitespace()
            }
            output += "]"
        default:
            output += "{"
            let count = random.range(0, 6)
            for index in 0..<count {
                if index > 0 { output += "," }
                // A small key space, so duplicate keys are common.
                output += whitespace() + (random.range(0, 2) == 0 ? "\"k\(random.range(0, 3))\"" : string()) + whitespace() + ":"
                value(into: &output, depth: depth - 1)
            }
            output += "}"
        }
    }

    private mutating func number() -> String {
        let sign = random.range(0, 3) == 0 ? "-" : ""
        let digits = { (count: Int, random: inout SplitMix64) -> String in
            String((0..<count).map { _ in Character(String(random.range(0, 9))) })
        }
        var integer = random.range(0, 3) == 0 ? "0" : String(random.range(1, 9)) + digits(random.range(0, 25), &random)
        if integer.count > 1, integer.first == "0" { integer.removeFirst() }
        var text = sign + integer
        if random.range(0, 2) == 0 { text += "." + digits(random.range(1, 20), &random) }
        if random.range(0, 3) == 0 {
            text += ["e", "E"][random.range(0, 1)] + ["", "+", "-"][random.range(0, 2)] + String(random.range(0, 280))
        }
        return text
    }

    private mutating func string() -> String {
        var text = "\""
        // Foundation drops a raw U+FEFF that starts a string or follows an escape (we keep it,
        // tested above), so the generator writes one only after a plain character.
        var afterPlain = false
        for _ in 0..<random.range(0, 24) {
            switch random.range(0, 11) {
            case 0:
                text += ["\\\"", "\\\\", "\\/", "\\b", "\\f", "\\n", "\\r", "\\t"][random.range(0, 7)]
                afterPlain = false
            case 1:
                text += String(format: "\\u%04x", [random.range(0, 0xD7FF), random.range(0xE000, 0xFFFF)][random.range(0, 1)])
                afterPlain = false
            case 2:
                let scalar = random.range(0x10000, 0x10FFFF) - 0x10000
                text += String(format: "\\u%04X\\u%04x", 0xD800 + (scalar >> 10), 0xDC00 + (scalar & 0x3FF))
                afterPlain = false
            case 3:
                text += ["é", "中", "𝄞", "\u{7FF}", "\u{800}", "\u{FFFD}", "\u{10FFFF}"][random.range(0, 6)]
                afterPlain = true
            case 4:
                text += afterPlain ? "\u{FEFF}" : "\\ufeff"
            default:
                let character = Character(Unicode.Scalar(UInt8(random.range(0x20, 0x7E))))
                afterPlain = character != "\\" && character != "\""
                text += afterPlain ? String(character) : "\\" + String(character)
            }
        }
        return text + "\""
    }
}

enum JSONNumbers {
    /// Equal trees where numbers compare by value across `Int`, `Decimal` and `Double`
    /// (JSONSerialization reads `-0` as the integer 0 and keeps only 38 digits of huge
    /// integers; we keep the sign, and the nearest double).
    /// Where the trees first differ, or nil.
    static func difference(_ lhs: ParameterValue, _ rhs: ParameterValue, at path: String = "") -> String? {
        switch (lhs, rhs) {
        case (.array(let a), .array(let b)):
            guard a.count == b.count else { return "\(path): \(a.count) vs \(b.count) elements" }
            for (index, pair) in zip(a, b).enumerated() {
                if let found = difference(pair.0, pair.1, at: path + "[\(index)]") { return found }
            }
            return nil
        case (.dictionary(let a), .dictionary(let b)):
            guard Set(a.keys) == Set(b.keys) else {
                return "\(path): keys \(a.keys.sorted().map(\.debugDescription)) vs \(b.keys.sorted().map(\.debugDescription))"
            }
            for (key, value) in a {
                if let found = difference(value, b[key]!, at: path + "." + key.debugDescription) { return found }
            }
            return nil
        case (.int, _), (.double, _), (.decimal, _):
            if let left = double(lhs), let right = double(rhs), left == right || abs(left - right) <= abs(left) * 1e-15 {
                return nil
            }
            return "\(path): \(lhs) vs \(rhs)"
        default:
            return lhs == rhs ? nil : "\(path): \(lhs.description) vs \(rhs.description)"
        }
    }

    private static func double(_ value: ParameterValue) -> Double? {
        switch value {
        case .int(let int): return Double(int)
        case .double(let double): return double
        case .decimal(let decimal): return Double(decimal.description)
        default: return nil
        }
    }
}
