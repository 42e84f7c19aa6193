import Foundation
import SeededGenerators
import Testing
@testable import HTTPSerialization
@testable import HTTPSerializationCodable
@testable import HTTPSerializationCore
@testable import HTTPSerializationFoundation
@testable import HTTPSerializationImages
@testable import HTTPSerializationXML

/// Seeded documents shaped like a model, with the faults real payloads have (missing keys,
/// nulls, wrong types, numbers out of range, duplicate and escaped keys, extra keys), decoded
/// by `JSONBodyDecoder` and by `JSONDecoder`: the same value, or the same error.
@Suite("JSON decoder: the same values and errors as JSONDecoder")
struct JSONBodyDecoderDifferentialTests {
    enum Level: String, Decodable, Equatable { case low, high }

    struct Child: Decodable, Equatable {
        var key: String
        var value: Int?
        var nested: [Child]?
    }

    struct Model: Decodable, Equatable {
        var id: Int
        var name: String
        var score: Double?
        var small: Int8?
        var unsigned: UInt16?
        var ratio: Float?
        var flags: [Bool]
        var tags: [String]?
        var child: Child?
        var children: [Child]
        var counts: [String: Int]?
        var level: Level?
        var big: Int64?
        var huge: UInt64?
    }

    struct SnakeModel: Decodable, Equatable {
        var userID: Int?
        var userName: String
        var createdAt: Double?
        var nestedValue: [String: Int]?
        var __private_: Bool?
    }

    /// What a decode came to, comparable across the two decoders.
    enum Outcome<T: Equatable>: Equatable, CustomStringConvertible {
        case value(T)
        case error(kind: String, path: [String], type: String)

        init(_ body: () throws -> T) {
            do {
                self = .value(try body())
            } catch let error as DecodingError {
                switch error {
                case .typeMismatch(let type, let context): self = .error(kind: "typeMismatch", path: Self.path(context), type: "\(type)")
                case .valueNotFound(let type, let context): self = .error(kind: "valueNotFound", path: Self.path(context), type: "\(type)")
                case .keyNotFound(let key, let context): self = .error(kind: "keyNotFound", path: Self.path(context) + [key.stringValue], type: "")
                case .dataCorrupted(let context): self = .error(kind: "dataCorrupted", path: Self.path(context), type: "")
                @unknown default: self = .error(kind: "unknown", path: [], type: "")
                }
            } catch {
                self = .error(kind: "other \(error)", path: [], type: "")
            }
        }

        static func path(_ context: DecodingError.Context) -> [String] {
            context.codingPath.map { $0.intValue.map { "#\($0)" } ?? $0.stringValue }
        }

        /// `JSONDecoder` reports some corrupt values (a number that does not fit its type, an
        /// ISO 8601 date it cannot read) at a shorter path than the value's (empty, or its
        /// container's); ours names the value. Everything else must match exactly.
        func matches(foundation: Outcome) -> Bool {
            if case .error("dataCorrupted", let ours, _) = self, case .error("dataCorrupted", let theirs, _) = foundation {
                return ours.starts(with: theirs)
            }
            return self == foundation
        }

        var description: String {
            switch self {
            case .value(let value): return "value \(value)"
            case .error(let kind, let path, let type): return "\(kind) \(type) at \(path)"
            }
        }
    }

    /// Decodes `rounds` generated documents with both decoders and records every difference;
    /// expects between 10% and 90% of them to decode, so that both outcomes are exercised.
    static func compare<T: Decodable & Equatable>(
        _ type: T.Type, rounds: Int, seed: UInt64, ours: JSONBodyDecoder = JSONBodyDecoder(),
        foundation: JSONDecoder = JSONDecoder(), document: (inout SplitMix64) -> String
    ) {
        var random = SplitMix64(seed: seed)
        var failures = 0
        var decodedValues = 0
        for round in 0..<rounds {
            let text = document(&random)
            let data = Data(text.utf8)
            let mine = Outcome { try ours.decode(type, from: data) }
            let theirs = Outcome { try foundation.decode(type, from: data) }
            if case .value = mine { decodedValues += 1 }
            if !mine.matches(foundation: theirs) {
                failures += 1
                if failures <= 5 { Issue.record("round \(round): \(text)\n ours: \(mine)\n JSONDecoder: \(theirs)") }
            }
        }
        #expect(failures == 0)
        #expect(decodedValues > rounds / 10 && decodedValues < rounds - rounds / 10, "\(decodedValues) of \(rounds) decoded")
    }

