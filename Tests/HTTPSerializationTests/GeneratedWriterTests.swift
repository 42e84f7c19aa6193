#if Macros
import Foundation
import HTTPSerializationMacros
import SeededGenerators
import Testing
@testable import HTTPSerializationCodable
@testable import HTTPSerializationCore

/// Models with `@GeneratedJSONCoding` writers against twins without them: the same bytes from
/// `JSONBodyEncoder` under every layout and key strategy, the same errors, and `JSONEncoder`'s values.
@Suite("@GeneratedJSONCoding writers: the Encodable path's text and errors")
struct GeneratedWriterTests {
    @GeneratedJSONCoding
    struct Child: Codable, Equatable {
        var key: String
        var value: Int?
        var nested: [Child]?
    }

    struct PlainChild: Codable, Equatable {
        var key: String
        var value: Int?
        var nested: [PlainChild]?
    }

    @GeneratedJSONCoding
    enum Level: String, Codable, Equatable { case low, high }

    @GeneratedJSONCoding
    struct Model: Codable, Equatable {
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
        var plain: PlainChild?
        let version = 2
    }

    enum PlainLevel: String, Codable, Equatable { case low, high }

    struct PlainModel: Codable, Equatable {
        var id: Int
        var name: String
        var score: Double?
        var small: Int8?
        var unsigned: UInt16?
        var ratio: Float?
        var flags: [Bool]
        var tags: [String]?
        var child: PlainChild?
        var children: [PlainChild]
        var counts: [String: Int]?
        var level: PlainLevel?
        var big: Int64?
        var huge: UInt64?
        var plain: PlainChild?
        let version = 2
    }

    static func encoders() -> [JSONBodyEncoder] {
        var pretty = JSONBodyEncoder()
        pretty.outputFormatting = [.prettyPrinted, .withoutEscapingSlashes]
        var snake = JSONBodyEncoder()
        snake.keyEncodingStrategy = .convertToSnakeCase
        var custom = JSONBodyEncoder()
        custom.keyEncodingStrategy = .custom { path in JSONCodingKey(stringValue: "\(path.count)-\(path.last!.stringValue)") }
        var sorted = JSONBodyEncoder()
        sorted.outputFormatting = .sortedKeys
        return [JSONBodyEncoder(), pretty, snake, custom, sorted]
    }

    /// Whether two dictionaries with the same entries list them in the same order: only when
    /// `SWIFT_DETERMINISTIC_HASHING` is set (as `.ci/run` sets it); otherwise each dictionary
    /// seeds its own hashing.
    static let dictionaryOrderIsStable = ProcessInfo.processInfo.environment["SWIFT_DETERMINISTIC_HASHING"] != nil

    /// The same bytes, or where dictionary order may differ between the twins' dictionaries
    /// (or the trees the `Encodable` path builds), the same length and the same values.
    static func expectSameText(_ ours: Data, _ theirs: Data, _ encoder: JSONBodyEncoder, _ note: Comment,
                               sourceLocation: SourceLocation = #_sourceLocation) throws {
        if dictionaryOrderIsStable || encoder.outputFormatting.contains(.sortedKeys) {
            #expect(ours == theirs, note, sourceLocation: sourceLocation)
        } else {
            let ourValues = try ParameterValue(json: ours), theirValues = try ParameterValue(json: theirs)
            #expect(ours.count == theirs.count && ourValues == theirValues, note, sourceLocation: sourceLocation)
        }
    }

