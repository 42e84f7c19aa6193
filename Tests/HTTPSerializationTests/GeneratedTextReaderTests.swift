#if Macros
import Foundation
import HTTPSerializationCore
@testable import HTTPSerializationCodable
import HTTPSerializationMacros
import SeededGenerators
import Synchronization
import Testing

/// Generated readers straight from the text (`init(jsonText:)`), the fast path of a decode:
/// every document the tape decodes, the text reader decodes to the same value, and every
/// document it does not read is left to the tape, which gives the error.
@Suite("@GeneratedJSONCoding readers over the text: the tape's values, or the tape")
struct GeneratedTextReaderTests {
    /// ``GeneratedReaderTests/Model`` with generated children: every property reads from the text.
    @GeneratedJSONCoding
    struct Model: Decodable, Equatable {
        var id: Int
        var name: String
        var score: Double?
        var small: Int8?
        var unsigned: UInt16?
        var ratio: Float?
        var flags: [Bool]
        var tags: [String]?
        var child: GeneratedReaderTests.Child?
        var children: [GeneratedReaderTests.Child]
        var counts: [String: Int]?
        var level: GeneratedReaderTests.Level?
        var big: Int64?
        var huge: UInt64?
    }

    /// What the text reader gives for `text`: nil where it stops.
    static func fromText<T>(_ type: T.Type, _ text: String, decoder: JSONBodyDecoder = JSONBodyDecoder()) -> T? {
        fromText(type, Array(text.utf8), decoder: decoder)
    }

    static func fromText<T>(_ type: T.Type, _ bytes: [UInt8], decoder: JSONBodyDecoder = JSONBodyDecoder()) -> T? {
        bytes.withUnsafeBufferPointer { decoder.decodeFromText(type, $0, from: 0) }
    }

    /// What the tape alone gives (a key path of no steps decodes the whole document there).
    static func fromTape<T: Decodable & Equatable>(_ type: T.Type, _ text: String, decoder: JSONBodyDecoder = JSONBodyDecoder())
        -> JSONBodyDecoderDifferentialTests.Outcome<T> {
        fromTape(type, Array(text.utf8), decoder: decoder)
    }

    static func fromTape<T: Decodable & Equatable>(_ type: T.Type, _ bytes: [UInt8], decoder: JSONBodyDecoder = JSONBodyDecoder())
        -> JSONBodyDecoderDifferentialTests.Outcome<T> {
        JSONBodyDecoderDifferentialTests.Outcome { try decoder.decode(type, from: Data(bytes), atKeyPath: JSONKeyPath([])) }
    }

    @Test("5,000 seeded documents decode as JSONDecoder decodes them, values and errors")
    func modelsMatchJSONDecoder() {
        JSONBodyDecoderDifferentialTests.compare(Model.self, rounds: 5_000, seed: 5_101) { ModelDocuments.model(&$0) }
        JSONBodyDecoderDifferentialTests.compare([Model].self, rounds: 500, seed: 5_102) { random in
            "[" + (0..<random.range(1, 3)).map { _ in ModelDocuments.model(&random) }.joined(separator: " , ") + "]"
        }
    }

    @Test("the text reader decodes every seeded document the tape decodes, to the same value, and nothing else, also cut and garbled")
    func textReadsWhatTheTapeReads() {
        let (tapeValues, textValues) = Self.compareTextWithTape(Model.self, seed: 5_103) { ModelDocuments.model(&$0) }
        #expect(textValues == tapeValues && tapeValues > 400, "\(textValues) from the text, \(tapeValues) from the tape")
    }

    @Test("under .convertFromSnakeCase the text reader gives the tape's value wherever it reads, and reads all but escaped keys")
    func snakeCaseTextReadsWhatTheTapeReads() {
        var snake = JSONBodyDecoder()
        snake.keyDecodingStrategy = .convertFromSnakeCase
        // An escaped key (a fifth of the documents have one) is the tape's under the conversion;
        // a document with no escape at all is read from the text whenever the tape reads it.
        let (tapeValues, textValues) = Self.compareTextWithTape(
            GeneratedReaderTests.SnakeModel.self, seed: 5_104, decoder: snake, readsAll: { !$0.contains(UInt8(ascii: "\\")) }
        ) { ModelDocuments.snake(&$0) }
        #expect(tapeValues > 400 && textValues * 10 >= tapeValues * 7, "\(textValues) from the text, \(tapeValues) from the tape")
    }

