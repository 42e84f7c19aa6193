import Foundation
import HTTPTypes
import SeededGenerators
import Testing
@testable import HTTPSerializationCodable
@testable import HTTPSerializationCore
import HTTPSerialization

/// Readers written as the `Macros` trait generates them: the model's properties in order, by
/// their coding keys' strings. The seeded documents of the `Decodable` differential run through
/// them and through `JSONDecoder`: the same values, the same errors at the same paths.
@Suite("JSON tape readers: the same values and errors as JSONDecoder")
struct JSONTapeDecodableTests {
    enum Level: String, Decodable, Equatable, JSONTapeDecodable {
        case low, high
        init(jsonTape value: borrowing JSONTapeValue) throws { self = try value.decodeRawValue(of: Level.self) }
    }

    struct Child: Decodable, Equatable, JSONTapeDecodable {
        var key: String
        var value: Int?
        var nested: [Child]?

        init(jsonTape value: borrowing JSONTapeValue) throws {
            var object = try value.object()
            key = try object.decode(String.self, forKey: "key")
            self.value = try object.decodeIfPresent(Int.self, forKey: "value")
            nested = try object.decodeIfPresent([Child].self, forKey: "nested")
        }
    }

    /// The same child without a reader: a model's reader falls back to `init(from:)` for it.
    struct PlainChild: Decodable, Equatable {
        var key: String
        var value: Int?
        var nested: [PlainChild]?
    }

    struct Model: Decodable, Equatable, JSONTapeDecodable {
        var id: Int
        var name: String
        var score: Double?
        var small: Int8?
        var unsigned: UInt16?
        var ratio: Float?
        var flags: [Bool]
        var tags: [String]?
        var child: Child?
        var children: [PlainChild]
        var counts: [String: Int]?
        var level: Level?
        var big: Int64?
        var huge: UInt64?

        init(jsonTape value: borrowing JSONTapeValue) throws {
            var object = try value.object()
            id = try object.decode(Int.self, forKey: "id")
            name = try object.decode(String.self, forKey: "name")
            score = try object.decodeIfPresent(Double.self, forKey: "score")
            small = try object.decodeIfPresent(Int8.self, forKey: "small")
            unsigned = try object.decodeIfPresent(UInt16.self, forKey: "unsigned")
            ratio = try object.decodeIfPresent(Float.self, forKey: "ratio")
            flags = try object.decode([Bool].self, forKey: "flags")
            tags = try object.decodeIfPresent([String].self, forKey: "tags")
            child = try object.decodeIfPresent(Child.self, forKey: "child")
            children = try object.decode([PlainChild].self, forKey: "children")
            counts = try object.decodeIfPresent([String: Int].self, forKey: "counts")
            level = try object.decodeIfPresent(Level.self, forKey: "level")
            big = try object.decodeIfPresent(Int64.self, forKey: "big")
            huge = try object.decodeIfPresent(UInt64.self, forKey: "huge")
        }
    }

    struct SnakeModel: Decodable, Equatable, JSONTapeDecodable {
        var userID: Int?
        var userName: String
        var createdAt: Double?
        var nestedValue: [String: Int]?
        var __private_: Bool?

        init(jsonTape value: borrowing JSONTapeValue) throws {
            var object = try value.object()
            userID = try object.decodeIfPresent(Int.self, forKey: "userID")
            userName = try object.decode(String.self, forKey: "userName")
            createdAt = try object.decodeIfPresent(Double.self, forKey: "createdAt")
            nestedValue = try object.decodeIfPresent([String: Int].self, forKey: "nestedValue")
            __private_ = try object.decodeIfPresent(Bool.self, forKey: "__private_")
        }
    }

    typealias Outcome = JSONBodyDecoderDifferentialTests.Outcome

    @Test("5,000 seeded model documents read by a tape reader as JSONDecoder decodes them")
    func modelsMatchJSONDecoder() {
        JSONBodyDecoderDifferentialTests.compare(Model.self, rounds: 5_000, seed: 4_101) { ModelDocuments.model(&$0) }
    }