    @Test("5,000 seeded model documents decode as JSONDecoder decodes them")
    func modelsMatchJSONDecoder() {
        Self.compare(Model.self, rounds: 5_000, seed: 1_962) { ModelDocuments.model(&$0) }
    }

    /// Our decoder and `JSONDecoder`, both under `.convertFromSnakeCase` or both without a strategy.
    static func decoders(snakeCase: Bool) -> (JSONBodyDecoder, JSONDecoder) {
        var ours = JSONBodyDecoder()
        let foundation = JSONDecoder()
        if snakeCase {
            ours.keyDecodingStrategy = .convertFromSnakeCase
            foundation.keyDecodingStrategy = .convertFromSnakeCase
        }
        return (ours, foundation)
    }

    @Test("snake-case keys convert as JSONDecoder converts them; dictionary keys stay as written")
    func snakeCaseMatchesJSONDecoder() {
        let (ours, foundation) = Self.decoders(snakeCase: true)
        Self.compare(SnakeModel.self, rounds: 2_000, seed: 1_963, ours: ours, foundation: foundation) { ModelDocuments.snake(&$0) }
    }

    @Test("under snake-case conversion, objects with no underscore in their keys are matched as written, as JSONDecoder matches them")
    func snakeCaseWithoutUnderscoresMatchesJSONDecoder() {
        let (ours, foundation) = Self.decoders(snakeCase: true)
        Self.compare(SnakeModel.self, rounds: 2_000, seed: 1_964, ours: ours, foundation: foundation) { ModelDocuments.withoutUnderscores(&$0) }
    }

    /// Every key of an object, as the decoder's strategy gives them.
    struct KeyNames: Decodable {
        var names: Set<String>
        init(from decoder: any Decoder) throws {
            names = Set(try decoder.container(keyedBy: JSONCodingKey.self).allKeys.map(\.stringValue))
        }
    }

    @Test("snake-case keys list as JSONDecoder lists them, past the number the decoder keeps converted and in objects small enough to scan")
    func manySnakeCaseKeysConvert() throws {
        let keys = (0..<(JSONTapeDecoder.convertedKeyLimit + 200)).map { "key_\($0)_name" }
        let object = "{" + keys.map { "\"\($0)\":1" }.joined(separator: ",") + "}"
        let small = #"{"user_id":1,"userName":2,"__private_":3,"created__at_":4,"URL_path":5}"#
        let data = Data("[\(object),\(object),\(small)]".utf8)
        let (ours, foundation) = Self.decoders(snakeCase: true)
        let mine = try ours.decode([KeyNames].self, from: data).map(\.names)
        #expect(mine == (try foundation.decode([KeyNames].self, from: data).map(\.names)))
        #expect(mine.first?.contains("key699Name") == true)
    }

    /// Looks up a fixed set of names (`contains`, then `decode`) and a super decoder.
    struct Probe: Decodable, Equatable {
        static let names = ["caf\u{E9}", "K", "\u{212A}", "userId", "aB", "user_name", "userName", "x"]
        var values: [String: Int] = [:]
        init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: JSONCodingKey.self)
            for name in Self.names where container.contains(JSONCodingKey(stringValue: name)) {
                values[name] = try container.decode(Int.self, forKey: JSONCodingKey(stringValue: name))
            }
            values["super"] = try Int?(from: container.superDecoder(forKey: JSONCodingKey(stringValue: "sup")))
        }
    }

    @Test("keys spelled differently but equal as strings, and keys that convert to the same name, match as in JSONDecoder", arguments: [false, true])
    func equalSpellingsAndConvertedRepeatsMatchJSONDecoder(snakeCase: Bool) {
        let documents = [
            "{\"cafe\u{301}\":1}", "{\"caf\u{E9}\":1}", "{\"\u{212A}\":2}", "{\"K\":3}", "{\"K\":3,\"\u{212A}\":2}",
            #"{"user_id":1,"userId":2}"#, #"{"userId":2,"user_id":1}"#, #"{"a_b":1,"A_B":2}"#, #"{"user_id":1,"user__id":2}"#,
            #"{"user_name":5}"#, #"{"userName":5,"user_name":6}"#, #"{"sup":7,"x":1}"#, #"{"x":1,"sup":7,"user_id":3}"#,
        ]
        let (ours, foundation) = Self.decoders(snakeCase: snakeCase)
        for document in documents {
            let data = Data(document.utf8)
            let mine = Outcome { try ours.decode(Probe.self, from: data) }
            let theirs = Outcome { try foundation.decode(Probe.self, from: data) }
            #expect(mine.matches(foundation: theirs), "\(document)\n ours: \(mine)\n JSONDecoder: \(theirs)")
        }
    }

    @Test("ISO 8601 dates read as JSONDecoder reads them, fast path or not")
    func iso8601MatchesJSONDecoder() {
        var ours = JSONBodyDecoder()
        ours.dateDecodingStrategy = .iso8601
        let foundation = JSONDecoder()
        foundation.dateDecodingStrategy = .iso8601
        Self.compare([Date].self, rounds: 3_000, seed: 8_601, ours: ours, foundation: foundation) { "[\"\(ModelDocuments.timestamp(&$0))\"]" }
    }
}

