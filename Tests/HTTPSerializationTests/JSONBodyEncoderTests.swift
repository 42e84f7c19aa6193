import Foundation
import SeededGenerators
import Testing
@testable import HTTPSerialization
@testable import HTTPSerializationCodable
@testable import HTTPSerializationCore
@testable import HTTPSerializationFoundation
@testable import HTTPSerializationImages
@testable import HTTPSerializationXML

@Suite("JSON encoder: JSONEncoder's options through the package's writer")
struct JSONBodyEncoderTests {
    struct Item: Encodable {
        var itemID: Int
        var displayName: String
        var myURLValue: URL?
        var price: Double
        var weight: Float
        var createdAt: Date
        var payload: Data
        var tags: [String]
        var counts: [String: Int]
        var child: [Item]
        var optionalNote: String?
    }

    static func item(_ random: inout SplitMix64, depth: Int) -> Item {
        Item(
            itemID: random.range(-1_000_000, 1_000_000),
            displayName: ["a/b", "x\"y", "é中😀", "line\nbreak", ""][random.range(0, 4)],
            myURLValue: random.range(0, 1) == 0 ? URL(string: "https://example.com/p?q=\(random.range(0, 9))") : nil,
            price: [0.1, -0.0, 1e16, 1e-7, Double(random.range(-1_000, 1_000)) / 8, 12.5][random.range(0, 5)],
            weight: [0.1, 3.25, 1e10, -7][random.range(0, 3)],
            createdAt: Date(timeIntervalSince1970: Double(random.range(0, 2_000_000_000)) + [0, 0.5, 0.001][random.range(0, 2)]),
            payload: Data((0..<random.range(0, 9)).map { _ in UInt8(random.range(0, 255)) }),
            tags: (0..<random.range(0, 3)).map { "t\($0)" },
            counts: Dictionary(uniqueKeysWithValues: (0..<random.range(0, 3)).map { ("someKey\($0)", $0) }),
            child: depth > 0 && random.range(0, 2) == 0 ? [item(&random, depth: depth - 1)] : [],
            optionalNote: random.range(0, 1) == 0 ? "note" : nil)
    }

    /// Both encoders configured alike for one of several option sets.
    static func pair(_ variant: Int) -> (JSONBodyEncoder, JSONEncoder) {
        var ours = JSONBodyEncoder()
        let theirs = JSONEncoder()
        // Sorted output goes through the tree; unsorted output is streamed.
        if variant % 8 < 4 {
            ours.outputFormatting = .sortedKeys
            theirs.outputFormatting = .sortedKeys
        }
        switch variant % 4 {
        case 0: break
        case 1:
            ours.keyEncodingStrategy = .convertToSnakeCase
            theirs.keyEncodingStrategy = .convertToSnakeCase
            ours.dateEncodingStrategy = .iso8601
            theirs.dateEncodingStrategy = .iso8601
        case 2:
            ours.dateEncodingStrategy = .secondsSince1970
            theirs.dateEncodingStrategy = .secondsSince1970
            ours.dataEncodingStrategy = .deferredToData
            theirs.dataEncodingStrategy = .deferredToData
        default:
            ours.dateEncodingStrategy = .millisecondsSince1970
            theirs.dateEncodingStrategy = .millisecondsSince1970
            ours.outputFormatting.formUnion([.prettyPrinted, .withoutEscapingSlashes])
            theirs.outputFormatting.formUnion([.prettyPrinted, .withoutEscapingSlashes])
        }
        return (ours, theirs)
    }

    @Test("2,000 seeded models encode to the same JSON as JSONEncoder gives, under each option set")
    func matchesJSONEncoder() throws {
        var random = SplitMix64(seed: 2_024)
        for round in 0..<2_000 {
            let model = Self.item(&random, depth: 2)
            let (ours, theirs) = Self.pair(round)
            let mine = try ParameterValue(json: ours.encode(model))
            let expected = try ParameterValue(json: theirs.encode(model))
            let difference = JSONNumbers.difference(mine, expected)
            #expect(difference == nil, "round \(round): \(difference ?? "")")
            if difference != nil { return }
        }
    }