    @Test("a tape reader under the snake-case strategy matches JSONDecoder's conversion")
    func snakeCaseMatchesJSONDecoder() {
        var ours = JSONBodyDecoder()
        ours.keyDecodingStrategy = .convertFromSnakeCase
        let foundation = JSONDecoder()
        foundation.keyDecodingStrategy = .convertFromSnakeCase
        JSONBodyDecoderDifferentialTests.compare(SnakeModel.self, rounds: 2_000, seed: 4_102, ours: ours, foundation: foundation) {
            ModelDocuments.snake(&$0)
        }
    }

    @Test("arrays of models and models in arrays read the same through both paths")
    func arraysMatchJSONDecoder() {
        JSONBodyDecoderDifferentialTests.compare([Model].self, rounds: 1_000, seed: 4_103) { random in
            "[" + (0..<random.range(1, 3)).map { _ in ModelDocuments.model(&random) }.joined(separator: ",") + "]"
        }
    }

    /// A model whose reader marks what it read; `init(from:)` never sets the mark.
    struct Probe: Decodable, Equatable, JSONTapeDecodable {
        var x: Int
        var readByTape = false

        enum CodingKeys: String, CodingKey { case x }

        init(x: Int, readByTape: Bool) {
            self.x = x
            self.readByTape = readByTape
        }

        init(jsonTape value: borrowing JSONTapeValue) throws {
            var object = try value.object()
            x = try object.decode(Int.self, forKey: "x")
            readByTape = true
        }
    }

    /// A wrapper with only `Decodable`, around probes.
    struct Envelope: Decodable, Equatable {
        var probe: Probe
        var probes: [Probe]
        var byName: [String: Probe]
        var maybe: Probe?
    }