/// Text generators for the differential tests: half the documents have faults injected, the
/// other half only benign variation (order, escaped and unknown keys, number spellings).
struct ModelDocuments {
    var random: SplitMix64
    var faulty = true

    init(_ random: SplitMix64) {
        self.random = random
        faulty = self.random.range(0, 1) == 0
    }

    static func model(_ random: inout SplitMix64) -> String {
        var documents = ModelDocuments(random)
        defer { random = documents.random }
        return documents.model()
    }

    static func snake(_ random: inout SplitMix64) -> String {
        var documents = ModelDocuments(random)
        defer { random = documents.random }
        return documents.snake()
    }

    static func withoutUnderscores(_ random: inout SplitMix64) -> String {
        var documents = ModelDocuments(random)
        defer { random = documents.random }
        return documents.withoutUnderscores()
    }

    static func timestamp(_ random: inout SplitMix64) -> String {
        var documents = ModelDocuments(random)
        defer { random = documents.random }
        return documents.timestamp()
    }

    mutating func model() -> String {
        var fields: [(String, String)] = [
            ("id", integer(bits: 64)),
            ("name", string()),
            ("score", number()),
            ("small", integer(bits: 8)),
            ("unsigned", integer(bits: 16)),
            ("ratio", number()),
            ("flags", array { ["true", "false"][$0.random.range(0, 1)] }),
            ("tags", array { $0.string() }),
            ("child", child(depth: 2)),
            ("children", array { $0.child(depth: 1) }),
            ("counts", "{" + (0..<random.range(0, 4)).map { _ in "\(string()):\(integer(bits: 64))" }.joined(separator: ",") + "}"),
            ("level", ["\"low\"", "\"high\"", faulty ? "\"middle\"" : "\"low\""][random.range(0, 2)]),
            ("big", integer(bits: 64)),
            ("huge", integer(bits: 65)),
        ]
        return object(&fields)
    }

    mutating func snake() -> String {
        var fields: [(String, String)] = [
            (["user_id", "user_i_d", "userID", "user__id", "USER_ID"][random.range(0, 4)], integer(bits: 64)),
            (["user_name", "userName", "_user_name", "user_name_", "user-name"][random.range(0, 4)], string()),
            (["created_at", "created_At", "CreatedAt", "created__at"][random.range(0, 3)], number()),
            (["nested_value", "nestedValue"][random.range(0, 1)], "{\"inner_key\":1,\"other_key\":2}"),
            (["__private_", "__private", "private_"][random.range(0, 2)], ["true", "false"][random.range(0, 1)]),
        ]
        return object(&fields)
    }

    /// ``snake()``'s fields with keys that have no underscore, which the conversion leaves as
    /// they are (the nested object's own keys are a dictionary's, never converted).
    mutating func withoutUnderscores() -> String {
        var fields: [(String, String)] = [
            (["userID", "userId", "UserID"][random.range(0, 2)], integer(bits: 64)),
            // A third are missing their one required key, as written.
            (["userName", "userName", "username"][random.range(0, 2)], string()),
            (["createdAt", "CreatedAt", "createdat"][random.range(0, 2)], number()),
            (["nestedValue", "nestedvalue"][random.range(0, 1)], "{\"inner_key\":1,\"otherKey\":2}"),
        ]
        return object(&fields)
    }

