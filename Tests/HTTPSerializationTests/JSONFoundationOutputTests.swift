import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import SeededGenerators
import Testing
@testable import HTTPSerialization
@testable import HTTPSerializationCodable
@testable import HTTPSerializationCore
@testable import HTTPSerializationFoundation
@testable import HTTPSerializationImages
@testable import HTTPSerializationXML

@Suite("JSON reader: the Any graph answers casts as JSONSerialization's does")
struct JSONFoundationOutputTests {
    static func ours(_ text: String, removingNulls: Bool = false) throws -> Any {
        try JSONTape.withParsed(Data(text.utf8), maximumDepth: 512) { $0.foundationObject(removingNulls: removingNulls) }
    }

    static func theirs(_ text: String) throws -> Any {
        try JSONSerialization.jsonObject(with: Data(text.utf8), options: .fragmentsAllowed)
    }

    /// The answers user code gets from the usual casts of one value.
    static func casts(_ value: Any) -> [String] {
        [
            "String: \(String(describing: value as? String))",
            "Int: \(String(describing: value as? Int))",
            "Int64: \(String(describing: value as? Int64))",
            "UInt64: \(String(describing: value as? UInt64))",
            "Double: \(String(describing: (value as? Double).map { $0 == 0 ? 0 : $0 }))",
            "Bool: \(String(describing: value as? Bool))",
            "NSNumber: \(String(describing: (value as? NSNumber)?.description))",
            "NSNull: \(value is NSNull)",
            "[String: Any]: \((value as? [String: Any])?.count ?? -1)",
            "[Any]: \((value as? [Any])?.count ?? -1)",
        ]
    }

    /// Walks both graphs together and compares the cast answers at every node.
    static func compareCasts(_ ours: Any, _ theirs: Any, path: String = "") {
        #expect(casts(ours) == casts(theirs), "at \(path.isEmpty ? "the root" : path)")
        if let left = ours as? [String: Any], let right = theirs as? [String: Any] {
            #expect(Set(left.keys) == Set(right.keys), "keys at \(path)")
            for (key, value) in left { if let other = right[key] { compareCasts(value, other, path: path + "." + key) } }
        } else if let left = ours as? [Any], let right = theirs as? [Any], left.count == right.count {
            for (index, pair) in zip(left, right).enumerated() { compareCasts(pair.0, pair.1, path: path + "[\(index)]") }
        }
    }

    @Test("every cast of every value answers as JSONSerialization's output does")
    func castsAgree() throws {
        let text = """
        {"string": "s", "empty": "", "int": 42, "negative": -7, "zero": 0, "big": 9223372036854775807,
         "unsigned": 18446744073709551615, "huge": 123456789012345678901234567890, "double": 2.5,
         "integral double": 3.0, "exponent": 1e3, "tiny": 5e-324, "true": true, "false": false, "null": null,
         "one": 1, "array": [1, "two", null, [], {}], "object": {"nested": {"deep": [true]}}}
        """
        Self.compareCasts(try Self.ours(text), try Self.theirs(text))
        for fragment in ["1", "-1.5", "\"text\"", "true", "null", "[]", "{}"] {
            Self.compareCasts(try Self.ours(fragment), try Self.theirs(fragment), path: fragment)
        }
    }

    @Test("small integers that repeat share one number, and every cast of them answers as JSONSerialization's do")
    func repeatedSmallIntegersShareANumber() throws {
        // Foundation on Linux shares -1...12 itself; 100 and 1023 are ours to share.
        let text = "[100, 100, 1023, 1023, 1024, 1024, -2, -2, 100.0, 100]"
        Self.compareCasts(try Self.ours(text), try Self.theirs(text))
        let numbers = try #require(try Self.ours(text) as? [NSNumber])
        #expect(numbers[0] === numbers[1] && numbers[1] === numbers[9])
        #expect(numbers[2] === numbers[3])
        // Past the shared range, and anything not an integer, stays a number of its own.
        #expect(numbers[4] !== numbers[5])
        #expect(numbers[6] !== numbers[7])
        #expect(numbers[8] !== numbers[0])
        // The table grows with the largest integer seen: numbers made before it grew are
        // still the ones handed out after.
        let growing = try #require(try Self.ours("[20, 70, 20, 200, 70, 1000, 20, 200, 63, 64, 63, 64, 0, 0]") as? [NSNumber])
        #expect(growing.map(\.intValue) == [20, 70, 20, 200, 70, 1000, 20, 200, 63, 64, 63, 64, 0, 0])
        #expect(growing[0] === growing[2] && growing[2] === growing[6])
        #expect(growing[1] === growing[4])
        #expect(growing[3] === growing[7])
        #expect(growing[8] === growing[10] && growing[9] === growing[11] && growing[12] === growing[13])
    }

    @Test("1,000 seeded documents give the same graph as JSONSerialization")
    func differential() throws {
        var random = SplitMix64(seed: 4_627)
        for round in 0..<1_000 {
            var generator = JSONDocumentGenerator(random: random)
            let text = generator.document()
            random = generator.random
            let ours = try ParameterValue(any: try Self.ours(text))
            let theirs = try ParameterValue(any: try Self.theirs(text))
            let difference = JSONNumbers.difference(ours, theirs)
            #expect(difference == nil, "round \(round): \(difference ?? "")")
        }
    }

