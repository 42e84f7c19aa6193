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