    @Test("3,000 seeded models write the bytes their Encodable twins write, under every layout and key strategy")
    func seededModelsWriteTheSameBytes() throws {
        var random = SplitMix64(seed: 4_121)
        var compared = 0
        for round in 0..<3_000 {
            let text = Data(ModelDocuments.model(&random).utf8)
            guard let generated = try? JSONDecoder().decode(Model.self, from: text),
                  let plain = try? JSONDecoder().decode(PlainModel.self, from: text) else { continue }
            compared += 1
            for encoder in Self.encoders() {
                let ours = try encoder.encode(generated), theirs = try encoder.encode(plain)
                try Self.expectSameText(ours, theirs, encoder, "round \(round): \(String(decoding: ours, as: UTF8.self)) != \(String(decoding: theirs, as: UTF8.self))")
            }
            let foundation = try JSONEncoder().encode(generated)
            #expect(try ParameterValue(json: try JSONBodyEncoder().encode(generated)) == (try ParameterValue(json: foundation)))
            #expect(try JSONDecoder().decode([Model].self, from: try JSONBodyEncoder().encode([generated])) == [generated])
        }
        #expect(compared > 300)
    }

    /// The text written, or an `invalidValue` error's coding path.
    static func describe(_ body: () throws -> Data) -> String {
        do { return String(decoding: try body(), as: UTF8.self) } catch let EncodingError.invalidValue(_, context) {
            return "invalidValue at \(context.codingPath.map(\.stringValue))"
        } catch { return "\(error)" }
    }

