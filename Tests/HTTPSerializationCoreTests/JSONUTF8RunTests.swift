#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Testing
@testable import HTTPSerializationCore

@Suite("JSON strings with non-ASCII text: every sequence accepted or refused as Unicode's table says, at the same offset")
struct JSONUTF8RunTests {
    /// The reader's verdict on `bytes` as the content of a string in an array.
    static func verdict(_ content: [UInt8]) -> Result<String, JSONReadingError> {
        let document = [UInt8(ascii: "["), UInt8(ascii: "\"")] + content + [UInt8(ascii: "\""), UInt8(ascii: "]")]
        do {
            guard case .array(let values) = try ParameterValue(json: Data(document)), case .string(let text) = values.first else {
                return .failure(JSONReadingError(.noValue, offset: -1))
            }
            return .success(text)
        } catch {
            return .failure(error)
        }
    }

    /// What a sequence-by-sequence check says about `content`: the offset of the first
    /// malformed sequence's lead byte (in the document, two bytes in), or nil.
    static func firstMalformed(_ content: [UInt8]) -> Int? {
        var index = 0
        while index < content.count {
            let lead = content[index]
            if lead < 0x80 {
                index += 1
                continue
            }
            let (length, low, high): (Int, UInt8, UInt8) = switch lead {
            case 0xC2...0xDF: (2, 0x80, 0xBF)
            case 0xE0: (3, 0xA0, 0xBF)
            case 0xED: (3, 0x80, 0x9F)
            case 0xE1...0xEF: (3, 0x80, 0xBF)
            case 0xF0: (4, 0x90, 0xBF)
            case 0xF4: (4, 0x80, 0x8F)
            case 0xF1...0xF3: (4, 0x80, 0xBF)
            default: (0, 0, 0)
            }
            guard length > 0, index + length <= content.count, low...high ~= content[index + 1],
                  content[(index + 2)..<(index + length)].allSatisfy({ $0 & 0xC0 == 0x80 }) else { return index + 2 }
            index += length
        }
        return nil
    }

    /// Whole characters of mixed text, at least `bytes` long (at most three bytes more).
    static func wholeCharacters(bytes: Int) -> [UInt8] {
        var text: [UInt8] = []
        for character in String(repeating: "é中a", count: 30) where text.count < bytes { text += Array(character.utf8) }
        return text
    }

    static let wellFormed: [[UInt8]] = [
        Array("é".utf8), Array("中".utf8), Array("😀".utf8), [0xE0, 0xA0, 0x80], [0xED, 0x9F, 0xBF],
        [0xF0, 0x90, 0x80, 0x80], [0xF4, 0x8F, 0xBF, 0xBF], [0xEF, 0xBF, 0xBF],
    ]

    static let malformed: [[UInt8]] = [
        [0x80], [0xBF], [0xC0, 0xAF], [0xC1, 0xBF], [0xE0, 0x80, 0x80], [0xE0, 0x9F, 0xBF], [0xED, 0xA0, 0x80],
        [0xF0, 0x80, 0x80, 0x80], [0xF0, 0x8F, 0xBF, 0xBF], [0xF4, 0x90, 0x80, 0x80], [0xF5, 0x80, 0x80, 0x80], [0xFF],
        [0xC3], [0xE4, 0xB8], [0xF0, 0x9F, 0x98], [0xC3, 0x41], [0xE4, 0x22, 0x80], [0xF0, 0x9F, 0x5C, 0x80],
    ]

    @Test("well-formed sequences after 0 to 70 bytes of mixed text read back unchanged")
    func wellFormedSequencesReadBack() throws {
        for prefixLength in 0...70 {
            // Mixed text first, so the sequence under test falls anywhere in or after a run.
            let prefix = Array(String(repeating: "aé中", count: 20).utf8.prefix(prefixLength))
            for sequence in Self.wellFormed {
                for suffix in [[], Array("z".utf8), Array("\\n tail".utf8), Array("😀 and more text after it".utf8)] as [[UInt8]] {
                    let content = prefix + sequence + suffix
                    guard Self.firstMalformed(content) == nil else { continue }  // a prefix cut inside "é" or "中"
                    let expected = String(decoding: content, as: UTF8.self).replacing("\\n", with: "\n")
                    #expect(try Self.verdict(content).get() == expected, "prefix \(prefixLength), \(sequence)")
                }
            }
        }
    }