    /// Fields in the model's order, with only the first in place, or shuffled (a third each: a
    /// generated reader takes the first two key by key and the last in the document's order),
    /// some dropped, nulled, mistyped, duplicated or escaped, plus unknown keys.
    private mutating func object(_ fields: inout [(String, String)]) -> String {
        var members: [String] = []
        switch random.range(0, 2) {
        case 0: break
        case 1: fields[1...].shuffle(using: &random)
        default: fields.shuffle(using: &random)
        }
        for (key, value) in fields {
            switch faulty ? random.range(0, 29) : random.range(4, 29) {
            case 0: continue
            case 1: members.append("\"\(key)\":null")
            case 2: members.append("\"\(key)\":\(wrongValue())")
            case 3:
                // A duplicate: JSONDecoder keeps the first.
                members.append("\"\(key)\":\(value)")
                members.append("\"\(key)\":\(wrongValue())")
            case 4: members.append("\"\(Self.escaped(key))\":\(value)")
            default: members.append("\"\(key)\":\(value)")
            }
            if random.range(0, 9) == 0 { members.append("\"extra\(random.range(0, 3))\":\(wrongValue())") }
        }
        return "{" + members.joined(separator: random.range(0, 3) == 0 ? " , " : ",") + "}"
    }

    private static func escaped(_ key: String) -> String {
        guard let first = key.unicodeScalars.first else { return key }
        return String(format: "\\u%04x", first.value) + String(key.unicodeScalars.dropFirst())
    }

    private mutating func wrongValue() -> String {
        ["\"text\"", "12", "-3.5", "true", "null", "[]", "{}", "[1,2]", "{\"key\":\"k\"}"][random.range(0, 8)]
    }

    private mutating func child(depth: Int) -> String {
        var fields: [(String, String)] = [("key", string()), ("value", integer(bits: 64))]
        if depth > 0, random.range(0, 2) == 0 { fields.append(("nested", array { $0.child(depth: depth - 1) })) }
        return object(&fields)
    }

    private mutating func array(_ element: (inout ModelDocuments) -> String) -> String {
        var items: [String] = []
        for _ in 0..<random.range(0, 4) {
            items.append(faulty && random.range(0, 19) == 0 ? wrongValue() : element(&self))
        }
        return "[" + items.joined(separator: ",") + "]"
    }

    /// Integers in every spelling, sized around the limits of a `bits`-wide type (faulty
    /// documents only: the others keep to spellings of small values).
    mutating func integer(bits: Int) -> String {
        let limit = bits >= 64 ? "18446744073709551615" : String(1 << bits)
        switch faulty ? random.range(0, 11) : [0, 1, 2, 3, 10][random.range(0, 4)] {
        case 0: return "-0"
        case 1: return "\(random.range(0, 99)).0"
        case 2: return "\(random.range(1, 9))e\(random.range(0, 1))"
        case 3: return "\(random.range(1, 9))0E-1"
        case 4: return "\(random.range(0, 9)).5"
        case 5: return limit
        case 6: return "-" + limit
        case 7: return String(Int64.min)
        case 8: return String(Int64.max)
        case 9: return "1" + String(repeating: "0", count: random.range(15, 25))
        default: return String(random.range(bits > 8 ? -1_000 : -100, bits > 8 ? 1_000 : 100))
        }
    }

    /// Floating-point numbers, including ones a `Float` cannot hold and ones that round to zero.
    mutating func number() -> String {
        switch faulty ? random.range(0, 9) : random.range(2, 9) {
        case 0: return "1e39"
        case 1: return "1e-50"
        case 2: return "-0.0"
        case 3: return "3.4028235e38"
        case 4: return "\(random.range(-99, 99)).\(random.range(0, 999))e\(random.range(-30, 30))"
        case 5: return "12345678901234567890123"
        case 6: return "0.1"
        default: return "\(random.range(-1_000, 1_000)).\(random.range(0, 99))"
        }
    }

    mutating func string() -> String {
        let pieces = ["a", "é", "\\n", "\\u00e9", "\\ud83d\\ude00", "z", "\\\"", "中", "\\/"]
        return "\"" + (0..<random.range(0, 6)).map { _ in pieces[random.range(0, pieces.count - 1)] }.joined() + "\""
    }

    /// Timestamps in the common form, valid and not, and in forms only a formatter reads.
    mutating func timestamp() -> String {
        let year = [1970, 2024, 2000, 1900, 1583, 1582, 9999, 2100, 1600][random.range(0, 8)]
        let month = random.range(0, 13)
        let day = random.range(0, 32)
        let hour = random.range(0, 24)
        let minute = random.range(0, 60)
        let second = random.range(0, 60)
        let base = String(format: "%04d-%02d-%02dT%02d:%02d:%02d", year, month, day, hour, minute, second)
        switch random.range(0, 9) {
        case 0: return base + "+02:00"
        case 1: return base + ".123Z"
        case 2: return base
        case 3: return base + "z"
        case 4: return base.replacingOccurrences(of: "T", with: " ") + "Z"
        case 5: return base + "-0530"
        default: return base + "Z"
        }
    }
}
