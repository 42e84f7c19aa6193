import Foundation
import HTTPSerialization
import HTTPTypes
import SeededGenerators
import Testing

@Suite("Decoding at a key path: the payload inside an envelope, as Moya's map(_:atKeyPath:)")
struct KeyPathDecodingTests {
    struct Item: Codable, Equatable {
        var id: Int
        var name: String
        var createdAt: Date?
    }

    /// What a caller writes without key paths: a model of the envelope that holds only the payload.
    struct Envelope: Decodable {
        struct Payload: Decodable { var items: [Item] }
        var data: Payload
    }

    static let body = Data(#"""
    {"meta": {"page": 1, "skip": [1, {"x": [true, null]}]},
     "data": {"items": [{"id": 1, "name": "one"}, {"id": 2, "name": "two", "extra": {"n": 1}}], "total": 2},
     "trailer": "after"}
    """#.utf8)

    static let head = HTTPResponse(status: .ok, headerFields: [.contentType: "application/json"])

    @Test("JSONBodyDecoder at a key path decodes what JSONDecoder decodes through a wrapper model")
    func matchesWrapperModel() throws {
        let ours = try JSONBodyDecoder().decode([Item].self, from: Self.body, atKeyPath: "data.items")
        #expect(ours == (try JSONDecoder().decode(Envelope.self, from: Self.body)).data.items)
        #expect(try JSONBodyDecoder().decode(Item.self, from: Self.body, atKeyPath: "data.items[1]").name == "two")
        #expect(try JSONBodyDecoder().decode(Int.self, from: Self.body, atKeyPath: "data.total") == 2)
        #expect(try JSONBodyDecoder().decode(String.self, from: Self.body, atKeyPath: "data.items.0.name") == "one")
    }

    @Test("an error inside the payload has the coding path JSONDecoder gives through a wrapper model")
    func codingPathsStartWithTheKeyPath() throws {
        let body = Data(#"{"data": {"items": [{"id": 1, "name": "one"}, {"id": "2", "name": "two"}]}}"#.utf8)
        func path(_ error: any Error) -> [String] {
            switch error as? DecodingError {
            case .typeMismatch(_, let context)?, .valueNotFound(_, let context)?, .keyNotFound(_, let context)?, .dataCorrupted(let context)?:
                return context.codingPath.map(\.stringValue)
            default: return ["not a DecodingError: \(error)"]
            }
        }
        let ours = #expect(throws: DecodingError.self) { try JSONBodyDecoder().decode([Item].self, from: body, atKeyPath: "data.items") }
        let theirs = #expect(throws: DecodingError.self) { try JSONDecoder().decode(Envelope.self, from: body) }
        #expect(ours.map(path) == ["data", "items", "Index 1", "id"])
        #expect(ours.map(path) == theirs.map(path))
        // A key that indexed an array is named as the index it is.
        let indexed = #expect(throws: DecodingError.self) { try JSONBodyDecoder().decode(Item.self, from: body, atKeyPath: "data.items.1") }
        #expect(indexed.map(path) == ["data", "items", "Index 1", "id"])
    }

    @Test("a repeated key follows the first, as JSONDecoder decodes it; path keys are matched as written, the strategy applies inside")
    func repeatedKeysAndKeyStrategies() throws {
        let body = Data(#"{"data_set": {"item_count": 1}, "data_set": {"item_count": 2}}"#.utf8)
        struct Counted: Decodable { var itemCount: Int }
        struct Wrapper: Decodable { var dataSet: Counted }
        var decoder = JSONBodyDecoder()
        decoder.keyDecodingStrategy = .convertFromSnakeCase
        let foundation = JSONDecoder()
        foundation.keyDecodingStrategy = .convertFromSnakeCase
        let ours = try decoder.decode(Counted.self, from: body, atKeyPath: "data_set")
        #expect(ours.itemCount == (try foundation.decode(Wrapper.self, from: body)).dataSet.itemCount)
        #expect(ours.itemCount == 1)
        #expect(throws: JSONKeyPathError.self) { try decoder.decode(Counted.self, from: body, atKeyPath: "dataSet") }
    }

    @Test("a path that leads nowhere is a JSONKeyPathError; a body that is not JSON is the reader's error, as without a path")
    func badPathsAndBadBodies() {
        #expect(throws: JSONKeyPathError(keyPath: "data.items[5]", found: 2, reason: .indexOutOfRange(5, count: 2))) {
            try JSONBodyDecoder().decode(Item.self, from: Self.body, atKeyPath: "data.items[5]")
        }
        #expect(throws: JSONKeyPathError(keyPath: "data.total.count", found: 2, reason: .notAContainer(found: "a number"))) {
            try JSONBodyDecoder().decode(Int.self, from: Self.body, atKeyPath: "data.total.count")
        }
        let corrupted = #expect(throws: DecodingError.self) {
            try JSONBodyDecoder().decode(Item.self, from: Data(#"{"data": {"items": [}"#.utf8), atKeyPath: "data")
        }
        guard case .dataCorrupted(let context)? = corrupted else { Issue.record("got \(String(describing: corrupted))"); return }
        #expect(context.underlyingError is JSONReadingError)
    }

    @Test("DecodableResponseSerializer(atKeyPath:) decodes the payload with our decoder and with JSONDecoder alike")
    func serializerWithKeyPath() throws {
        let ours = DecodableResponseSerializer([Item].self, atKeyPath: "data.items")
        let foundation = DecodableResponseSerializer([Item].self, decoder: JSONDecoder(), atKeyPath: "data.items")
        let expected = try JSONDecoder().decode(Envelope.self, from: Self.body).data.items
        #expect(try ours.responseObject(for: Self.head, data: Self.body) == expected)
        #expect(try foundation.responseObject(for: Self.head, data: Self.body) == expected)
        // JSONDecoder's dates, through the default: the payload is written back and decoded by it.
        let dated = Data(#"{"data": {"items": [{"id": 1, "name": "d", "createdAt": "2024-05-06T07:08:09Z"}]}}"#.utf8)
        let iso = JSONDecoder()
        iso.dateDecodingStrategy = .iso8601
        var ourISO = JSONBodyDecoder()
        ourISO.dateDecodingStrategy = .iso8601
        let viaDefault = try DecodableResponseSerializer([Item].self, decoder: iso, atKeyPath: "data.items").responseObject(for: Self.head, data: dated)
        let viaOurs = try DecodableResponseSerializer([Item].self, decoder: ourISO, atKeyPath: "data.items").responseObject(for: Self.head, data: dated)
        #expect(viaDefault == viaOurs)
        #expect(viaDefault.first?.createdAt == Date(timeIntervalSince1970: 1_714_979_289))
    }

    @Test("another decoder gets the value's own text: scalars, repeated keys and long numbers as JSONDecoder reads them through a wrapper")
    func defaultPassesTheValuesText() throws {
        let decoder = JSONDecoder()
        #expect(try decoder.decode(Int.self, from: Self.body, atKeyPath: "data.total") == 2)
        #expect(try DecodableResponseSerializer(String.self, decoder: decoder, atKeyPath: "trailer").responseObject(for: Self.head, data: Self.body) == "after")
        struct A: Decodable, Equatable { var a: Int }
        struct WrapA: Decodable { var data: A }
        let repeated = Data(#"{"data": {"a": 1, "a": 2}}"#.utf8)
        #expect(try decoder.decode(A.self, from: repeated, atKeyPath: "data") == (try decoder.decode(WrapA.self, from: repeated)).data)
        struct P: Decodable { var p: Decimal }
        struct WrapP: Decodable { var d: P }
        let long = Data(#"{"d": {"p": 0.12345678901234567890123}}"#.utf8)
        #expect(try decoder.decode(Decimal.self, from: long, atKeyPath: "d.p") == (try decoder.decode(WrapP.self, from: long)).d.p)
        let text = try ParameterValue.jsonText(of: Data(#"{"x": {"s": "a\"b\u00e9", "n": -1.50e3, "e": [], "o": {}, "l": [true, false, null]}}"#.utf8),
                                               atKeyPath: "x", maximumDepth: 8).get()
        #expect(String(decoding: text, as: UTF8.self) == #"{"s":"a\"b\u00e9","n":-1.50e3,"e":[],"o":{},"l":[true,false,null]}"#)
    }

    @Test("the serializer reports a missing path as a serialization failure over the JSONKeyPathError, and unreadable JSON as before")
    func serializerErrors() {
        for decoder in [JSONBodyDecoder() as any ResponseBodyDecoder, JSONDecoder()] {
            let serializer = DecodableResponseSerializer([Item].self, decoder: decoder, atKeyPath: "data.records")
            let error = #expect(throws: ResponseSerializationError.self) { try serializer.responseObject(for: Self.head, data: Self.body) }
            guard case .responseSerializationFailed(_, let context, let underlying, _)? = error else {
                Issue.record("got \(String(describing: error))")
                continue
            }
            #expect(underlying?.error as? JSONKeyPathError == JSONKeyPathError(keyPath: "data.records", found: 1, reason: .keyNotFound("records")))
            #expect(context.data == Self.body)
            let unreadable = #expect(throws: ResponseSerializationError.self) {
                try serializer.responseObject(for: Self.head, data: Data(#"{"data": "#.utf8))
            }
            guard case .unreadableJSON? = unreadable else { Issue.record("got \(String(describing: unreadable))"); continue }
        }
    }

    @Test("JSONResponseSerializer.keyPath gives the Any graph JSONSerialization gives there, scalars too, with nulls removed when asked")
    func anyGraphAtKeyPath() throws {
        var serializer = JSONResponseSerializer()
        serializer.keyPath = "data.items"
        let items = try #require(try serializer.responseObject(for: Self.head, data: Self.body) as? [[String: Any]])
        let whole = try #require(try JSONSerialization.jsonObject(with: Self.body) as? [String: Any])
        let expected = try #require((whole["data"] as? [String: Any])?["items"] as? [Any])
        #expect(NSArray(array: items).isEqual(to: expected))

        serializer.keyPath = "trailer"
        #expect(try serializer.responseObject(for: Self.head, data: Self.body) as? String == "after")

        serializer.keyPath = "meta.skip[1]"
        serializer.removesKeysWithNullValues = true
        #expect(NSDictionary(dictionary: try #require(try serializer.responseObject(for: Self.head, data: Self.body) as? [String: Any])).isEqual(to: ["x": [true]]))

        // Mutable containers hand the document to JSONSerialization; the path is followed there.
        serializer.readingOptions = .mutableContainers
        serializer.removesKeysWithNullValues = false
        serializer.keyPath = "meta"
        #expect((try serializer.responseObject(for: Self.head, data: Self.body) as? [String: Any])?["page"] as? Int == 1)

        // An empty path is the whole document: a bare scalar still needs .fragmentsAllowed.
        serializer.keyPath = ""
        serializer.readingOptions = []
        #expect(throws: ResponseSerializationError.self) { try serializer.responseObject(for: Self.head, data: Data("7".utf8)) }
        serializer.readingOptions = .mutableContainers
        serializer.keyPath = "meta.page.x"
        let error = #expect(throws: ResponseSerializationError.self) { try serializer.responseObject(for: Self.head, data: Self.body) }
        guard case .responseSerializationFailed(_, _, let underlying, _)? = error else { Issue.record("got \(String(describing: error))"); return }
        #expect(underlying?.error as? JSONKeyPathError == JSONKeyPathError(keyPath: "meta.page.x", found: 2, reason: .notAContainer(found: "a number")))
    }

    /// A seeded document: objects, arrays and scalars, keys from a small set so paths hit and miss.
    static func randomValue(_ generator: inout SplitMix64, depth: Int) -> String {
        let keys = ["a", "b", "c", "0", "1", "k\\u00e9"]
        switch depth > 3 ? generator.below(4) : generator.below(7) {
        case 0: return "\(Int(generator.below(2000)) - 1000)"
        case 1: return "\"s\(generator.below(100))\""
        case 2: return ["true", "false", "null"][Int(generator.below(3))]
        case 3: return "1.5e\(generator.below(5))"
        case 4, 5:
            let count = Int(generator.below(5))
            return "{" + (0..<count).map { _ in "\"\(keys[Int(generator.below(UInt64(keys.count)))])\": \(randomValue(&generator, depth: depth + 1))" }.joined(separator: ",") + "}"
        default:
            let count = Int(generator.below(5))
            return "[" + (0..<count).map { _ in randomValue(&generator, depth: depth + 1) }.joined(separator: ",") + "]"
        }
    }

    /// The value at `path` in `value`, found by walking the whole tree: what a key path must agree with.
    static func walk(_ value: ParameterValue, _ path: JSONKeyPath) -> Result<ParameterValue, JSONKeyPathError> {
        var current = value
        for (position, component) in path.components.enumerated() {
            let reason: JSONKeyPathError.Reason
            switch (current, component) {
            case (.dictionary(let dictionary), .key(let key)):
                if let next = dictionary[key] { current = next; continue }
                reason = .keyNotFound(key)
            case (.dictionary, .index): reason = .notAContainer(found: "an object")
            case (.array(let array), _):
                guard let index = JSONKeyPath.arrayIndex(component) else { reason = .notAContainer(found: "an array"); break }
                if index >= 0 && index < array.count { current = array[index]; continue }
                reason = .indexOutOfRange(index, count: array.count)
            case (.string, _): reason = .notAContainer(found: "a string")
            case (.int, _), (.double, _), (.decimal, _): reason = .notAContainer(found: "a number")
            case (.bool, _): reason = .notAContainer(found: "a boolean")
            default: reason = .notAContainer(found: "null")
            }
            return .failure(JSONKeyPathError(keyPath: path, found: position, reason: reason))
        }
        return .success(current)
    }

    @Test("seeded documents and paths: the value or error at a key path is what walking the whole tree finds")
    func seededDifferential() throws {
        var generator = SplitMix64(seed: 40)
        let components: [JSONKeyPath.Component] = [.key("a"), .key("b"), .key("c"), .key("0"), .key("1"), .key("k\u{E9}"), .index(0), .index(1), .index(2)]
        var hits = 0
        for _ in 0..<2_000 {
            let text = "{" + (0..<3).map { _ in "\"\(["a", "b", "c"][Int(generator.below(3))])\": \(Self.randomValue(&generator, depth: 1))" }.joined(separator: ",") + "}"
            let data = Data(text.utf8)
            let whole = try ParameterValue(json: data)
            let path = JSONKeyPath((0..<Int(1 + generator.below(4))).map { _ in components[Int(generator.below(UInt64(components.count)))] })
            switch Self.walk(whole, path) {
            case .success(let expected):
                hits += 1
                #expect(try ParameterValue(json: data, atKeyPath: path) == expected, "\(path) in \(text)")
                // The value's text, cut from the tape, reads back to the same value.
                let cut = try ParameterValue.jsonText(of: data, atKeyPath: path, repeatedKey: .last, maximumDepth: 64).get()
                #expect(try ParameterValue(json: cut) == expected, "\(path) in \(text)")
            case .failure(let expected):
                #expect(throws: expected, "\(path) in \(text)") { try ParameterValue(json: data, atKeyPath: path) }
            }
        }
        #expect(hits > 100)
    }
}