    @Test("a non-finite double is the same error at the same path; under a strategy, the same string")
    func nonConformingFloats() throws {
        var model = try JSONDecoder().decode(Model.self, from: Data(#"{"id":1,"name":"a","flags":[],"children":[{"key":"k"}]}"#.utf8))
        var twin = try JSONDecoder().decode(PlainModel.self, from: Data(#"{"id":1,"name":"a","flags":[],"children":[{"key":"k"}]}"#.utf8))
        model.score = .infinity
        twin.score = .infinity
        let describe = Self.describe
        #expect(describe { try JSONBodyEncoder().encode(model) } == describe { try JSONBodyEncoder().encode(twin) })
        #expect(describe { try JSONBodyEncoder().encode(model) } == "invalidValue at [\"score\"]")
        var converting = JSONBodyEncoder()
        converting.nonConformingFloatEncodingStrategy = .convertToString(positiveInfinity: "inf", negativeInfinity: "-inf", nan: "nan")
        #expect(try converting.encode(model) == (try converting.encode(twin)))
    }

    @GeneratedJSONCoding
    struct Row: Codable { var x: Double }

    @GeneratedJSONCoding
    struct Grid: Codable {
        var values: [Double]
        var rows: [Row]
    }

    @Test("a non-finite double in an array is an error at its element, named as JSONEncoder names it (Index 1)")
    func indexKeysInErrorPaths() throws {
        var inValues = Grid(values: [1, 2], rows: [Row(x: 1), Row(x: 2)]), inRows = inValues
        inValues.values[1] = .nan
        inRows.rows[1].x = .infinity
        let expected = JSONBodyEncoderTests.invalidValuePath { try JSONEncoder().encode(inRows) }
        #expect(expected == ["rows -", "Index 1 1", "x -"])
        #expect(JSONBodyEncoderTests.invalidValuePath { try JSONBodyEncoder().encode(inRows) } == expected)
        // JSONEncoder's path for an array of doubles depends on its version (see JSONBodyEncoderTests).
        #expect(JSONBodyEncoderTests.invalidValuePath { try JSONBodyEncoder().encode(inValues) } == ["values -", "Index 1 1"])
    }

    @GeneratedJSONCoding
    struct Stamped: Encodable {
        var at: Date
        var blob: Data
        var link: URL
        var amount: Decimal
        var ratio: Double
        var ratios: [Float]
    }

    struct PlainStamped: Encodable {
        var at: Date
        var blob: Data
        var link: URL
        var amount: Decimal
        var ratio: Double
        var ratios: [Float]
    }

    @Test("dates, data, URLs, decimals and non-conforming floats write as the Encodable path writes them, under each strategy")
    func foundationValuesUnderStrategies() throws {
        let at = Date(timeIntervalSince1970: 1_700_000_000.5), blob = Data("hi".utf8)
        let link = try #require(URL(string: "https://example.com/a/b?c=d")), amount = try #require(Decimal(string: "12.345678901234567890"))
        let value = Stamped(at: at, blob: blob, link: link, amount: amount, ratio: .infinity, ratios: [1.5, -.infinity, .nan])
        let twin = PlainStamped(at: at, blob: blob, link: link, amount: amount, ratio: .infinity, ratios: [1.5, -.infinity, .nan])
        let dates: [JSONBodyEncoder.DateEncodingStrategy] = [
            .deferredToDate, .secondsSince1970, .millisecondsSince1970, .iso8601,
            .formatted(Date.ISO8601FormatStyle(includingFractionalSeconds: true)),
            .custom { date, encoder in
                var container = encoder.singleValueContainer()
                try container.encode("day \(Int(date.timeIntervalSince1970) / 86_400)")
            },
        ]
        let data: [JSONBodyEncoder.DataEncodingStrategy] = [
            .base64, .deferredToData,
            .custom { bytes, encoder in
                var container = encoder.unkeyedContainer()
                for byte in bytes.reversed() { try container.encode(byte) }
            },
        ]
        for date in dates {
            for bytes in data {
                var encoder = JSONBodyEncoder()
                encoder.dateEncodingStrategy = date
                encoder.dataEncodingStrategy = bytes
                encoder.nonConformingFloatEncodingStrategy = .convertToString(positiveInfinity: "inf", negativeInfinity: "-inf", nan: "nan")
                let ours = try encoder.encode(value)
                #expect(ours == (try encoder.encode(twin)), "\(String(decoding: ours, as: UTF8.self))")
            }
        }
        // Against JSONEncoder's values, seconds since 1970 and Base64.
        var encoder = JSONBodyEncoder()
        encoder.dateEncodingStrategy = .secondsSince1970
        encoder.nonConformingFloatEncodingStrategy = .convertToString(positiveInfinity: "inf", negativeInfinity: "-inf", nan: "nan")
        let foundation = JSONEncoder()
        foundation.dateEncodingStrategy = .secondsSince1970
        foundation.nonConformingFloatEncodingStrategy = .convertToString(positiveInfinity: "inf", negativeInfinity: "-inf", nan: "nan")
        #expect(try ParameterValue(json: try encoder.encode(value)) == (try ParameterValue(json: try foundation.encode(value))))
        // With no strategy for them, non-conforming floats are an error on both paths.
        #expect(throws: EncodingError.self) { try JSONBodyEncoder().encode(value) }
        #expect(throws: EncodingError.self) { try JSONBodyEncoder().encode(twin) }
    }

    /// A writer that marks its text, to show which code ran.
    struct Marked: Encodable, JSONTapeEncodable {
        var x: Int
        func encode(jsonTape writer: JSONTapeWriter) throws {
            var object = writer.object()
            try object.encode(x, forKey: "x")
            try object.encode(true, forKey: "byWriter")
        }
    }

    struct Wrapper: Encodable {
        var marked: Marked
        var list: [Marked]
        var byName: [String: Marked]
    }

    @Test("every entry point writes a model with a writer through it, also inside Encodable-only wrappers")
    func writersAreUsedEverywhere() throws {
        #expect(String(decoding: try JSONBodyEncoder().encode(Marked(x: 1)), as: UTF8.self) == #"{"x":1,"byWriter":true}"#)
        #expect(String(decoding: try JSONEncoder().encode(Marked(x: 1)), as: UTF8.self) == #"{"x":1}"#)
        let wrapped = try JSONBodyEncoder().encode(Wrapper(marked: Marked(x: 1), list: [Marked(x: 2)], byName: ["a": Marked(x: 3)]))
        #expect(String(decoding: wrapped, as: UTF8.self) == #"{"marked":{"x":1,"byWriter":true},"list":[{"x":2,"byWriter":true}],"byName":{"a":{"x":3,"byWriter":true}}}"#)
        var lines: [UInt8] = []
        try JSONBodyEncoder().encode([Marked(x: 4)], appendingTo: &lines)
        #expect(String(decoding: lines, as: UTF8.self) == #"[{"x":4,"byWriter":true}]"#)
    }

    /// An `Encodable` value that writes a key twice, which only the tree can do: the
    /// generated object around it goes on in the tree.
    struct Twice: Encodable, Equatable {
        enum CodingKeys: String, CodingKey { case a }
        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(1, forKey: .a)
            try container.encode(2, forKey: .a)
        }
    }

    @GeneratedJSONCoding
    struct AroundTwice: Encodable {
        var before: Int
        var twice: Twice
        var after: [Child]
        var last: String
    }

    struct PlainAroundTwice: Encodable {
        var before: Int
        var twice: Twice
        var after: [PlainChild]
        var last: String
    }

    @Test("a value below that writes out of order hands the rest of a generated object to the tree, as for Encodable")
    func treeTakesOver() throws {
        let value = AroundTwice(before: 1, twice: Twice(), after: [Child(key: "k", value: 2, nested: nil)], last: "z")
        let twin = PlainAroundTwice(before: 1, twice: Twice(), after: [PlainChild(key: "k", value: 2, nested: nil)], last: "z")
        for encoder in Self.encoders() {
            try Self.expectSameText(try encoder.encode(value), try encoder.encode(twin), encoder, "tree takes over")
        }
        let text = try JSONBodyEncoder().encode(value)
        #expect(try ParameterValue(json: text) == (try ParameterValue(json: try JSONEncoder().encode(value))))
    }

    /// A hand-written writer that swallows a value's error, as `try?` on a keyed container may.
    struct Swallowing: Encodable, JSONTapeEncodable {
        enum CodingKeys: String, CodingKey { case x, y }
        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try? container.encode(Double.nan, forKey: .x)
            try container.encode(1.0, forKey: .y)
        }
        func encode(jsonTape writer: JSONTapeWriter) throws {
            var object = writer.object()
            try? object.encode(Double.nan, forKey: "x")
            try object.encode(1.0, forKey: "y")
        }
    }

    struct AroundSwallowing: Encodable {
        var p: Swallowing
        var q: Int
    }

    @Test("a key whose value failed and was swallowed is left out, at the top and inside a wrapper")
    func swallowedErrorsLeaveTheKeyOut() throws {
        #expect(String(decoding: try JSONBodyEncoder().encode(Swallowing()), as: UTF8.self) == #"{"y":1}"#)
        #expect(String(decoding: try JSONBodyEncoder().encode(AroundSwallowing(p: Swallowing(), q: 2)), as: UTF8.self) == #"{"p":{"y":1},"q":2}"#)
    }

    @GeneratedJSONCoding
    struct Colliding: Codable {
        var userID: Int
        var user_id: Int
    }

    struct PlainColliding: Codable {
        var userID: Int
        var user_id: Int
    }

    /// Keys of one letter, which a literal may hold inline rather than at an address.
    @GeneratedJSONCoding
    struct Letters: Codable {
        var A: Int
        var a: Int
    }

    @Test("coding keys a key strategy makes one (userID and user_id; A and a, record after record) are written as the Encodable path writes them")
    func keyStrategyCollisions() throws {
        var snake = JSONBodyEncoder()
        snake.keyEncodingStrategy = .convertToSnakeCase
        #expect(try snake.encode(Colliding(userID: 1, user_id: 2)) == (try snake.encode(PlainColliding(userID: 1, user_id: 2))))
        #expect(try ParameterValue(json: try snake.encode(Colliding(userID: 1, user_id: 2))) == ["user_id": 2])
        let letters = try snake.encode([Letters(A: 1, a: 2), Letters(A: 3, a: 4)])
        #expect(String(decoding: letters, as: UTF8.self) == #"[{"a":2},{"a":4}]"#)
    }

    @GeneratedJSONCoding
    struct Account: Codable {
        var userID: Int
        var displayName: String
    }

    @GeneratedJSONCoding
    struct AccountsThenCollision: Codable {
        var accounts: [Account]
        var last: Colliding
    }

    struct PlainAccount: Codable {
        var userID: Int
        var displayName: String
    }

    struct PlainAccountsThenCollision: Codable {
        var accounts: [PlainAccount]
        var last: PlainColliding
    }

    @Test("snake-case keys converted once an encode still merge as JSONEncoder merges them when a later model's keys convert to one")
    func snakeCaseKeysConvertedOnceStillMergeCollisions() throws {
        var snake = JSONBodyEncoder()
        snake.keyEncodingStrategy = .convertToSnakeCase
        let accounts = (1...3).map { Account(userID: $0, displayName: "n\($0)") }
        let generated = try snake.encode(AccountsThenCollision(accounts: accounts, last: Colliding(userID: 7, user_id: 8)))
        let plain = try snake.encode(PlainAccountsThenCollision(accounts: accounts.map { PlainAccount(userID: $0.userID, displayName: $0.displayName) },
                                                                last: PlainColliding(userID: 7, user_id: 8)))
        #expect(generated == plain)
        #expect(String(decoding: generated, as: UTF8.self)
            == #"{"accounts":[{"user_id":1,"display_name":"n1"},{"user_id":2,"display_name":"n2"},{"user_id":3,"display_name":"n3"}],"last":{"user_id":8}}"#)
        // The same encoder again: what a writer converted before is converted afresh, and the collision found again.
        #expect(try snake.encode(AccountsThenCollision(accounts: accounts, last: Colliding(userID: 7, user_id: 8))) == plain)
    }

    @GeneratedJSONCoding
    struct Series: Codable, Equatable {
        var ints: [Int]
        var doubles: [Double]
        var bools: [Bool]
        var names: [String]
    }

    struct PlainSeries: Codable, Equatable {
        var ints: [Int]
        var doubles: [Double]
        var bools: [Bool]
        var names: [String]
    }

    @Test("arrays of integers, doubles, Booleans and strings write the Encodable path's bytes; a non-finite element is its error at its path")
    func scalarArrays() throws {
        var model = Series(ints: [1, -2, .max, .min], doubles: [0.1, 1e300, -0.0, .leastNonzeroMagnitude], bools: [true, false], names: ["a", "\u{E9}\"/\n", ""])
        var twin = PlainSeries(ints: model.ints, doubles: model.doubles, bools: model.bools, names: model.names)
        for encoder in Self.encoders() {
            #expect(try encoder.encode(model) == (try encoder.encode(twin)))
        }
        #expect(try JSONDecoder().decode(Series.self, from: try JSONBodyEncoder().encode(model)) == model)
        #expect(try ParameterValue(json: try JSONBodyEncoder().encode(model)) == (try ParameterValue(json: try JSONEncoder().encode(model))))
        model.doubles = [1, 2, .nan]
        twin.doubles = model.doubles
        let describe = Self.describe
        #expect(describe { try JSONBodyEncoder().encode(model) } == describe { try JSONBodyEncoder().encode(twin) })
        #expect(describe { try JSONBodyEncoder().encode(model) } == "invalidValue at [\"doubles\", \"Index 2\"]")
        var converting = JSONBodyEncoder()
        converting.nonConformingFloatEncodingStrategy = .convertToString(positiveInfinity: "inf", negativeInfinity: "-inf", nan: "nan")
        #expect(try converting.encode(model) == (try converting.encode(twin)))
    }

    /// Keys of every width the writer treats apart (one word, two overlapping words, longer)
    /// and keys with characters to escape, at each end of a word.
    @GeneratedJSONCoding
    struct OddKeys: Codable, Equatable {
        var a = 1, b = 2, c = 3, d = 4, e = 5, f = 6, g = 7, h = 8, i = 9, j = 10, k = 11, l = 12
        enum CodingKeys: String, CodingKey {
            case a = "k", b = "seven77", c = "eightchr", d = "ninechars", e = "sixteen-bytes-ok", f = "seventeen-bytes-x"
            case g = "fifteen/chars/x", h = "ends-with-quote\"", i = "tab\there", j = "cl\u{E9}-unicode", k = "back\\slash", l = "\u{1}"
        }
    }

    struct PlainOddKeys: Codable, Equatable {
        var a = 1, b = 2, c = 3, d = 4, e = 5, f = 6, g = 7, h = 8, i = 9, j = 10, k = 11, l = 12
        enum CodingKeys: String, CodingKey {
            case a = "k", b = "seven77", c = "eightchr", d = "ninechars", e = "sixteen-bytes-ok", f = "seventeen-bytes-x"
            case g = "fifteen/chars/x", h = "ends-with-quote\"", i = "tab\there", j = "cl\u{E9}-unicode", k = "back\\slash", l = "\u{1}"
        }
    }

    @Test("keys of one to seventeen bytes and keys with characters to escape are written as the Encodable path writes them")
    func oddKeysWriteTheSameBytes() throws {
        var compact = JSONBodyEncoder()
        compact.outputFormatting = .withoutEscapingSlashes
        for encoder in Self.encoders() + [compact] {
            let ours = try encoder.encode([OddKeys(), OddKeys()]), theirs = try encoder.encode([PlainOddKeys(), PlainOddKeys()])
            #expect(ours == theirs, "\(String(decoding: ours, as: UTF8.self)) != \(String(decoding: theirs, as: UTF8.self))")
        }
        #expect(try JSONDecoder().decode([OddKeys].self, from: try JSONBodyEncoder().encode([OddKeys()])) == [OddKeys()])
        // Both sides above write keys the same way, so the text is also checked on its own.
        #expect(String(decoding: try JSONBodyEncoder().encode(OddKeys()), as: UTF8.self) == #"{"k":1,"seven77":2,"eightchr":3,"ninechars":4,"#
            + #""sixteen-bytes-ok":5,"seventeen-bytes-x":6,"fifteen\/chars\/x":7,"ends-with-quote\"":8,"tab\there":9,"#
            + "\"cl\u{E9}-unicode\":10," + #""back\\slash":11,"\u0001":12}"#)
        #expect(try ParameterValue(json: try compact.encode(OddKeys())) == (try ParameterValue(json: try JSONEncoder().encode(OddKeys()))))
    }

    @GeneratedJSONCoding
    struct Keyed: Codable, Equatable {
        var `default`: String
        var note: String?
        let version = 3
        var count = 0
    }

    struct PlainKeyed: Codable, Equatable {
        var `default`: String
        var note: String?
        let version = 3
        var count = 0
    }

    @Test("the CodingKeys the macro declares are the ones Codable synthesizes: JSONEncoder and JSONDecoder code a model as its plain twin")
    func declaredCodingKeysAreSynthesizedOnes() throws {
        for (value, twin) in [(Keyed(default: "d", note: nil, count: 2), PlainKeyed(default: "d", note: nil, count: 2)),
                              (Keyed(default: "", note: "n", count: -1), PlainKeyed(default: "", note: "n", count: -1))] {
            // Sorted: JSONEncoder's own order follows a dictionary's, which differs per instance.
            for formatting: JSONEncoder.OutputFormatting in [[.sortedKeys], [.sortedKeys, .prettyPrinted]] {
                let encoder = JSONEncoder()
                encoder.outputFormatting = formatting
                #expect(try encoder.encode(value) == (try encoder.encode(twin)))
            }
        }
        let documents = [#"{"default":"x","note":"n","version":9,"count":4}"#, #"{"count":1,"default":"y"}"#, #"{"default":"z"}"#]
        for document in documents.map({ Data($0.utf8) }) {
            let twin = Result { try JSONDecoder().decode(PlainKeyed.self, from: document) }
            for decoded in [Result { try JSONDecoder().decode(Keyed.self, from: document) }, Result { try JSONBodyDecoder().decode(Keyed.self, from: document) }] {
                switch (decoded, twin) {
                case (.success(let value), .success(let expected)):
                    #expect(value.default == expected.default && value.note == expected.note && value.count == expected.count)
                case (.failure(DecodingError.keyNotFound(let key, _)), .failure(DecodingError.keyNotFound(let expected, _))):
                    #expect(key.stringValue == expected.stringValue)
                default:
                    Issue.record("\(decoded) against \(twin)")
                }
            }
        }
    }
}
#endif
