#if Macros
import Foundation
import HTTPSerializationCore
@testable import HTTPSerializationCodable
import HTTPSerializationMacros
import SeededGenerators
import Testing

/// Keys compared as `.convertFromSnakeCase` converts them, from the bytes: the comparison
/// against `JSONDecoder`'s own conversion, and generated readers over the text under it.
@Suite("Snake-case keys matched from their bytes, as JSONDecoder converts them")
struct SnakeCaseKeyMatchingTests {
    /// Any object's keys, as the decoder's keyed container names them (converted).
    struct KeyList: Decodable {
        var keys: [String]
        init(from decoder: any Decoder) throws {
            keys = try decoder.container(keyedBy: JSONCodingKey.self).allKeys.map(\.stringValue)
        }
    }

    static func converts(_ key: String, to wanted: String) -> Bool? {
        var key = key, wanted = wanted
        return key.withUTF8 { key in wanted.withUTF8 { JSONSnakeCaseKey.converts(key, to: $0) } }
    }

    @Test("3,000 seeded keys compare with JSONDecoder's conversion of them, and every key of settled words is settled")
    func bytesAgreeWithJSONDecoder() throws {
        var random = SplitMix64(seed: 6_101)
        let alphabet = Array("aZbQ_1x-._9Y")
        let keys = (0..<3_000).map { _ in
            String((0..<random.range(0, 12)).map { _ in random.range(0, 3) == 0 ? "_" : alphabet[random.range(0, alphabet.count - 1)] })
        }
        let document = "[" + keys.map { #"{"\#($0)":0}"# }.joined(separator: ",") + "]"
        let decoder = JSONDecoder()
        decoder.keyDecodingStrategy = .convertFromSnakeCase
        let converted = try decoder.decode([KeyList].self, from: Data(document.utf8)).map { try #require($0.keys.first) }
        #expect(converted.count == keys.count)
        var settled = 0, unsettled = 0
        for (index, key) in keys.enumerated() {
            let other = converted[(index + 1) % keys.count]
            // Its own conversion, another key's, its own with a byte more, and its own with one
            // letter's case flipped or one byte replaced (at a seeded place).
            var changed = Array(converted[index].utf8), flipped = changed
            if !changed.isEmpty {
                let at = random.range(0, changed.count - 1)
                changed[at] = changed[at] == UInt8(ascii: "q") ? UInt8(ascii: "r") : UInt8(ascii: "q")
                if let letter = flipped.indices.first(where: { flipped[($0 + at) % flipped.count] | 0x20 >= 0x61 && flipped[($0 + at) % flipped.count] | 0x20 <= 0x7A }) {
                    flipped[(letter + at) % flipped.count] ^= 0x20
                }
            }
            let variants = [(converted[index], true), (other, other == converted[index]), (converted[index] + "x", false),
                            (String(decoding: changed, as: UTF8.self), changed.isEmpty),
                            (String(decoding: flipped, as: UTF8.self), flipped == Array(converted[index].utf8))]
            for (wanted, equal) in variants {
                switch Self.converts(key, to: wanted) {
                case let answer?:
                    settled += 1
                    #expect(answer == equal, "\(key) → \(converted[index]), against \(wanted): \(answer)")
                case nil:
                    unsettled += 1
                    // Only a word after the first with something other than letters then digits is unsettled.
                    let words = key.split(separator: "_").dropFirst()
                    #expect(words.contains { !$0.allSatisfy { $0.isLetter || $0.isNumber } || $0.drop { $0.isLetter }.contains { $0.isLetter } }, "\(key)")
                }
            }
            // The package's own conversion, which the tape's readers use, agrees too.
            #expect(JSONKeyConversion.camelCase(fromSnakeCase: key) == converted[index], "\(key)")
        }
        #expect(settled > 7_500 && unsettled > 100, "\(settled) settled, \(unsettled) not")
    }

    @Test("letters are upper- and lower-cased as the conversion does; words of digits stay; leading and trailing underscores stay")
    func namedConversions() {
        let cases: [(String, String, Bool?)] = [
            ("user_id", "userId", true), ("USER_ID", "userId", true), ("user_i_d", "userID", true), ("user__id", "userId", true),
            ("user_id", "userID", false), ("_user_id_", "_userId_", true), ("_user_id_", "userId", false), ("__a", "__a", true),
            ("a_", "a_", true), ("a_", "a", false), ("___", "___", true), ("", "", true), ("url_2", "url2", true),
            ("line_a1", "lineA1", true), ("v2_api", "v2Api", true), ("V2_API", "v2Api", true), ("x_2nd", "x2nd", nil),
            ("x_a-b", "xA-b", nil), ("y_a-b", "xA-b", false), ("a_b", "aBc", false), ("a_bc", "aB", false),
        ]
        for (key, wanted, answer) in cases {
            #expect(Self.converts(key, to: wanted) == answer, "\(key) against \(wanted)")
        }
    }

    @GeneratedJSONCoding
    struct Account: Codable, Equatable {
        var userId: Int
        /// A coding key with an underscore between words, which no converted key can equal.
        var legacy: Int?
        var emailAddress: String?
        var isActive: Bool?
        var url2: String?
        var _tag_: String?
        var line2nd: String?
        enum CodingKeys: String, CodingKey {
            case userId, legacy = "legacy_id", emailAddress, isActive, url2, _tag_, line2nd
        }
    }

    @Test("generated readers read snake-case documents from the text as JSONDecoder reads them: repeats, spellings, passed members")
    func generatedReadersFromTheText() throws {
        var ours = JSONBodyDecoder()
        ours.keyDecodingStrategy = .convertFromSnakeCase
        let foundation = JSONDecoder()
        foundation.keyDecodingStrategy = .convertFromSnakeCase
        let fromText = [
            #"{"user_id":1,"userId":2}"#, #"{"userId":2,"user_id":1}"#, #"{"user__id":3,"email_address":"a"}"#,
            #"{"USER_ID":4,"EMAIL_ADDRESS":"b","is_active":true}"#, #"{"user_id":5,"email__address_":"c"}"#,
            #"{"_user_id":6,"user_id":7}"#, #"{"user_id":8,"url_2":"x"}"#, #"{"user_id":9,"_tag_":"t"}"#,
            #"{"user_id":10,"is_active":true,"isActive":false}"#, #"{"userId":11,"emailAddress":"x","email_address":"y"}"#,
            #"{"email_address":"p","is_active":false,"user_id":12}"#, #"{"user_id":15,"a_b":{"c_d":[1]},"userId":0}"#,
            #"{"user_id":16,"legacy_id":5,"legacyId":6}"#, #"{"user_id":17,"legacy_id":5}"#,
        ]
        for text in fromText {
            let expected = try foundation.decode(Account.self, from: Data(text.utf8))
            #expect(GeneratedTextReaderTests.fromText(Account.self, text, decoder: ours) == expected, "\(text)")
            #expect(try ours.decode(Account.self, from: Data(text.utf8)) == expected, "\(text)")
        }
        // A word of another length settles a key (`url_2nd` is not `url2`); one the bytes do
        // not settle, and an escaped key, are the tape's, with the same value.
        #expect(GeneratedTextReaderTests.fromText(Account.self, #"{"user_id":13,"url_2nd":"x"}"#, decoder: ours)?.url2 == .some(nil))
        for text in [#"{"user_id":13,"line_2nd":"x"}"#, #"{"user\u005fid":14}"#] {
            #expect(GeneratedTextReaderTests.fromText(Account.self, text, decoder: ours) == nil, "\(text)")
            #expect(try ours.decode(Account.self, from: Data(text.utf8)) == (try foundation.decode(Account.self, from: Data(text.utf8))), "\(text)")
        }
    }
}
#endif