    /// Seeded documents from `document`, as written and garbled, through the text reader and the
    /// tape alone: the text reader gives the tape's value or stops, and never reads what the tape
    /// refuses; it reads every document as written that the tape reads and `readsAll` accepts.
    /// Returns how many documents as written each decoded.
    static func compareTextWithTape<T: Decodable & Equatable>(
        _ type: T.Type, seed: UInt64, decoder: JSONBodyDecoder = JSONBodyDecoder(), readsAll: ([UInt8]) -> Bool = { _ in true },
        document: (inout SplitMix64) -> String
    ) -> (tape: Int, text: Int) {
        var random = SplitMix64(seed: seed)
        var tapeValues = 0, textValues = 0, disagreements = 0, garbledValues = 0
        func check(_ round: Int, _ text: [UInt8], counted: Bool) {
            let tape = Self.fromTape(type, text, decoder: decoder)
            let fast = Self.fromText(type, text, decoder: decoder)
            let agrees: Bool
            switch (tape, fast) {
            case (.value(let value), let fast?): agrees = value == fast
            case (.value, nil): agrees = !counted || !readsAll(text)
            case (.error, let fast): agrees = fast == nil
            }
            if counted, case .value = tape { tapeValues += 1 }
            if counted, fast != nil { textValues += 1 }
            if !counted, fast != nil { garbledValues += 1 }
            if !agrees {
                disagreements += 1
                if disagreements <= 5 { Issue.record("round \(round): \(String(decoding: text, as: UTF8.self))\n tape: \(tape)\n text: \(String(describing: fast))") }
            }
        }
        let specials = Array(#"{}[]",:\"-+.eE0123456789tfnul \#t\#n"#.utf8) + [0x01, 0xC3, 0xA9, 0xFF]
        for round in 0..<4_000 {
            var bytes = Array(document(&random).utf8)
            check(round, bytes, counted: true)
            // The same document cut short (inside a character, too), a byte dropped, or a
            // JSON-significant or invalid UTF-8 byte put in: the text reader must not take what
            // the scanner refuses.
            let at = random.range(0, bytes.count - 1)
            switch random.range(0, 2) {
            case 0: bytes.removeSubrange(at...)
            case 1: bytes.remove(at: at)
            default: bytes.insert(specials[random.range(0, specials.count - 1)], at: at)
            }
            check(round, bytes, counted: false)
        }
        #expect(disagreements == 0)
        #expect(garbledValues > 100, "\(garbledValues) garbled documents still decoded")
        return (tapeValues, textValues)
    }

    @Test("members in any order, unknown and repeated keys, escaped and quoted keys and whitespace read from the text")
    func memberOrderAndSpelling() throws {
        let documents = [
            #"{"id":1,"name":"a","flags":[],"children":[]}"#,
            #" { "children" : [ ] , "flags" : [ true ] , "name" : "b" , "id" : 2 } "#,
            #"{"x":{"y":[1,{"z":null}]},"id":3,"id":4,"name":"c\n\u00e9\ud83d\ude00","flags":[false],"children":[{"key":"k","value":null}],"name":"d"}"#,
            #"{"\u0069d":5,"na\u006De":"e","flags":[],"children":[],"counts":{"a":1,"a":2,"\u0062":3}}"#,
            "{\"id\":6,\"name\":\"f\",\"flags\":[],\"children\":[],\"level\":\"high\",\"small\":-128,\"huge\":18446744073709551615,\"ratio\":1e-3}",
        ]
        for text in documents {
            let fast = try #require(Self.fromText(Model.self, text), "\(text)")
            #expect(fast == (try JSONDecoder().decode(Model.self, from: Data(text.utf8))), "\(text)")
        }
        #expect(Self.fromText(Model.self, documents[2])?.id == 3)
        #expect(Self.fromText(Model.self, documents[2])?.name == "c\n\u{e9}\u{1F600}")
        #expect(Self.fromText(Model.self, documents[3])?.counts == ["a": 1, "b": 3])
        // A key that needs escapes is compared as a string.
        let renamed = #"{"the \"title\"":"t","post_id":9}"#
        #expect(Self.fromText(GeneratedReaderTests.Renamed.self, renamed) == (try JSONDecoder().decode(GeneratedReaderTests.Renamed.self, from: Data(renamed.utf8))))
    }

    @Test("strings and numbers passed over for a later key read as written when asked for: escapes, non-ASCII, numbers of each kind")
    func passedValuesReadAgain() throws {
        // Each document starts with `id`, the model's first key, so it is read key by key: the
        // members after it are passed over on the way to a later key and read when their own
        // key is asked for. (``documentOrderValues()`` reads the same members in their order.)
        let documents = [
            #"{"id":-42,"flags":[true],"children":[],"small":-128,"name":"tab\there \u00e9\ud83d\ude00 \"q\" \\","score":-1.5e3}"#,
            #"{"id":7,"huge":18446744073709551615,"big":-9223372036854775808,"ratio":2.5E-3,"unsigned":65535,"score":0.1,"name":"é😀","flags":[],"children":[]}"#,
            #"{ "id" : 0 , "score" : 1e2 , "flags" : [ ] , "children" : [ ] , "name" : "spaced" , "small" : 0 }"#,
            #"{"id":1,"score":3,"score":4,"flags":[],"children":[{"value":5,"key":"k"}],"name":"first","name":"second"}"#,
        ]
        for text in documents {
            let fast = try #require(Self.fromText(Model.self, text), "\(text)")
            #expect(fast == (try JSONDecoder().decode(Model.self, from: Data(text.utf8))), "\(text)")
        }
        #expect(Self.fromText(Model.self, documents[0])?.name == "tab\there \u{e9}\u{1F600} \"q\" \\")
        #expect(Self.fromText(Model.self, documents[1])?.huge == UInt64.max)
        #expect(Self.fromText(Model.self, documents[3])?.name == "first")
        #expect(Self.fromText(Model.self, documents[3])?.score == 3)
    }

    /// A value read through its text reader that logs its label, to show the order of reads.
    /// Only ``documentOrderWhenTheFirstKeyDiffers()`` reads it: tests run in parallel, and a
    /// second test reading it would mix its entries into the log.
    struct Step: Codable, Equatable, JSONTapeDecodable {
        var label: String
        static let log = Mutex<[String]>([])

        init(from decoder: any Decoder) throws {
            label = try decoder.singleValueContainer().decode(String.self)
        }

        init(jsonTape value: borrowing JSONTapeValue) throws {
            label = try value.decode(String.self)
        }

        init(jsonText reader: inout JSONTextReader) throws {
            label = try reader.decode(String.self)
            Self.log.withLock { [label] in $0.append(label) }
        }
    }

    @GeneratedJSONCoding
    struct Steps: Decodable, Equatable {
        var first: Step
        var second: Step?
        var third: Step
    }

    @Test("an object whose first key is the model's is read key by key; any other, member by member in the document's order")
    func documentOrderWhenTheFirstKeyDiffers() throws {
        // Key by key: `third` is passed over on the way to `second`, and read when asked for.
        let keyed = #"{"first":"a","third":"c","second":"b"}"#
        // In the document's order, each value read where it stands (whitespace before the first
        // key is no reason to leave the model's order).
        let documentOrder = #"{"third":"c","extra":[1,{"first":0}],"first":"a","second":"b"}"#
        let spaced = #" { "first" : "a" , "third" : "c" , "second" : "b" } "#
        let null = #"{"third":"c","second":null,"first":"a"}"#
        for (text, order) in [(keyed, ["a", "b", "c"]), (documentOrder, ["c", "a", "b"]), (spaced, ["a", "b", "c"]), (null, ["c", "a"])] {
            Step.log.withLock { $0 = [] }
            let fast = try #require(Self.fromText(Steps.self, text), "\(text)")
            #expect(Step.log.withLock { $0 } == order, "\(text)")
            #expect(fast == (try JSONDecoder().decode(Steps.self, from: Data(text.utf8))), "\(text)")
        }
    }

    @Test("in the document's order: the first of a repeated key, null and missing optionals, escapes and numbers, as JSONDecoder reads them")
    func documentOrderValues() throws {
        let documents = [
            #"{"name":"tab\there \u00e9\ud83d\ude00 \"q\" \\","flags":[true],"children":[],"small":-128,"score":-1.5e3,"id":-42}"#,
            #"{"huge":18446744073709551615,"big":-9223372036854775808,"ratio":2.5E-3,"unsigned":65535,"score":0.1,"name":"é😀","flags":[],"children":[],"id":7}"#,
            #"{ "name" : "spaced" , "score" : 1e2 , "flags" : [ ] , "children" : [ ] , "id" : 0 , "small" : 0 }"#,
            // Repeated keys keep the first, a null or a value of the wrong kind after it only checked.
            #"{"name":"first","name":"second","score":null,"score":4,"flags":[],"flags":[1],"children":[{"value":5,"key":"k"}],"id":1,"id":"x"}"#,
            #"{"\u006eame":"escaped","children":[],"tags":null,"child":null,"level":"low","counts":{},"flags":[],"id":2}"#,
            #"{"children":[{"nested":[{"value":1,"key":"j"}],"key":"k"}],"child":{"value":2,"key":"c"},"flags":[false],"name":"","id":3}"#,
        ]
        for text in documents {
            let fast = try #require(Self.fromText(Model.self, text), "\(text)")
            #expect(fast == (try JSONDecoder().decode(Model.self, from: Data(text.utf8))), "\(text)")
        }
        #expect(Self.fromText(Model.self, documents[0])?.name == "tab\there \u{e9}\u{1F600} \"q\" \\")
        #expect(Self.fromText(Model.self, documents[3])?.name == "first")
        #expect(Self.fromText(Model.self, documents[3])?.score == nil)
        #expect(Self.fromText(Model.self, documents[3])?.flags == [])
        #expect(Self.fromText(Model.self, documents[4])?.name == "escaped")
    }

    @GeneratedJSONCoding
    struct WithPlain: Decodable, Equatable {
        var id: Int
        var plain: JSONTapeDecodableTests.PlainChild?
        var label: String
    }

    /// Read member by member, then closed, as a hand-written reader may.
    struct ClosedAfterMembers: Decodable, Equatable, JSONTapeDecodable {
        var id: Int
        init(id: Int) { self.id = id }
        init(jsonTape value: borrowing JSONTapeValue) throws {
            var object = try value.object()
            id = try object.decode(Int.self, forKey: "id")
        }
        init(jsonText reader: inout JSONTextReader) throws {
            var object = try reader.object()
            var id = JSONTextReader.Slot(Int.self)
            while let member = try reader.nextMember(in: &object) {
                if try reader.member(member, is: "id") { try reader.read(into: &id) } else { try reader.skipValue() }
            }
            try reader.close(&object)
            self.id = try reader.decode(from: id)
        }
    }

    @Test("in the document's order, a type with no reader of its own is nil from the text when missing or null, else the tape's")
    func documentOrderDecodableOnly() throws {
        for text in [#"{"label":"a","id":1}"#, #"{"label":"a","plain":null,"id":1}"#] {
            #expect(Self.fromText(WithPlain.self, text) == WithPlain(id: 1, plain: nil, label: "a"), "\(text)")
        }
        let given = #"{"label":"a","plain":{"key":"k","value":2},"id":1}"#
        #expect(Self.fromText(WithPlain.self, given) == nil)
        #expect(try JSONBodyDecoder().decode(WithPlain.self, from: Data(given.utf8)) == (try JSONDecoder().decode(WithPlain.self, from: Data(given.utf8))))
        #expect(Self.fromText(WithPlain.self, #"{"label":1,"plain":null,"id":1}"#) == nil)
        // An object read member by member and then closed counts its depth once.
        #expect(Self.fromText([ClosedAfterMembers].self, #"[{"x":[1],"id":1},{"id":2}]"#) == [1, 2].map { ClosedAfterMembers(id: $0) })
    }

    @Test("in the document's order, what the text reader does not read is the tape's, with JSONDecoder's error")
    func documentOrderStopsWhereTheTapeThrows() {
        let bad = [
            #"{"name":"a","flags":[],"children":[]}"#,
            #"{"name":null,"id":1,"flags":[],"children":[]}"#,
            #"{"name":1,"id":1,"flags":[],"children":[]}"#,
            #"{"tags":[1],"name":"a","id":1,"flags":[],"children":[]}"#,
            #"{"tags":"a","name":"a","id":1,"flags":[],"children":[]}"#,
            #"{"score":"1","name":"a","id":1,"flags":[],"children":[]}"#,
            #"{"small":128,"name":"a","id":1,"flags":[],"children":[]}"#,
            #"{"level":"middle","name":"a","id":1,"flags":[],"children":[]}"#,
            #"{"name":"a","id":1,"flags":[],"children":[{"value":1}]}"#,
            #"{"name":"a","id":1.5,"flags":[],"children":[]}"#,
            #"{"name":"a","id":1,"flags":[],"children":[]"#,
            #"{"name":"a","id":1,"flags":[],"children":[]} x"#,
            #"{"name":"a\x","id":1,"flags":[],"children":[]}"#,
        ]
        for text in bad {
            #expect(Self.fromText(Model.self, text) == nil, "\(text)")
            let ours = JSONBodyDecoderDifferentialTests.Outcome { try JSONBodyDecoder().decode(Model.self, from: Data(text.utf8)) }
            let theirs = JSONBodyDecoderDifferentialTests.Outcome { try JSONDecoder().decode(Model.self, from: Data(text.utf8)) }
            #expect(ours.matches(foundation: theirs), "\(text): \(ours) against \(theirs)")
        }
        // Text the scanner refuses (JSONDecoder takes both): a leading zero in a member no
        // property reads, a lone surrogate in a repeated key's value.
        for text in [#"{"name":"a","id":1,"flags":[],"children":[],"extra":[01]}"#, #"{"name":"a","id":1,"flags":[],"children":[],"name":"\ud800"}"#] {
            #expect(Self.fromText(Model.self, text) == nil, "\(text)")
        }
        // The depth limit counts the object read in the document's order while its values are read.
        Self.expectFiveLevels(#"{"children":[{"nested":[{"key":"j"}],"key":"k"}],"name":"a","flags":[],"id":1}"#)
    }

    /// `text` (a ``Model`` five levels deep) is read from the text where five levels are
    /// allowed and left to the tape where four are.
    static func expectFiveLevels(_ text: String, sourceLocation: SourceLocation = #_sourceLocation) {
        var shallow = JSONBodyDecoder()
        shallow.maximumDepth = 4
        #expect(Self.fromText(Model.self, text, decoder: shallow) == nil, sourceLocation: sourceLocation)
        var deepEnough = JSONBodyDecoder()
        deepEnough.maximumDepth = 5
        #expect(Self.fromText(Model.self, text, decoder: deepEnough) != nil, sourceLocation: sourceLocation)
    }

    @Test("what the text reader does not read is the tape's: bad JSON, wrong kinds, missing keys, depth, trailing data")
    func stopsWhereTheTapeThrows() {
        let good = #"{"id":1,"name":"a","flags":[],"children":[{"key":"k","nested":[{"key":"j"}]}]}"#
        #expect(Self.fromText(Model.self, good) != nil)
        let bad = [
            #"{"id":1,"name":"a","flags":[],"children":[]"#,
            #"{"id":1,"name":"a","flags":[],"children":[],}"#,
            #"{"id":1,"name":"a","flags":[],"children":[]} x"#,
            #"{"id":1,"name":"a\x","flags":[],"children":[]}"#,
            #"{"id":1,"name":"\ud800","flags":[],"children":[]}"#,
            #"{"id":1e400,"name":"a","flags":[],"children":[]}"#,
            #"{"id":1.5,"name":"a","flags":[],"children":[]}"#,
            #"{"id":1,"name":null,"flags":[],"children":[]}"#,
            #"{"id":1,"flags":[],"children":[]}"#,
            #"{"id":1,"name":"a","flags":[],"children":[],"small":128}"#,
            #"{"id":1,"name":"a","flags":[],"children":[],"level":"middle"}"#,
            #"{"id":1,"name":"a","flags":[],"children":[],"extra":[01]}"#,
            "{\"id\":1,\"name\":\"a\u{1}\",\"flags\":[],\"children\":[]}",
        ]
        for text in bad {
            #expect(Self.fromText(Model.self, text) == nil, "\(text)")
        }
        #expect(Self.fromText(Model.self, Array(#"{"id":1,"name":""#.utf8) + [0xC3, 0x28] + Array(#"","flags":[],"children":[]}"#.utf8)) == nil)
        // Five levels where four are allowed: the text reader stops (and the tape names the limit).
        Self.expectFiveLevels(good)
        var shallow = JSONBodyDecoder()
        shallow.maximumDepth = 4
        // An unknown member nests too: its depth counts.
        #expect(Self.fromText(Model.self, #"{"id":1,"name":"a","flags":[],"children":[],"x":[[[[1]]]]}"#, decoder: shallow) == nil)
    }

    @Test("under a custom key strategy, or for a type without a text reader, the tape decodes alone")
    func textReaderOnlyWhereItApplies() throws {
        var custom = JSONBodyDecoder()
        custom.keyDecodingStrategy = .custom { path in path.last! }
        #expect(Self.fromText(GeneratedReaderTests.SnakeModel.self, #"{"userName":"a"}"#, decoder: custom) == nil)
        #expect(try custom.decode(GeneratedReaderTests.SnakeModel.self, from: Data(#"{"userName":"a"}"#.utf8)).userName == "a")
        // A Decodable-only property stops the text reader; the decode is the tape's.
        let plain = #"{"id":1,"name":"a","flags":[],"children":[{"key":"k","value":2}]}"#
        #expect(Self.fromText(GeneratedReaderTests.Model.self, plain) == nil)
        #expect(try JSONBodyDecoder().decode(GeneratedReaderTests.Model.self, from: Data(plain.utf8)).children.count == 1)
        // UTF-16 text and a UTF-8 byte-order mark reach the text reader through `decode(_:from:)`.
        let utf16 = try #require(#"{"id":1,"name":"é","flags":[],"children":[]}"#.data(using: .utf16BigEndian))
        #expect(JSONBodyDecoder().decodeFromText(Model.self, utf16)?.name == "é")
        let marked = Data([0xEF, 0xBB, 0xBF]) + Data(#"{"id":2,"name":"a","flags":[],"children":[]}"#.utf8)
        #expect(JSONBodyDecoder().decodeFromText(Model.self, marked)?.id == 2)
    }

    @GeneratedJSONCoding
    struct Keyed: Codable, Equatable {
        var a: Int?
        var nine: Int?
        var sixteen: Int?
        var seventeen: Int?
        enum CodingKeys: String, CodingKey {
            case a, nine = "nine_byte", sixteen = "sixteen_bytes_ke", seventeen = "a_key_of_seventeen"
        }
    }

    @GeneratedJSONCoding
    struct Kelvin: Codable, Equatable {
        var kelvin: Int?
        enum CodingKeys: String, CodingKey { case kelvin = "\u{212A}" }
    }

    @Test("keys of every length match as bytes; a key that is not ASCII, a crowd of members or deep nesting is the tape's")
    func keyLengthsAndLimits() throws {
        // Near misses first: a key one byte short or long is not the key, read key by key (the
        // model's first key first) and in the document's order.
        for text in [#"{"a":1,"a_key_of_seventeen":4,"sixteen_bytes_k":0,"sixteen_bytes_ke":3,"nine_bytes":0,"nine_byte":2}"#,
                     #"{"a_key_of_seventeen":4,"a":1,"sixteen_bytes_k":0,"sixteen_bytes_ke":3,"nine_bytes":0,"nine_byte":2}"#] {
            #expect(Self.fromText(Keyed.self, text) == Keyed(a: 1, nine: 2, sixteen: 3, seventeen: 4), "\(text)")
            #expect(Self.fromText(Keyed.self, text) == (try JSONDecoder().decode(Keyed.self, from: Data(text.utf8))), "\(text)")
        }
        // The Kelvin sign equals `K` as a `String`, as `JSONDecoder` compares keys: the tape finds
        // it, escaped, raw or as `K`, in small objects and large; a key that is not ASCII is left
        // to the tape, as which member it takes can depend on the other keys.
        let large = "{" + (0..<40).map { "\"m\($0)\":\($0)" }.joined(separator: ",") + #","K":6}"#
        for text in [#"{"\u212A":5}"#, "{\"\u{212A}\":5}", #"{"K":5}"#, #"{"m":0,"K":5,"\u212A":6}"#, large] {
            let expected = try JSONDecoder().decode(Kelvin.self, from: Data(text.utf8))
            #expect(expected.kelvin != nil)
            #expect(Self.fromText(Kelvin.self, text) == nil, "\(text)")
            #expect(Self.fromTape(Kelvin.self, text) == .value(expected), "\(text)")
        }
        // An ASCII key matches an escaped or non-ASCII spelling as a `String`, in the document's
        // order and key by key.
        let escaped = #"{"\u006Bey":"k"}"#
        #expect(Self.fromText(GeneratedReaderTests.Child.self, escaped)?.key == "k")
        #expect(Self.fromText(GeneratedReaderTests.Child.self, #"{"key":"k","v\u0061lue":2}"#)?.value == 2)
        // Whitespace after the colon on the fast path, and before it off it.
        #expect(Self.fromText(GeneratedReaderTests.Child.self, "{\"key\": \"k\",\"value\" :\n1}") == GeneratedReaderTests.Child(key: "k", value: 1, nested: nil))
        // Read key by key (the first key the model's), members passed on the way are remembered
        // up to a limit; past it the object is the tape's. Read in the document's order (any
        // other first key), nothing is remembered, and a crowd of any size is read from the text.
        func crowd(_ count: Int) -> String { #"{"key":"k","# + (0..<count).map { "\"m\($0)\":\($0)" }.joined(separator: ",") + #","value":1}"# }
        #expect(Self.fromText(GeneratedReaderTests.Child.self, crowd(256))?.value == 1)
        #expect(Self.fromText(GeneratedReaderTests.Child.self, crowd(257)) == nil)
        #expect(try JSONBodyDecoder().decode(GeneratedReaderTests.Child.self, from: Data(crowd(300).utf8)).value == 1)
        let crowdFirst = "{" + (0..<1_000).map { "\"m\($0)\":\($0)" }.joined(separator: ",") + #","value":1,"key":"k"}"#
        #expect(Self.fromText(GeneratedReaderTests.Child.self, crowdFirst) == GeneratedReaderTests.Child(key: "k", value: 1, nested: nil))
        // Skipped values nest at most 64 deep here; deeper (within the decoder's limit) is the tape's.
        let deep = #"{"key":"k","x":"# + String(repeating: "[", count: 70) + String(repeating: "]", count: 70) + "}"
        #expect(Self.fromText(GeneratedReaderTests.Child.self, deep) == nil)
        #expect(try JSONBodyDecoder().decode(GeneratedReaderTests.Child.self, from: Data(deep.utf8)).key == "k")
    }

    @GeneratedJSONCoding
    struct Stamped: Codable, Equatable {
        var at: Date
        var blob: Data?
        var link: URL?
        var amount: Decimal?
    }

    @Test("dates, data, URLs and decimals read from the text under the decoder's strategies; a custom one is the tape's")
    func foundationValuesFromTheText() throws {
        let text = #"{"at":"2026-11-29T01:02:03Z","blob":"aGk=","link":"https://example.com/a?b","amount":12.345678901234567890}"#
        var iso = JSONBodyDecoder()
        iso.dateDecodingStrategy = .iso8601
        let foundation = JSONDecoder()
        foundation.dateDecodingStrategy = .iso8601
        let fast = try #require(Self.fromText(Stamped.self, text, decoder: iso))
        #expect(fast == (try foundation.decode(Stamped.self, from: Data(text.utf8))))
        #expect(fast.amount == Decimal(string: "12.345678901234567890"))
        // The default strategy reads a number; a string there is the tape's error.
        #expect(Self.fromText(Stamped.self, #"{"at":12.5}"#)?.at == Date(timeIntervalSinceReferenceDate: 12.5))
        #expect(Self.fromText(Stamped.self, text) == nil)
        var custom = JSONBodyDecoder()
        custom.dateDecodingStrategy = .custom { _ in Date(timeIntervalSince1970: 0) }
        #expect(Self.fromText(Stamped.self, #"{"at":1}"#, decoder: custom) == nil)
        #expect(try custom.decode(Stamped.self, from: Data(#"{"at":1}"#.utf8)).at == Date(timeIntervalSince1970: 0))
    }

    @GeneratedJSONCoding
    struct Measures: Codable, Equatable {
        var a: Double
        var b: Float?
        var c: [Double]
        var stamp: Date?
        var blob: Data?
    }

    @Test("non-conforming floats, dates as numbers and data as bytes read from the text under the decoder's strategies, as JSONDecoder reads them")
    func strategiesFromTheText() throws {
        var ours = JSONBodyDecoder()
        ours.nonConformingFloatDecodingStrategy = .convertFromString(positiveInfinity: "+inf", negativeInfinity: "-inf", nan: "nan")
        let foundation = JSONDecoder()
        foundation.nonConformingFloatDecodingStrategy = .convertFromString(positiveInfinity: "+inf", negativeInfinity: "-inf", nan: "nan")
        let floats = #"{"a":"+inf","b":"-inf","c":[1.5,"+inf","-inf",2]}"#
        let fast = try #require(Self.fromText(Measures.self, floats, decoder: ours))
        #expect(fast == (try foundation.decode(Measures.self, from: Data(floats.utf8))))
        #expect(fast.a == .infinity && fast.b == -.infinity && fast.c == [1.5, .infinity, -.infinity, 2])
        let nan = try #require(Self.fromText(Measures.self, #"{"a":"nan","b":"nan","c":["nan"]}"#, decoder: ours))
        #expect(nan.a.isNaN && nan.b?.isNaN == true && nan.c.count == 1 && nan.c[0].isNaN)
        // Names are compared with their escapes decoded.
        #expect(Self.fromText(Measures.self, #"{"a":"\u002Binf","c":[]}"#, decoder: ours)?.a == .infinity)
        // Another string, or no strategy, is the tape's, whose error is JSONDecoder's.
        for (text, decoder, foundationDecoder) in [(#"{"a":"inf","c":[]}"#, ours, foundation), (floats, JSONBodyDecoder(), JSONDecoder())] {
            #expect(Self.fromText(Measures.self, text, decoder: decoder) == nil)
            let tape = Self.fromTape(Measures.self, Array(text.utf8), decoder: decoder)
            let theirs = JSONBodyDecoderDifferentialTests.Outcome { try foundationDecoder.decode(Measures.self, from: Data(text.utf8)) }
            #expect(tape == theirs, "\(text)")
        }
        // Dates as seconds and milliseconds since 1970, data as an array of bytes.
        let stamped = #"{"a":1,"c":[],"stamp":1700000000.5,"blob":[104,105]}"#
        for (date, foundationDate) in [(JSONBodyDecoder.DateDecodingStrategy.secondsSince1970, JSONDecoder.DateDecodingStrategy.secondsSince1970),
                                       (.millisecondsSince1970, .millisecondsSince1970)] {
            var decoder = JSONBodyDecoder()
            decoder.dateDecodingStrategy = date
            decoder.dataDecodingStrategy = .deferredToData
            foundation.dateDecodingStrategy = foundationDate
            foundation.dataDecodingStrategy = .deferredToData
            let value = try #require(Self.fromText(Measures.self, stamped, decoder: decoder))
            #expect(value == (try foundation.decode(Measures.self, from: Data(stamped.utf8))))
            #expect(value.blob == Data("hi".utf8))
        }
    }

    @GeneratedJSONCoding
    struct Lists: Codable, Equatable {
        @GeneratedJSONCoding
        struct Point: Codable, Equatable { var x: Int; var label: String; var weights: [Double] }
        /// Too large for two to fit in the stack's room: read as any array grows.
        @GeneratedJSONCoding
        struct Wide: Codable, Equatable { var a, b, c, d, e, f, g, h, i: String }
        var strings: [String]
        var ints: [Int]
        var points: [Point]
        var grid: [[Int]]
        var wide: [Wide]
        var flags: [Bool]?
    }

    @Test("nested arrays of every length read as JSONDecoder reads them, and a bad element at any place stops the reader")
    func nestedArraysOfEveryLength() throws {
        // `bad`: which array (0 to 5) holds a bad element, and where.
        func lists(_ count: Int, bad: (array: Int, at: Int)? = nil) -> String {
            func items(_ array: Int, _ body: (Int) -> String, badly: String) -> String {
                "[" + (0..<count).map { bad?.array == array && bad?.at == $0 ? badly : body($0) }.joined(separator: ",") + "]"
            }
            // Strings past 15 bytes, so each is an allocation a slip in the moves would show.
            let strings = items(0, { "\"string number \($0) of the list\"" }, badly: "0")
            let ints = items(1, { "\($0 * 7)" }, badly: "\"7\"")
            let points = items(2, { #"{"x":\#($0),"label":"p\#($0)","weights":[\#($0).5,2]}"# }, badly: #"{"x":1}"#)
            let grid = items(3, { "[" + (0..<($0 % 20)).map(String.init).joined(separator: ",") + "]" }, badly: "[1,[2]]")
            let letters = "abcdefghi".map { #""\#($0)":"a string of some length \#($0)""# }.joined(separator: ",")
            let wide = items(4, { _ in "{" + letters + "}" }, badly: #"{"a":"x"}"#)
            let flags = items(5, { $0 % 3 == 0 ? "true" : "false" }, badly: "null")
            return #"{"strings":\#(strings),"ints":\#(ints),"points":\#(points),"grid":\#(grid),"wide":\#(wide),"flags":\#(flags)}"#
        }
        for count in Array(0...40) + [300] {
            let text = lists(count)
            let fast = try #require(Self.fromText(Lists.self, text), "\(count) elements")
            #expect(fast == (try JSONDecoder().decode(Lists.self, from: Data(text.utf8))), "\(count) elements")
            #expect(fast.strings.count == count && fast.grid.last?.count == (count > 0 ? (count - 1) % 20 : nil))
            guard count <= 40 else { continue }
            for array in 0..<6 {
                for at in Set([0, count / 2, count - 1, 15, 16, 17, 32]) where at >= 0 && at < count {
                    #expect(Self.fromText(Lists.self, lists(count, bad: (array, at))) == nil, "\(count) elements, array \(array) bad at \(at)")
                }
            }
        }
    }

    /// A recursive model: arrays nested past the depth read into the stack grow as any array does.
    @GeneratedJSONCoding
    struct Node: Codable, Equatable {
        var name: String
        var children: [Node]
    }

    @Test("a recursive model's arrays read the same at every depth")
    func recursiveArrays() throws {
        func node(_ depth: Int) -> String {
            let children = depth == 0 ? "" : (0..<2).map { _ in node(depth - 1) }.joined(separator: ",")
            return #"{"name":"level \#(depth) of the tree","children":[\#(children)]}"#
        }
        // Two children a level, twelve levels; then a spine 60 deep (past the stack's depth).
        let bushy = node(12)
        var spine = #"{"name":"leaf","children":[]}"#
        for level in 0..<60 { spine = #"{"name":"\#(level)","children":[\#(spine),{"name":"x","children":[]}]}"# }
        for text in [bushy, spine] {
            let fast = try #require(Self.fromText(Node.self, text))
            #expect(fast == (try JSONDecoder().decode(Node.self, from: Data(text.utf8))))
        }
    }

    /// An element that counts its live instances, to show that elements read before a failure
    /// are released. Only the test below makes any, so tests running alongside do not disturb it.
    final class Counted: Decodable, JSONTapeDecodable, Sendable {
        static let live = Mutex(0)
        let value: Int
        init(_ value: Int) {
            self.value = value
            Self.live.withLock { $0 += 1 }
        }
        deinit { Self.live.withLock { $0 -= 1 } }
        convenience init(from decoder: any Decoder) throws { self.init(try Int(from: decoder)) }
        convenience init(jsonTape value: borrowing JSONTapeValue) throws { self.init(try value.decode(Int.self)) }
        convenience init(jsonText reader: inout JSONTextReader) throws { self.init(try reader.decode(Int.self)) }
    }

    @Test("elements read before a failure in a nested array are released, wherever the failure falls and whatever it is")
    func elementsBeforeAFailureAreReleased() throws {
        // Counted is one reference: 32 fit in the stack's room, so 31 to 33 cross it.
        for count in [1, 5, 16, 17, 31, 32, 33, 40] {
            for bad in [nil] + Array(0..<count) {
                for failure in ["element", "separator", "end"] {
                    var items = (0..<count).map(String.init)
                    var tail = "]]"
                    if let bad {
                        switch failure {
                        case "element": items[bad] = "x"
                        case "separator": items[bad] += " 0"
                        default:
                            items.removeSubrange((bad + 1)...)
                            tail = ""
                        }
                    }
                    let text = "[[" + items.joined(separator: ",") + tail
                    let read = Self.fromText([[Counted]].self, text)
                    let what = "\(count) elements, \(failure) bad at \(String(describing: bad))"
                    #expect((read == nil) == (bad != nil), "\(what)")
                    #expect(read?.first?.map(\.value) == (bad == nil ? Array(0..<count) : nil), "\(what)")
                    _ = consume read
                    #expect(Counted.live.withLock { $0 } == 0, "\(what)")
                }
            }
        }
    }

    /// A hand-written reader that closes the outer object before it is done with the inner
    /// one, both with members passed over: the inner lookup must not reach for members the
    /// outer's close dropped.
    struct ClosedOutOfOrder: Decodable, Equatable, JSONTapeDecodable {
        struct Inner: Decodable, JSONTapeDecodable {
            var y: Int
            var k: Int
            init(jsonTape value: borrowing JSONTapeValue) throws {
                var object = try value.object()
                k = try object.decode(forKey: "k")
                y = try object.decode(forKey: "y")
            }
        }

        var a: Int
        var k: Int
        var y: Int?

        init(jsonTape value: borrowing JSONTapeValue) throws {
            var outer = try value.object()
            a = try outer.decode(forKey: "a")
            let inner = try outer.decode(Inner.self, forKey: "inner")
            (k, y) = (inner.k, inner.y)
        }

        init(jsonText reader: inout JSONTextReader) throws {
            var outer = try reader.object()
            a = try reader.decode(forKey: "a", in: &outer)
            guard try reader.seek("inner", in: &outer) else { throw JSONTextCursor.Miss() }
            var inner = try reader.object()
            k = try reader.decode(forKey: "k", in: &inner)
            try reader.close(&outer)
            y = try reader.decodeIfPresent(forKey: "y", in: &inner)
            try reader.close(&inner)
        }
    }

    @Test("a hand-written reader that closes objects out of order gets a value or the tape, never a trap")
    func objectsClosedOutOfOrder() throws {
        let text = #"{"z":0,"inner":{"y":0,"k":1},"a":5}"#
        let decoded = try JSONBodyDecoder().decode(ClosedOutOfOrder.self, from: Data(text.utf8))
        #expect(decoded.a == 5 && decoded.k == 1 && decoded.y == 0)
    }
}
#endif
