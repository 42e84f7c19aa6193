import Foundation
import SeededGenerators
import Testing
@testable import HTTPSerialization
@testable import HTTPSerializationCodable
@testable import HTTPSerializationCore
@testable import HTTPSerializationFoundation
@testable import HTTPSerializationImages
@testable import HTTPSerializationXML

@Suite("JSON writer: JSONSerialization's bytes without Foundation objects")
struct JSONWriterTests {
    /// `JSONSerialization`'s bytes for the same tree, through the Foundation conversion the
    /// request serializer used before.
    static func foundationBytes(_ value: ParameterValue, _ options: JSONSerialization.WritingOptions) throws -> Data {
        let object = try FoundationObjectConversion.object(from: value, for: .json, maximumDepth: 512)
        return try JSONSerialization.data(withJSONObject: object, options: options.union(.fragmentsAllowed))
    }

    @Test("3,000 seeded trees are written byte for byte as JSONSerialization writes them, in every layout")
    func matchesJSONSerialization() throws {
        var random = SplitMix64(seed: 8_259_4)
        let layouts: [(JSONWritingOptions, JSONSerialization.WritingOptions)] = [
            (.sortedKeys, .sortedKeys),
            ([.sortedKeys, .prettyPrinted], [.sortedKeys, .prettyPrinted]),
            ([.sortedKeys, .withoutEscapingSlashes], [.sortedKeys, .withoutEscapingSlashes]),
            ([.sortedKeys, .prettyPrinted, .withoutEscapingSlashes], [.sortedKeys, .prettyPrinted, .withoutEscapingSlashes]),
        ]
        for round in 0..<3_000 {
            var generator = ParameterTreeGenerator(random: random)
            let value = generator.container(depth: 4)
            random = generator.random
            let (ours, theirs) = layouts[round % layouts.count]
            let written = try value.jsonData(options: ours)
            let expected = try Self.foundationBytes(value, theirs)
            #expect(written == expected, "round \(round): \(String(decoding: written, as: UTF8.self)) vs \(String(decoding: expected, as: UTF8.self))")
            if written != expected { return }
        }
    }

    @Test("writer, reader, writer: the same value, and from the second pass on the same bytes")
    func writeReadWrite() throws {
        var random = SplitMix64(seed: 4_627)
        let layouts: [JSONWritingOptions] = [.sortedKeys, [.sortedKeys, .prettyPrinted], [.sortedKeys, .withoutEscapingSlashes]]
        for round in 0..<1_000 {
            var generator = ParameterTreeGenerator(random: random)
            let value = generator.container(depth: 5)
            random = generator.random
            let options = layouts[round % layouts.count]
            // A decimal such as 1e-10 is written as 0.0000000001 and read back as a double,
            // which is written 1e-10: values stay equal, bytes settle after one pass.
            let first = try value.jsonData(options: options)
            let second = try ParameterValue(json: first).jsonData(options: options)
            let third = try ParameterValue(json: second).jsonData(options: options)
            #expect(JSONNumbers.difference(try ParameterValue(json: first), try ParameterValue(json: second)) == nil)
            #expect(second == third, "round \(round): \(String(decoding: second, as: UTF8.self))")
            if second != third { return }
        }
    }

    @Test("unsorted output reads back as the same tree")
    func unsortedRoundTrip() throws {
        var random = SplitMix64(seed: 17)
        for _ in 0..<500 {
            var generator = ParameterTreeGenerator(random: random)
            let value = generator.container(depth: 4)
            random = generator.random
            let read = try ParameterValue(json: value.jsonData())
            #expect(JSONNumbers.difference(read, value) == nil)
        }
    }

    @Test("values JSON cannot hold are errors naming where they are")
    func refusals() throws {
        let cases: [(ParameterValue, String)] = [
            (["a": [1, .double(.nan)]], "The value at `a[1]` is invalid: nan is not a JSON number."),
            (["b": .double(-.infinity)], "The value at `b` is invalid: -inf is not a JSON number."),
            ([.date(Date(timeIntervalSince1970: 0))], "The value at `[0]` is invalid: a date has no JSON form; encode it as a string or number first."),
            (["d": ["e": .data(Data())]], "The value at `d.e` is invalid: binary data has no JSON form; encode it as a string first."),
            (.string("bare"), "A top-level scalar needs the .fragmentsAllowed writing option."),
        ]
        for (value, message) in cases {
            do {
                _ = try value.jsonData()
                Issue.record("\(value) was written")
            } catch let error as RequestSerializationError {
                guard case .invalidJSONParameters(let reason, _) = error else { Issue.record("\(error)"); continue }
                #expect(reason == message)
                #expect(error.nsError.domain == "com.alamofire.error.serialization.request")
            } catch {
                Issue.record("\(error)")
            }
        }
        #expect(try ParameterValue.string("a/b").jsonData(options: .fragmentsAllowed) == Data(#""a\/b""#.utf8))
    }

