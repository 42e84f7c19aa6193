#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Testing
import HTTPSerializationCore

@Suite("JSON writer: every character that needs an escape gets one, wherever it falls in a string")
struct JSONWriterEscapingTests {
    /// The escaped form of `text`, one byte at a time: what the writer must produce.
    static func reference(_ text: String, escapingSlashes: Bool) -> [UInt8] {
        var result: [UInt8] = [0x22]
        let hex = Array("0123456789abcdef".utf8)
        for byte in text.utf8 {
            switch byte {
            case 0x08: result += Array("\\b".utf8)
            case 0x0C: result += Array("\\f".utf8)
            case 0x0A: result += Array("\\n".utf8)
            case 0x0D: result += Array("\\r".utf8)
            case 0x09: result += Array("\\t".utf8)
            case 0x22, 0x5C: result += [0x5C, byte]
            case 0x2F where escapingSlashes: result += [0x5C, byte]
            case ..<0x20: result += Array("\\u00".utf8) + [hex[Int(byte >> 4)], hex[Int(byte & 15)]]
            default: result.append(byte)
            }
        }
        return result + [0x22]
    }

    static func written(_ text: String, escapingSlashes: Bool) throws -> [UInt8] {
        let options: JSONWritingOptions = escapingSlashes ? .fragmentsAllowed : [.fragmentsAllowed, .withoutEscapingSlashes]
        return Array(try ParameterValue.string(text).jsonData(options: options))
    }

    @Test("one character to escape at every offset of strings up to 41 bytes (two blocks and a word), with and without escaped slashes", arguments: [
        "\"", "\\", "/", "\n", "\r", "\t", "\u{8}", "\u{C}", "\u{0}", "\u{1}", "\u{1F}",
    ])
    func everyOffset(special: String) throws {
        for length in 0...40 {
            for offset in 0...length {
                let text = String(repeating: "a", count: offset) + special + String(repeating: "z", count: length - offset)
                for slashes in [true, false] {
                    #expect(try Self.written(text, escapingSlashes: slashes) == Self.reference(text, escapingSlashes: slashes),
                            "\(special.debugDescription) at \(offset) of \(length + 1)")
                }
            }
        }
    }

    @Test("a member's comma, key and colon in one call are the separator's and the key's bytes, for keys of 0 to 20 bytes with a special byte anywhere")
    func membersMatchSeparatorAndKey() {
        let specials: [UInt8] = [0x22, 0x5C, 0x2F, 0x00, 0x01, 0x1F, 0x20, 0x7F, 0x80, 0xFF]
        for options: JSONWritingOptions in [[], .withoutEscapingSlashes, .prettyPrinted] {
            for length in 0...20 {
                for position in -1..<length {
                    for special in position < 0 ? [UInt8(ascii: "q")] : specials {
                        // Distinct letters, so a byte written at the wrong place shows.
                        var key = (0..<length).map { UInt8(ascii: "a") + UInt8($0) }
                        if position >= 0 { key[position] = special }
                        for first in [true, false] {
                            var fused = JSONWriter(options: options), parts = JSONWriter(options: options)
                            fused.output.append(UInt8(ascii: "{"))
                            parts.output.append(UInt8(ascii: "{"))
                            key.withUnsafeBufferPointer { key in
                                fused.member(first: first, level: 2, key: key)
                                parts.separator(first: first, level: 2)
                                parts.key(utf8: key)
                            }
                            #expect(fused.output.bytes == parts.output.bytes, "\(key) at \(position), first \(first), \(options)")
                        }
                    }
                }
            }
        }
    }

    @Test("runs of escapes, non-ASCII text and bytes next to the flagged ranges are written exactly")
    func mixedText() throws {
        let pieces = ["a", "é", "中", "😀", "\"", "\\", "/", "\n", "\u{1F}", " ", "!", "#", "[", "]", "\u{7F}", "0"]
        var seed: UInt64 = 17
        for _ in 0..<3_000 {
            var text = ""
            seed = seed &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            let count = Int(seed >> 59)
            for step in 0..<count { text += pieces[Int((seed >> UInt64(step % 14 * 4)) & 15)] }
            for slashes in [true, false] {
                #expect(try Self.written(text, escapingSlashes: slashes) == Self.reference(text, escapingSlashes: slashes), "\(text.debugDescription)")
            }
        }
    }
}
