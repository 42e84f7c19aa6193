#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Testing
@testable import HTTPSerializationCore

@Suite("JSON strings: escapes decoded wherever they fall, ASCII or not")
struct JSONStringDecodingTests {
    static func read(_ json: String) throws -> String? {
        guard case .string(let text) = try ParameterValue(json: Data(json.utf8)) else { return nil }
        return text
    }

    @Test("an escape at every offset of runs up to 40 bytes long decodes to the same text", arguments: [
        (#"\n"#, "\n"), (#"\""#, "\""), (#"\\"#, "\\"), (#"\/"#, "/"), (#"\u0041"#, "A"), (#"\u00e9"#, "é"),
        (#"\u4e2d"#, "中"), (#"\ud83d\ude00"#, "😀"),
    ])
    func escapeAtEveryOffset(escape: String, decoded: String) throws {
        for before in 0...40 {
            for after in [0, 1, 7, 8, 9, 23] {
                let prefix = String(repeating: "a", count: before), suffix = String(repeating: "z", count: after)
                let text = try Self.read("\"" + prefix + escape + suffix + "\"")
                #expect(text == prefix + decoded + suffix, "\(before) bytes, then \(escape), then \(after) bytes")
            }
        }
    }

    /// The string read back from a document where it is followed by 210 more bytes (so long
    /// strings are decoded in whole blocks; those bytes hold escapes of their own, which must
    /// not count) or ends the document (so they are not).
    static func readBoth(_ escaped: String) throws -> [String?] {
        let padding = "\"\\\\" + String(repeating: #"p\n"#, count: 70) + "\""
        guard case .array(let values) = try ParameterValue(json: Data(("[\"" + escaped + "\"," + padding + "]").utf8)),
              case .string(let padded) = values.first else { return [nil] }
        return [padded, try read("\"" + escaped + "\"")]
    }

    @Test("an escape at every offset of a string up to three blocks long decodes to the same text", arguments: [
        (#"\n"#, "\n"), (#"\\"#, "\\"), (#"\u00e9"#, "é"), (#"\ud83d\ude00"#, "😀"), (#"\"\t\\\/"#, "\"\t\\/"),
    ])
    func escapeAtEveryBlockOffset(escape: String, decoded: String) throws {
        for before in 0...140 {
            for after in [0, 1, 62, 63, 64, 65, 130] {
                let prefix = String(repeating: "a", count: before), suffix = String(repeating: "é", count: after / 2) + (after % 2 == 1 ? "z" : "")
                let expected = prefix + decoded + suffix
                #expect(try Self.readBoth(prefix + escape + suffix) == [expected, expected], "\(before) bytes, then \(escape), then \(after)")
            }
        }
    }

    @Test("seeded strings of every kind of character, escaped every way JSON allows, read back as written")
    func seededEscapedStringsReadBack() throws {
        var state: UInt64 = 0x9E37_79B9_7F4A_7C15
        func next(_ bound: Int) -> Int {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Int((state >> 33) % UInt64(bound))
        }
        let alphabet: [Unicode.Scalar] = ["a", "Z", "0", " ", "\"", "\\", "/", "\n", "\t", "\r", "\u{8}", "\u{C}", "\u{1}", "\u{1F}",
                                          "é", "中", "😀", "\u{7F}", "\u{FFFF}", "\u{10FFFF}"]
        for _ in 0..<1_500 {
            var text = String.UnicodeScalarView()
            var escaped = ""
            // Runs of one character make dense escapes too.
            for _ in 0..<next(12) {
                let scalar = alphabet[next(alphabet.count)]
                for _ in 0..<(next(4) == 0 ? next(30) : 1 + next(6)) {
                    text.append(scalar)
                    escaped += Self.escaped(scalar, style: next(3))
                }
            }
            let expected = String(text)
            #expect(try Self.readBoth(escaped) == [expected, expected], "\(escaped)")
        }
    }

    /// One scalar as JSON may write it: as itself where it can be, as a short escape, or as `\u`
    /// escapes in either case of hex (a pair of them past the Basic Multilingual Plane).
    static func escaped(_ scalar: Unicode.Scalar, style: Int) -> String {
        let short: [Unicode.Scalar: String] = ["\"": #"\""#, "\\": #"\\"#, "/": #"\/"#, "\n": #"\n"#, "\t": #"\t"#, "\r": #"\r"#,
                                               "\u{8}": #"\b"#, "\u{C}": #"\f"#]
        func unit(_ value: UInt32) -> String {
            let hex = String(value, radix: 16)
            let padded = String(repeating: "0", count: 4 - hex.count) + hex
            return "\\u" + (style == 1 ? padded.uppercased() : padded)
        }
        func escapes() -> String {
            guard scalar.value > 0xFFFF else { return unit(scalar.value) }
            let value = scalar.value - 0x10000
            return unit(0xD800 + (value >> 10)) + unit(0xDC00 + (value & 0x3FF))
        }
        if scalar == "\"" || scalar == "\\" || scalar.value < 0x20 {
            return style == 0 ? escapes() : short[scalar] ?? escapes()
        }
        if style == 2 { return escapes() }
        return style == 1 && scalar == "/" ? #"\/"# : String(scalar)
    }

    @Test("a non-ASCII character written as an escape makes a string that counts and compares as Unicode text")
    func escapedNonASCIIIsNotTakenForASCII() throws {
        let text = try #require(try Self.read(#""caf\u00e9 \u4e2d\u6587 ok""#))
        #expect(text == "café 中文 ok")
        #expect(text.count == 10)
        #expect(text.utf8.count == 15)
        #expect(text.unicodeScalars.map(\.value).contains(0xE9))
        #expect(text.hasPrefix("café"))
    }
}