    @Test("a refusal deep in objects of many keys names its keys, sorted or not", arguments: [JSONWritingOptions(), .sortedKeys])
    func refusalPathsInWideObjects(options: JSONWritingOptions) {
        var inner: [String: ParameterValue] = [:]
        for index in 0..<40 { inner["k\(index)"] = .int(index) }
        inner["k27"] = ["x": 1, "y": [1, 2, .double(.nan)], "z": 3]
        var outer: [String: ParameterValue] = [:]
        for index in 0..<12 { outer["o\(index)"] = .string("\(index)") }
        outer["o7"] = .dictionary(inner)
        do {
            _ = try ParameterValue.dictionary(outer).jsonData(options: options)
            Issue.record("NaN was written")
        } catch let error as RequestSerializationError {
            guard case .invalidJSONParameters(let reason, _) = error else {
                Issue.record("\(error)")
                return
            }
            #expect(reason == "The value at `o7.k27.y[2]` is invalid: nan is not a JSON number.")
        } catch {
            Issue.record("\(error)")
        }
    }

    @Test("sorted keys follow JSONSerialization's numeric, case-insensitive order")
    func keyOrder() throws {
        let keys = ["a10", "a2", "B", "a", "A", "b1", "_", "01", "1", "a02", "z9", "Z10", "ab", "aB", "Ab", "AB", "a 1", "a_1", "a-1",
                    "a1", "a01", "a001", "A1", "", "\u{1}", "a\u{1}b", "x_", "x0", "xa", "x-a", "$", "~", "key.path", "key/path"]
        let value = ParameterValue.dictionary(Dictionary(uniqueKeysWithValues: keys.map { ($0, ParameterValue.int(1)) }))
        #expect(try value.jsonData(options: .sortedKeys) == Self.foundationBytes(value, .sortedKeys))
    }
}

/// Random parameter trees of what JSON can hold, rich in what writers get wrong: control
/// characters, quotes, slashes, non-ASCII text, integer limits, doubles of every magnitude.
struct ParameterTreeGenerator {
    var random: SplitMix64

    mutating func container(depth: Int) -> ParameterValue {
        if random.range(0, 1) == 0 {
            return .array((0..<random.range(0, 4)).map { _ in value(depth: depth - 1) })
        }
        var entries: [String: ParameterValue] = [:]
        for _ in 0..<random.range(0, 5) { entries[key()] = value(depth: depth - 1) }
        return .dictionary(entries)
    }

    mutating func value(depth: Int) -> ParameterValue {
        switch random.range(0, depth > 0 ? 9 : 7) {
        case 0: return .string(string())
        case 1: return .int([0, -1, Int.max, Int.min, random.range(-100_000, 100_000)][random.range(0, 4)])
        case 2: return .double(double())
        case 3: return .bool(random.range(0, 1) == 0)
        case 4: return .null
        case 5: return .decimal(Decimal(string: ["12.5", "-0.001", "123456789012345678901234567890", "1e-10", "0"][random.range(0, 4)])!)
        case 6: return .string(string())
        default: return container(depth: depth)
        }
    }

    /// ASCII keys (`JSONSerialization` orders other characters by locale collation tables).
    mutating func key() -> String {
        let pieces = ["a", "B", "b", "10", "2", "0", "_", "x", "Z", ".", "/", "-", " ", "$", "A"]
        return (0..<random.range(0, 4)).map { _ in pieces[random.range(0, pieces.count - 1)] }.joined()
    }

    mutating func string() -> String {
        let pieces = ["a", "/", "\"", "\\", "\n", "\t", "\u{0}", "\u{1F}", "\u{7F}", "é", "中", "😀", "\u{2028}", " ", "\r", "\u{8}", "\u{C}"]
        return (0..<random.range(0, 8)).map { _ in pieces[random.range(0, pieces.count - 1)] }.joined()
    }

    mutating func double() -> Double {
        switch random.range(0, 7) {
        case 0: return 0.1
        case 1: return -0.0
        case 2: return 1e16
        case 3: return 1e-7
        case 4: return Double(random.range(-1_000, 1_000))
        case 5: return Double(bitPattern: random.next() & 0x7FEF_FFFF_FFFF_FFFF)
        default: return Double(random.range(-1_000_000, 1_000_000)) / 1_000
        }
    }
}