    @Test("every entry point reads a model with a reader through it, also inside Decodable-only wrappers")
    func readersAreUsedEverywhere() throws {
        let one = Data(#"{"x":1}"#.utf8)
        #expect(try JSONBodyDecoder().decode(Probe.self, from: one) == Probe(x: 1, readByTape: true))
        #expect(try JSONDecoder().decode(Probe.self, from: one) == Probe(x: 1, readByTape: false))
        let response = HTTPResponse(status: .ok, headerFields: [.contentType: "application/json"])
        #expect(try DecodableResponseSerializer(Probe.self).responseObject(for: response, data: one).readByTape)
        #expect(try JSONBodyDecoder().decode([Probe].self, from: Data(#"[{"x":1},{"x":2}]"#.utf8)).allSatisfy(\.readByTape))
        let envelope = try JSONBodyDecoder().decode(Envelope.self, from: Data(#"{"probe":{"x":1},"probes":[{"x":2}],"byName":{"a":{"x":3}},"maybe":{"x":4}}"#.utf8))
        #expect(envelope.probe.readByTape && envelope.probes[0].readByTape && envelope.byName["a"]?.readByTape == true && envelope.maybe?.readByTape == true)
        let line = Data(#"{"x":5}"#.utf8)
        let streamed = try line.withUnsafeBytes { try JSONBodyDecoder().decode(Probe.self, utf8: $0.bindMemory(to: UInt8.self)) }
        #expect(streamed.readByTape)
        let atPath = try JSONBodyDecoder().decode(Probe.self, from: Data(#"{"data":{"x":6}}"#.utf8), atKeyPath: "data")
        #expect(atPath == Probe(x: 6, readByTape: true))
    }

    @Test("errors inside a reader carry the whole path, through wrappers and arrays")
    func errorPathsAcrossBothPaths() {
        let text = Data(#"{"probe":{"x":1},"probes":[{"x":2},{"x":"three"}],"byName":{},"maybe":null}"#.utf8)
        let ours = Outcome { try JSONBodyDecoder().decode(Envelope.self, from: text) }
        let theirs = Outcome { try JSONDecoder().decode(Envelope.self, from: text) }
        #expect(ours == theirs)
        #expect(ours == .error(kind: "typeMismatch", path: ["probes", "#1", "x"], type: "Int"))
        let missing = Data(#"[{"x":1},{"y":2}]"#.utf8)
        #expect(Outcome { try JSONBodyDecoder().decode([Probe].self, from: missing) } == .error(kind: "keyNotFound", path: ["#1", "x"], type: ""))
    }

    @Test("a missing key's error names it as a synthesized CodingKeys names itself")
    func keyNotFoundReadsAsJSONDecoders() throws {
        let error = #expect(throws: DecodingError.self) { try JSONBodyDecoder().decode(Probe.self, from: Data("{}".utf8)) }
        guard case .keyNotFound(_, let context)? = error else {
            Issue.record("expected keyNotFound, got \(String(describing: error))")
            return
        }
        #expect(context.debugDescription == #"No value associated with key CodingKeys(stringValue: "x", intValue: nil) ("x")."#)
    }

    /// Keys in every order, escaped, repeated, among unknown keys and past the search limit.
    @Test("keys are found in any order, escaped or repeated (the first wins), in small and large objects")
    func keyLookupOrders() throws {
        struct Three: Decodable, Equatable, JSONTapeDecodable {
            var a: Int, b: Int, c: Int
            init(a: Int, b: Int, c: Int) { (self.a, self.b, self.c) = (a, b, c) }
            init(jsonTape value: borrowing JSONTapeValue) throws {
                var object = try value.object()
                a = try object.decode(Int.self, forKey: "a")
                b = try object.decode(Int.self, forKey: "b")
                c = try object.decode(Int.self, forKey: "c")
            }
        }
        let filler = (0..<40).map { "\"f\($0)\":\($0)" }.joined(separator: ",")
        let documents = [
            #"{"a":1,"b":2,"c":3}"#, #"{"c":3,"b":2,"a":1}"#, #"{"b":2,"a":1,"c":3}"#,
            #"{"a":1,"b":2,"a":9,"c":3}"#, #"{"b":2,"a":1,"b":9,"c":3,"a":8}"#, #"{"\u0061":1,"b":2,"c":3,"a":7}"#,
            #"{"x":0,"a":1,"b":2,"c":3}"#, #"{"a":1,"x":0,"b":2,"y":[1,{"a":5}],"c":3}"#,
            "{\(filler),\"c\":3,\"b\":2,\"a\":1,\"a\":4}", "{\"a\":1,\"b\":2,\(filler),\"c\":3}",
        ]
        for text in documents {
            let data = Data(text.utf8)
            #expect(try JSONBodyDecoder().decode(Three.self, from: data) == Three(a: 1, b: 2, c: 3), "\(text)")
            #expect(try JSONDecoder().decode(Three.self, from: data) == Three(a: 1, b: 2, c: 3), "\(text)")
        }
    }

    @Test("dates, data, URLs and decimals in a reader follow the decoder's strategies")
    func foundationValuesFollowStrategies() throws {
        struct Stamped: Decodable, Equatable, JSONTapeDecodable {
            var at: Date, blob: Data, link: URL, amount: Decimal, ratio: Double
            init(jsonTape value: borrowing JSONTapeValue) throws {
                var object = try value.object()
                at = try object.decode(Date.self, forKey: "at")
                blob = try object.decode(Data.self, forKey: "blob")
                link = try object.decode(URL.self, forKey: "link")
                amount = try object.decode(Decimal.self, forKey: "amount")
                ratio = try object.decode(Double.self, forKey: "ratio")
            }
        }
        let text = Data(#"{"at":"2024-05-01T12:00:00Z","blob":"aGk=","link":"https://example.com/a","amount":12.50,"ratio":"NaN"}"#.utf8)
        var ours = JSONBodyDecoder()
        ours.dateDecodingStrategy = .iso8601
        ours.nonConformingFloatDecodingStrategy = .convertFromString(positiveInfinity: "inf", negativeInfinity: "-inf", nan: "NaN")
        let stamped = try ours.decode(Stamped.self, from: text)
        #expect(stamped.at == Date(timeIntervalSince1970: 1_714_564_800))
        #expect(stamped.blob == Data("hi".utf8) && stamped.link.host == "example.com" && stamped.amount == Decimal(string: "12.5"))
        #expect(stamped.ratio.isNaN)
        // Without the strategies, the errors JSONDecoder gives.
        let foundation = JSONDecoder()
        #expect(Outcome { try JSONBodyDecoder().decode(Stamped.self, from: text) } == Outcome { try foundation.decode(Stamped.self, from: text) })
    }

    /// A reader that asks for a key again (after `contains`, or to retry as another type).
    struct Retrying: Decodable, Equatable, JSONTapeDecodable {
        var id: Int
        var seen: Bool

        init(id: Int, seen: Bool) { (self.id, self.seen) = (id, seen) }

        init(jsonTape value: borrowing JSONTapeValue) throws {
            var object = try value.object()
            seen = object.contains("id")
            if let number = try? object.decode(Int.self, forKey: "id") {
                id = number
            } else {
                id = Int(try object.decode(String.self, forKey: "id")) ?? -1
            }
        }
    }

    @Test("a key asked for again reads its first value again, also where the key repeats")
    func repeatedLookupsReadTheFirstValue() throws {
        #expect(try JSONBodyDecoder().decode(Retrying.self, from: Data(#"{"id":1,"id":"x"}"#.utf8)) == Retrying(id: 1, seen: true))
        #expect(try JSONBodyDecoder().decode(Retrying.self, from: Data(#"{"id":"5","id":6}"#.utf8)) == Retrying(id: 5, seen: true))
        #expect(try JSONBodyDecoder().decode(Retrying.self, from: Data(#"{"\u0069d":"7","id":8}"#.utf8)) == Retrying(id: 7, seen: true))
        let filler = (0..<40).map { "\"f\($0)\":\($0)" }.joined(separator: ",")
        #expect(try JSONBodyDecoder().decode(Retrying.self, from: Data("{\"id\":\"9\",\"id\":10,\(filler)}".utf8)) == Retrying(id: 9, seen: true))
    }

    @Test("dictionary keys that read as numbers are Int keys on the path, as Dictionary.init(from:) names them")
    func numericDictionaryKeysOnThePath() {
        struct Counts: Decodable, Equatable, JSONTapeDecodable {
            var counts: [String: Int]
            init(jsonTape value: borrowing JSONTapeValue) throws {
                var object = try value.object()
                counts = try object.decode([String: Int].self, forKey: "counts")
            }
        }
        let text = Data(#"{"counts":{"a":1,"7":"x"}}"#.utf8)
        let ours = Outcome { try JSONBodyDecoder().decode(Counts.self, from: text) }
        #expect(ours == Outcome { try JSONDecoder().decode(Counts.self, from: text) })
        #expect(ours == .error(kind: "typeMismatch", path: ["counts", "#7"], type: "Int"))
    }

    @Test("under a key strategy, a repeated dictionary key's value is read too, as JSONDecoder reads it; custom strategies see each path")
    func keyStrategiesInReaders() throws {
        struct Snake: Decodable, Equatable, JSONTapeDecodable {
            var userID: Int
            var extra: [String: Int]
            init(jsonTape value: borrowing JSONTapeValue) throws {
                var object = try value.object()
                userID = try object.decode(Int.self, forKey: "userID")
                extra = try object.decode([String: Int].self, forKey: "extra")
            }
        }
        var ours = JSONBodyDecoder()
        ours.keyDecodingStrategy = .convertFromSnakeCase
        let foundation = JSONDecoder()
        foundation.keyDecodingStrategy = .convertFromSnakeCase
        for text in [#"{"user_i_d":1,"extra":{"a_b":1,"a_b":2}}"#, #"{"user_i_d":1,"extra":{"a_b":1,"a_b":"x"}}"#, #"{"userID":1,"extra":{}}"#] {
            let data = Data(text.utf8)
            #expect(Outcome { try ours.decode(Snake.self, from: data) } == Outcome { try foundation.decode(Snake.self, from: data) }, "\(text)")
        }
        var upper = JSONBodyDecoder()
        upper.keyDecodingStrategy = .custom { path in JSONCodingKey(stringValue: path.last!.stringValue.lowercased() == "userid" ? "userID" : path.last!.stringValue) }
        #expect(try upper.decode(Snake.self, from: Data(#"{"USERID":3,"extra":{"K":1}}"#.utf8)) == (try JSONDecoder().decode(Snake.self, from: Data(#"{"userID":3,"extra":{"K":1}}"#.utf8))))
    }

    @Test("a non-ASCII key matches its canonically equivalent spelling, as JSONDecoder's String keys do")
    func canonicallyEquivalentKeys() throws {
        struct Cafe: Decodable, Equatable, JSONTapeDecodable {
            var café: Int
            init(jsonTape value: borrowing JSONTapeValue) throws {
                var object = try value.object()
                café = try object.decode(Int.self, forKey: "caf\u{E9}")
            }
        }
        let text = Data("{\"cafe\u{301}\":1}".utf8)
        #expect(try JSONBodyDecoder().decode(Cafe.self, from: text) == (try JSONDecoder().decode(Cafe.self, from: text)))
    }
}
