#if Macros
import Foundation
import HTTPSerializationMacros
import SeededGenerators
import Testing

/// Models with `@GeneratedJSONCoding` readers, through the seeded differential documents: the
/// generated code gives `JSONDecoder`'s values and errors, and is the code that runs.
@Suite("@GeneratedJSONCoding readers: JSONDecoder's values and errors")
struct GeneratedReaderTests {
    @GeneratedJSONCoding
    enum Level: String, Codable, Equatable { case low, high }

    @GeneratedJSONCoding
    struct Child: Codable, Equatable {
        var key: String
        var value: Int?
        var nested: [Child]?
    }

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
        var child: Child?
        var children: [JSONTapeDecodableTests.PlainChild]
        var counts: [String: Int]?
        var level: Level?
        var big: Int64?
        var huge: UInt64?
    }

    @GeneratedJSONCoding
    struct SnakeModel: Codable, Equatable {
        var userID: Int?
        var userName: String
        var createdAt: Double?
        var nestedValue: [String: Int]?
        var __private_: Bool?
    }

    @Test("5,000 seeded documents through generated readers decode as JSONDecoder decodes them")
    func modelsMatchJSONDecoder() {
        JSONBodyDecoderDifferentialTests.compare(Model.self, rounds: 5_000, seed: 4_111) { ModelDocuments.model(&$0) }
        JSONBodyDecoderDifferentialTests.compare([Model].self, rounds: 500, seed: 4_112) { random in
            "[" + (0..<random.range(1, 3)).map { _ in ModelDocuments.model(&random) }.joined(separator: ",") + "]"
        }
    }

    @Test("generated readers under the snake-case strategy match JSONDecoder")
    func snakeCaseMatchesJSONDecoder() {
        var ours = JSONBodyDecoder()
        ours.keyDecodingStrategy = .convertFromSnakeCase
        let foundation = JSONDecoder()
        foundation.keyDecodingStrategy = .convertFromSnakeCase
        JSONBodyDecoderDifferentialTests.compare(SnakeModel.self, rounds: 2_000, seed: 4_113, ours: ours, foundation: foundation) {
            ModelDocuments.snake(&$0)
        }
    }

    /// Coding keys rename and leave out; a `let` with a value and a computed property are not read.
    @GeneratedJSONCoding
    public struct Renamed: Codable, Equatable {
        public var id: Int
        var title: String
        var draft = false
        let kind = "post"
        var shout: String { title.uppercased() }
        enum CodingKeys: String, CodingKey {
            case id = "post_id", title = "the \"title\""
        }
    }

    @Test("coding keys, constants and computed properties are honoured as synthesized Codable honours them")
    func codingKeysAndLeftOutProperties() throws {
        let text = Data(#"{"post_id":3,"the \"title\"":"hi","draft":true,"kind":"other"}"#.utf8)
        let ours = try JSONBodyDecoder().decode(Renamed.self, from: text)
        #expect(ours == (try JSONDecoder().decode(Renamed.self, from: text)))
        #expect(ours.id == 3 && ours.title == "hi" && !ours.draft && ours.kind == "post")
        let generated: any (JSONTapeDecodable & JSONTapeEncodable).Type = Renamed.self
        #expect(ObjectIdentifier(generated) == ObjectIdentifier(Renamed.self))
        let missing = Data(#"{"post_id":3}"#.utf8)
        let error = JSONBodyDecoderDifferentialTests.Outcome { try JSONBodyDecoder().decode(Renamed.self, from: missing) }
        #expect(error == JSONBodyDecoderDifferentialTests.Outcome { try JSONDecoder().decode(Renamed.self, from: missing) })
        #expect(error == .error(kind: "keyNotFound", path: ["the \"title\""], type: ""))
    }

    /// Properties whose types are not written (`var count = 0`), implicitly unwrapped and
    /// doubly optional ones, in a generic model: the reader names each type from the property.
    @GeneratedJSONCoding
    struct Inferred<Item: Codable & Equatable & JSONTapeDecodable>: Codable, Equatable {
        var count = 0
        var label = "none"
        var item: Item
        var items: [Item]?
        var forced: Int!
        var twice: Int??
    }

    /// A generic parameter named as the generated code's helpers once named theirs.
    @GeneratedJSONCoding
    struct Page<Value: Codable & Equatable & JSONTapeDecodable>: Codable, Equatable {
        @GeneratedJSONCoding
        struct Cursor: Codable, Equatable { var next: String? }
        var values: [Value]
        var cursor: Cursor
    }

    @Test("properties without written types (not optionals: those read as required), implicitly unwrapped, doubly optional or generic read as synthesized Codable reads them, from the text and the tape")
    func propertiesWhoseTypesAreNotWritten() throws {
        let documents = [
            #"{"count":3,"label":"x","item":"a","items":["b","c"],"forced":4,"twice":5}"#,
            #"{"count":0,"label":"","item":"a","forced":null,"twice":null}"#,
            #"{"item":"a","count":1,"label":"y"}"#,
            #"{"count":"3","label":"x","item":"a"}"#,
            #"{"count":3,"label":"x","item":1}"#,
        ]
        for (index, text) in documents.enumerated() {
            let data = Data(text.utf8)
            let expected = JSONBodyDecoderDifferentialTests.Outcome { try JSONDecoder().decode(Inferred<String>.self, from: data) }
            #expect(JSONBodyDecoderDifferentialTests.Outcome { try JSONBodyDecoder().decode(Inferred<String>.self, from: data) } == expected, "\(text)")
            #expect(JSONBodyDecoderDifferentialTests.Outcome { try JSONBodyDecoder().decode(Inferred<String>.self, from: data, atKeyPath: JSONKeyPath([])) } == expected, "\(text)")
            // The first two read from the text, every property on the way.
            if index < 2 {
                #expect(GeneratedTextReaderTests.fromText(Inferred<String>.self, text) == (try JSONDecoder().decode(Inferred<String>.self, from: data)), "\(text)")
            }
        }
        let first = try JSONBodyDecoder().decode(Inferred<String>.self, from: Data(documents[0].utf8))
        #expect(first.count == 3 && first.items == ["b", "c"] && first.forced == 4 && first.twice == .some(.some(5)))
        let page = #"{"values":[1,2,3],"cursor":{"next":"n"}}"#
        #expect(GeneratedTextReaderTests.fromText(Page<Int>.self, page) == Page(values: [1, 2, 3], cursor: .init(next: "n")))
        #expect(try JSONBodyDecoder().decode(Page<Int>.self, from: Data(page.utf8), atKeyPath: JSONKeyPath([])) == Page(values: [1, 2, 3], cursor: .init(next: "n")))
    }
}
#endif