    // Models that write out of order: JSONEncoderOnePassTests.
    @Test("snake-case keys with a dictionary inside encode as with JSONEncoder")
    func snakeCaseHolder() throws {
        struct Holder: Encodable { var someMap: [String: Int]; var otherValue: Int }
        var ours = JSONBodyEncoder()
        ours.keyEncodingStrategy = .convertToSnakeCase
        let theirs = JSONEncoder()
        theirs.keyEncodingStrategy = .convertToSnakeCase
        let holder = Holder(someMap: ["innerKey": 1], otherValue: 2)
        #expect(try ParameterValue(json: ours.encode(holder)) == ParameterValue(json: theirs.encode(holder)))
    }

    /// Counts the runs of its `encode(to:)`.
    final class Runs: @unchecked Sendable {
        // Used by one test on one task at a time.
        var count = 0
    }

    struct Counted: Encodable {
        let runs: Runs
        var someMap: [String: [String: Int]]
        var extraValues: [String: Double]
        var nestedValues: [[String: Int]]
        enum CodingKeys: String, CodingKey { case someMap, extraValues, nestedValues }

        func encode(to encoder: any Encoder) throws {
            runs.count += 1
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(someMap, forKey: .someMap)
            try container.encode(extraValues, forKey: .extraValues)
            try container.encode(nestedValues, forKey: .nestedValues)
        }
    }

    @Test("dictionaries under a key strategy stream: the model's encode(to:) runs once, output as JSONEncoder's", arguments: [false, true])
    func streamedWithoutRestart(pretty: Bool) throws {
        let runs = Runs()
        let model = Counted(runs: runs, someMap: ["innerKey": ["deepKey": 1], "b": [:]], extraValues: ["mixedKey": 1.5, "n": 2.5],
                            nestedValues: [["keyOne": 1], [:]])
        var ours = JSONBodyEncoder()
        ours.keyEncodingStrategy = .convertToSnakeCase
        if pretty { ours.outputFormatting = .prettyPrinted }
        let data = try ours.encode(model)
        #expect(runs.count == 1)
        let theirs = JSONEncoder()
        theirs.keyEncodingStrategy = .convertToSnakeCase
        #expect(try ParameterValue(json: data) == ParameterValue(json: theirs.encode(model)))
        if pretty {
            // Indentation continues through the streamed dictionary.
            let text = String(decoding: data, as: UTF8.self)
            #expect(text.contains("\n  \"extra_values\" : {\n    \""))
        }
    }

    struct Line: Encodable { var unitPrice: Int; var itemName: String }