    @Test("records that repeat their keys give JSONSerialization's graph, with and without null removal")
    func repeatedShapes() throws {
        var random = SplitMix64(seed: 9_117)
        // Spellings of a few names; escaped ones decode to plain ones.
        let names = ["id", "name", "a", #"\u0061"#, "é", #"\u00e9"#, "a rather longer key name", "", "x", "created_at"]
        let sequences = (0..<60).map { _ in (0..<random.range(0, 7)).map { _ in names[random.range(0, names.count - 1)] } }
        var text = "["
        for index in 0..<2_000 {
            if index > 0 { text += "," }
            let sequence = sequences[random.range(0, sequences.count - 1)]
            text += "{" + sequence.map { name in
                let value = [String(index), #""v\#(index)""#, "null", #"{"k":null,"n":\#(index)}"#, "[null,1]", "true"][random.range(0, 5)]
                return #""\#(name)":"# + value
            }.joined(separator: ",") + "}"
        }
        text += "]"
        func withoutNulls(_ value: ParameterValue) -> ParameterValue {
            switch value {
            case .array(let elements): return .array(ParameterArray(elements.filter { $0 != .null }.map(withoutNulls)))
            case .dictionary(let entries):
                return .dictionary(ParameterDictionary(Dictionary(uniqueKeysWithValues: entries.filter { $0.value != .null }.map { ($0.key, withoutNulls($0.value)) })))
            default: return value
            }
        }
        let theirs = try ParameterValue(any: try Self.theirs(text))
        let kept = JSONNumbers.difference(try ParameterValue(any: try Self.ours(text)), theirs)
        #expect(kept == nil, "\(kept ?? "")")
        let removed = JSONNumbers.difference(try ParameterValue(any: try Self.ours(text, removingNulls: true)), withoutNulls(theirs))
        #expect(removed == nil, "\(removed ?? "")")
        // The typed tree reads the same records.
        #expect(JSONNumbers.difference(try ParameterValue(json: Data(text.utf8)), theirs) == nil)
    }

    @Test("null removal leaves nulls out of dictionaries and arrays at every level while building")
    func nullRemoval() throws {
        let text = #"{"a": null, "b": [null, 1, {"c": null, "d": [null]}], "e": {"f": null}, "g": [null, null]}"#
        let object = try ParameterValue(any: try Self.ours(text, removingNulls: true))
        #expect(object == ["b": [1, ["d": []]], "e": .dictionary([:]), "g": []])
        // The last of repeated keys wins before nulls go, as JSONSerialization then
        // AFNetworking's removal would have it: a winning null removes the key.
        let repeated = try ParameterValue(any: try Self.ours(#"[{"a": 1, "a": null}, {"a": null, "a": 2}, {"a": 3, "b": null, "a": null, "b": 4}]"#, removingNulls: true))
        #expect(repeated == [.dictionary([:]), ["a": 2], ["b": 4]])
        // A null document stays itself, as AFNetworking returns it.
        #expect(try Self.ours("null", removingNulls: true) is NSNull)
        // Deep documents build without recursion, nulls removed at the bottom too.
        let deep = String(repeating: "[null,", count: 500) + "1" + String(repeating: "]", count: 500)
        let built = try ParameterValue(any: try Self.ours(deep, removingNulls: true))
        #expect(built.depth == 500)
    }

    @Test("the serializer reads with our reader: fragments need the option, errors name the fault and keep Foundation's code")
    func serializer() throws {
        let response = HTTPURLResponse(url: URL(string: "http://127.0.0.1/")!, statusCode: 200, httpVersion: nil,
                                       headerFields: ["Content-Type": "application/json"])!
        let serializer = JSONResponseSerializer()
        #expect(try serializer.responseObject(for: response, data: Data("[1]".utf8)) as? [Int] == [1])
        do {
            _ = try serializer.responseObject(for: response, data: Data("{\"a\" 1}".utf8))
            Issue.record("no error")
        } catch let error as ResponseSerializationError {
            guard case .unreadableJSON(let reading, _, nil) = error else {
                Issue.record("expected unreadableJSON, got \(error)")
                return
            }
            #expect(reading == JSONReadingError(.unexpectedCharacter(UInt8(ascii: "1"), expected: "\":\""), offset: 5))
            #expect(error.reason == "The response is not valid JSON: found \"1\" where \":\" was expected (byte 5).")
            // As NSError: AFNetworking's -1016 with JSONSerialization's 3840 underneath.
            let bridged = error as NSError
            #expect(bridged.domain == "com.alamofire.error.serialization.response" && bridged.code == -1016)
            let foundationError = bridged.userInfo[NSUnderlyingErrorKey] as? NSError
            #expect(foundationError?.domain == NSCocoaErrorDomain && foundationError?.code == 3840)
            #expect(foundationError?.userInfo[NSDebugDescriptionErrorKey] as? String == reading.description)
        }
        #expect(throws: ResponseSerializationError.self) { try serializer.responseObject(for: response, data: Data("7".utf8)) }
        let fragments = JSONResponseSerializer(readingOptions: .fragmentsAllowed)
        #expect(try fragments.responseObject(for: response, data: Data("7".utf8)) as? Int == 7)
        // Mutable containers still come from Foundation, once our reader accepted the bytes.
        let mutable = JSONResponseSerializer(readingOptions: .mutableContainers)
        #expect(try mutable.responseObject(for: response, data: Data("{\"a\": [1]}".utf8)) is NSMutableDictionary
            || (try mutable.responseObject(for: response, data: Data("{\"a\": [1]}".utf8)) as? [String: Any]) != nil)
        #expect(throws: ResponseSerializationError.self) { try mutable.responseObject(for: response, data: Data("[1,]".utf8)) }
    }
}