    @Test("malformed or cut-off sequences anywhere in mixed text are refused at the lead byte's offset")
    func malformedSequencesAreRefusedAtTheirLead() {
        for prefixLength in [0, 1, 2, 3, 7, 8, 30, 31, 32, 33, 34, 35, 40, 62, 63, 64, 65, 66, 67, 70, 95, 96, 97, 127, 128, 129] {
            let prefix = Self.wholeCharacters(bytes: prefixLength)
            for sequence in Self.malformed {
                for suffix in [[], Array("z".utf8), Array("中".utf8)] as [[UInt8]] {
                    let content = prefix + sequence + suffix
                    let offset = Self.firstMalformed(content)
                    #expect(offset != nil)
                    guard let offset else { continue }
                    let verdict = Self.verdict(content)
                    #expect(verdict == .failure(JSONReadingError(.invalidEncoding, offset: offset)), "prefix \(prefixLength), \(sequence), suffix \(suffix)")
                }
            }
        }
        // After one non-ASCII character, ASCII on both sides of where a run hands back.
        for gap in [2, 3, 4, 5, 27, 28, 29, 31, 32, 33, 59, 60, 61, 64] {
            for sequence in Self.malformed {
                let content = Array("é".utf8) + Array(repeating: UInt8(ascii: "a"), count: gap) + sequence
                let offset = Self.firstMalformed(content)
                #expect(offset != nil)
                guard let offset else { continue }
                #expect(Self.verdict(content) == .failure(JSONReadingError(.invalidEncoding, offset: offset)), "gap \(gap), \(sequence)")
            }
        }
    }

    /// Non-ASCII text of `count` characters, two- and three-byte ones, so that what follows
    /// lands at every offset of a run, on both sides of its 32-byte stretches.
    static func mixedText(_ count: Int, _ pattern: String) -> String {
        String(String(repeating: pattern, count: count).prefix(count))
    }

    @Test("escapes inside a run of non-ASCII text decode as they do anywhere else", arguments: ["中", "é", "é中a"])
    func escapesInsideRunsDecode(pattern: String) throws {
        let escapes: [(written: String, decoded: String)] = [
            ("\\n", "\n"), ("\\\"", "\""), ("\\\\", "\\"), ("\\/", "/"), ("\\b", "\u{8}"), ("\\f", "\u{C}"),
            ("\\r", "\r"), ("\\t", "\t"), ("\\u00e9", "é"), ("\\u4E2D", "中"), ("\\u0041", "A"), ("\\uD83D\\uDE00", "😀"),
        ]
        for count in 1...45 {
            let text = Self.mixedText(count, pattern)
            for escape in escapes {
                // The escape alone after the text, then between two stretches of it, then twice.
                for (written, decoded) in [
                    (text + escape.written, text + escape.decoded),
                    (text + escape.written + text, text + escape.decoded + text),
                    (text + escape.written + escape.written + "z", text + escape.decoded + escape.decoded + "z"),
                ] {
                    #expect(try Self.verdict(Array(written.utf8)).get() == decoded, "\(count) × \(pattern), \(escape.written)")
                }
            }
        }
    }

    @Test("a bad escape inside a run of non-ASCII text is refused where it is refused anywhere else", arguments: ["中", "é", "é中a"])
    func badEscapesInsideRunsAreRefused(pattern: String) {
        for count in 1...45 {
            let text = Self.mixedText(count, pattern)
            let backslash = 2 + text.utf8.count  // in the document, after `["`
            let cases: [(String, JSONReadingError)] = [
                ("\\x", JSONReadingError(.invalidEscape, offset: backslash)),
                ("\\é", JSONReadingError(.invalidEscape, offset: backslash)),
                ("\\U0041", JSONReadingError(.invalidEscape, offset: backslash)),
                ("\\u12G4", JSONReadingError(.invalidEscape, offset: backslash + 4)),
                ("\\uD800x", JSONReadingError(.loneSurrogate, offset: backslash)),
                ("\\uDC00", JSONReadingError(.loneSurrogate, offset: backslash)),
            ]
            for (escape, error) in cases {
                #expect(Self.verdict(Array((text + escape + text).utf8)) == .failure(error), "\(count) × \(pattern), \(escape)")
            }
            // A document that ends right after the backslash, or inside a `\u` escape.
            for (tail, expected) in [("\\", "an escape"), ("\\u00", "four hex digits")] {
                let document = Array("[\"".utf8) + Array((text + tail).utf8)
                #expect(throws: JSONReadingError(.unexpectedEnd(expected: expected), offset: document.count), "\(count) × \(pattern), \(tail)") {
                    try ParameterValue(json: Data(document))
                }
            }
        }
    }

    @Test("a quote, backslash or control character right after non-ASCII text ends the run where it stands")
    func specialsAfterNonASCII() throws {
        for count in 1...40 {
            let text = String(repeating: "中", count: count)
            #expect(try Self.verdict(Array((text + "\\\"x").utf8)).get() == text + "\"x")
            #expect(Self.verdict(Array((text + "\u{1}").utf8)) == .failure(JSONReadingError(.controlCharacterInString, offset: 2 + 3 * count)))
        }
        // A document that ends inside a run has no closing quote.
        let open = Array("[\"".utf8) + Array(String(repeating: "é", count: 20).utf8)
        #expect(throws: JSONReadingError(.unexpectedEnd(expected: "a closing quote"), offset: open.count)) { try ParameterValue(json: Data(open)) }
    }
}