    /// Writes 40 keys, then the fifth again.
    struct RepeatsLate: Encodable {
        struct Key: CodingKey {
            var stringValue: String
            var intValue: Int? { nil }
            init(stringValue: String) { self.stringValue = stringValue }
            init?(intValue: Int) { nil }
        }

        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: Key.self)
            for index in 0..<40 { try container.encode(index, forKey: Key(stringValue: "k\(index)")) }
            try container.encode(-5, forKey: Key(stringValue: "k5"))
        }
    }

    @Test("a dictionary of models keeps its own keys and converts the models' keys; a large one is checked for repeats in constant time per key")
    func dictionariesOfModelsAndLargeDictionaries() throws {
        let lines = ["firstLine": Line(unitPrice: 3, itemName: "a"), "secondLine": Line(unitPrice: 4, itemName: "b")]
        var ours = JSONBodyEncoder()
        ours.keyEncodingStrategy = .convertToSnakeCase
        let theirs = JSONEncoder()
        theirs.keyEncodingStrategy = .convertToSnakeCase
        #expect(try ParameterValue(json: ours.encode(lines)) == ParameterValue(json: theirs.encode(lines)))
        #expect(try ParameterValue(json: ours.encode(lines)) == ["firstLine": ["unit_price": 3, "item_name": "a"], "secondLine": ["unit_price": 4, "item_name": "b"]])
        // 20,000 keys, default and converted: past the first few, repeats are looked up in a set.
        let large = Dictionary(uniqueKeysWithValues: (0..<20_000).map { ("key\($0)", $0) })
        for encoder in [JSONBodyEncoder(), ours] {
            #expect(try ParameterValue(json: encoder.encode(large)) == ParameterValue(json: JSONEncoder().encode(large)))
        }
        // A key repeated after the scan gives way to the set is still caught: the later value wins.
        let late = try ParameterValue(json: JSONBodyEncoder().encode(RepeatsLate()))
        #expect(try late == ParameterValue(json: JSONEncoder().encode(RepeatsLate())))
        if case .dictionary(let entries) = late {
            #expect(entries.count == 40)
            #expect(entries.entries["k5"] == .int(-5))
        }
    }

    struct Grid: Encodable {
        struct Row: Encodable { var x: Double }
        var values: [Double]
        var nested: [[Double]]
        var rows: [Row]
    }

    /// Each key of an error's coding path, with its `intValue`.
    static func invalidValuePath(_ body: () throws -> Data) -> [String] {
        do {
            _ = try body()
            return ["no error"]
        } catch let EncodingError.invalidValue(_, context) {
            return context.codingPath.map { "\($0.stringValue) \($0.intValue.map(String.init) ?? "-")" }
        } catch {
            return ["\(error)"]
        }
    }

    @Test("an array position on a coding path is named as JSONEncoder names it (Index 2, intValue 2), streamed and through the tree")
    func indexKeysMatchJSONEncoder() throws {
        let fine = Grid(values: [1, 2], nested: [[1], [2, 3]], rows: [Grid.Row(x: 1), Grid.Row(x: 2)])
        var inValues = fine, inNested = fine, inRows = fine
        inValues.values[1] = .nan
        inNested.nested[1][1] = .infinity
        inRows.rows[1].x = -.infinity
        final class Seen: @unchecked Sendable {
            // Only the one encode running on this thread inserts (the strategy runs inside it),
            // and the set is read after that encode returns.
            var paths: Set<String> = []
            func insert(_ path: [any CodingKey]) {
                paths.insert(path.map { "\($0.stringValue) \($0.intValue.map(String.init) ?? "-")" }.joined(separator: "/"))
            }
        }
        // `.sortedKeys` goes through the tree, which names positions too.
        for sorted in [false, true] {
            var ours = JSONBodyEncoder()
            let theirs = JSONEncoder()
            if sorted {
                ours.outputFormatting = .sortedKeys
                theirs.outputFormatting = .sortedKeys
            }
            // An array of models: JSONEncoder's unkeyed container names the element.
            let expected = Self.invalidValuePath { try theirs.encode(inRows) }
            #expect(expected == ["rows -", "Index 1 1", "x -"])
            #expect(Self.invalidValuePath { try ours.encode(inRows) } == expected, "sorted: \(sorted)")
            // An array of doubles: JSONEncoder's own path depends on its version (Swift 6.3's
            // names the element; 6.1, 6.2 and 6.4 write such arrays directly and name only the
            // array), so ours is checked as it is: the element, named the same way.
            #expect(Self.invalidValuePath { try ours.encode(inValues) } == ["values -", "Index 1 1"], "sorted: \(sorted)")
            #expect(Self.invalidValuePath { try ours.encode(inNested) } == ["nested -", "Index 1 1", "Index 1 1"], "sorted: \(sorted)")

            // A custom key strategy is handed the same paths.
            let theirPaths = Seen(), ourPaths = Seen()
            theirs.keyEncodingStrategy = .custom { path in
                theirPaths.insert(path)
                return path.last!
            }
            ours.keyEncodingStrategy = .custom { path in
                ourPaths.insert(path)
                return path.last!
            }
            let written = try ours.encode([fine])
            #expect(try ParameterValue(json: written) == ParameterValue(json: try theirs.encode([fine])), "\(String(decoding: written, as: UTF8.self))")
            #expect(theirPaths.paths.contains("Index 0 0/rows -/Index 1 1/x -"))
            #expect(ourPaths.paths == theirPaths.paths, "sorted: \(sorted)")
        }
    }

    @Test("snake-case keys convert as JSONEncoder converts them; dictionary keys stay")
    func snakeCase() throws {
        let keys = ["orderID", "myURLValue", "URL", "a", "already_snake", "twoWords", "HTTPRequest", "x1Y2", "éÉé", "simple", "ABCdef"]
        for key in keys {
            #expect(JSONKeyConversion.snakeCase(fromCamelCase: key) == Self.foundationSnakeCase(key), "\(key)")
        }
    }

    /// `JSONEncoder`'s spelling of one key, read from its output.
    static func foundationSnakeCase(_ key: String) -> String {
        struct One: Encodable {
            let key: String
            func encode(to encoder: any Encoder) throws {
                var container = encoder.container(keyedBy: JSONCodingKey.self)
                try container.encode(1, forKey: JSONCodingKey(stringValue: key))
            }
        }
        let encoder = JSONEncoder()
        encoder.keyEncodingStrategy = .convertToSnakeCase
        let object = try! JSONSerialization.jsonObject(with: encoder.encode(One(key: key))) as! [String: Any]
        return object.keys.first!
    }

    @Test("non-conforming floats throw at their path, or become the strings named for them")
    func nonConformingFloats() throws {
        struct Reading: Encodable { var values: [Double] }
        do {
            _ = try JSONBodyEncoder().encode(Reading(values: [1, .nan]))
            Issue.record("NaN was written")
        } catch EncodingError.invalidValue(_, let context) {
            #expect(context.codingPath.map(\.stringValue) == ["values", "Index 1"])
        }
        var encoder = JSONBodyEncoder()
        encoder.nonConformingFloatEncodingStrategy = .convertToString(positiveInfinity: "+inf", negativeInfinity: "-inf", nan: "nan")
        #expect(try encoder.encode(Reading(values: [.infinity, -.infinity, .nan])) == Data(#"{"values":["+inf","-inf","nan"]}"#.utf8))
    }

    @Test("custom date and data strategies write through the encoder; writing nothing is an empty object")
    func customStrategies() throws {
        struct Stamp: Encodable { var at: Date; var blob: Data }
        var encoder = JSONBodyEncoder()
        encoder.outputFormatting = .sortedKeys
        encoder.dateEncodingStrategy = .custom { date, encoder in
            var container = encoder.singleValueContainer()
            try container.encode("day \(Int(date.timeIntervalSince1970) / 86_400)")
        }
        encoder.dataEncodingStrategy = .custom { _, _ in }
        let body = try encoder.encode(Stamp(at: Date(timeIntervalSince1970: 86_400 * 3), blob: Data([1])))
        #expect(body == Data(#"{"at":"day 3","blob":{}}"#.utf8))
    }

    @Test("a model with a Date goes out as a JSON request body")
    func requestBodyWithDate() throws {
        struct Order: Encodable { var id: Int; var placed: Date }
        var encoder = JSONBodyEncoder()
        encoder.dateEncodingStrategy = .iso8601
        encoder.outputFormatting = .sortedKeys
        #expect(try encoder.encode(Order(id: 1, placed: Date(timeIntervalSince1970: 0))) == Data(#"{"id":1,"placed":"1970-01-01T00:00:00Z"}"#.utf8))
    }

    @Test("sorted keys come out in JSONEncoder's order, byte by byte in UTF-8; a tree's jsonData keeps JSONSerialization's order")
    func sortedKeysInEachWritersOrder() throws {
        let keys = ["b", "B", "a10", "a9", "A", "_x", "\u{E9}", "e", "Z", "a", "ab", "aB", "10", "9", "a-b", "a_b", " s", "~"]
        let dictionary = Dictionary(uniqueKeysWithValues: keys.enumerated().map { ($1, $0) })
        struct Nested: Encodable { var inner: [String: Int]; var Zed = 1; var alpha = 2 }
        var ours = JSONBodyEncoder()
        let theirs = JSONEncoder()
        for formatting in [JSONWritingOptions.sortedKeys, [.sortedKeys, .prettyPrinted]] {
            ours.outputFormatting = formatting
            theirs.outputFormatting = formatting.contains(.prettyPrinted) ? [.sortedKeys, .prettyPrinted] : .sortedKeys
            #expect(try ours.encode(dictionary) == (try theirs.encode(dictionary)))
            #expect(try ours.encode(Nested(inner: dictionary)) == (try theirs.encode(Nested(inner: dictionary))))
        }
        // The byte order, spelled out.
        ours.outputFormatting = .sortedKeys
        #expect(String(decoding: try ours.encode(["a10": 1, "a9": 2, "B": 3, "a": 4]), as: UTF8.self) == #"{"B":3,"a":4,"a10":1,"a9":2}"#)
        // JSONSerialization's order stays the tree writer's, and JSONSerialization's own.
        let tree: ParameterValue = ["a10": 1, "a9": 2, "B": 3, "a": 4]
        #expect(String(decoding: try tree.jsonData(options: .sortedKeys), as: UTF8.self) == #"{"a":4,"a9":2,"a10":1,"B":3}"#)
        let serialized = try JSONSerialization.data(withJSONObject: ["a10": 1, "a9": 2, "B": 3, "a": 4], options: .sortedKeys)
        #expect(try tree.jsonData(options: .sortedKeys) == serialized)
    }
}
