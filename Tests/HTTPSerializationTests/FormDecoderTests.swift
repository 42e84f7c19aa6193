import Foundation
import Testing
import HTTPSerialization
import SeededGenerators

@Suite("FormDecoder: models back from forms, query strings and multipart forms")
struct FormDecoderTests {
    struct Address: Codable, Equatable {
        var street: String
        var zip: Int
    }

    struct Model: Codable, Equatable {
        var name: String
        var age: Int
        var score: Double
        var active: Bool
        var joined: Date
        var tags: [String]
        var address: Address
        var nickname: String?
    }

    static func model(_ generator: inout SplitMix64) -> Model {
        func text() -> String { (0..<Int(generator.below(6))).map { _ in generator.token() }.joined() }
        return Model(name: text(), age: Int(generator.below(200_000)) - 100_000, score: Double(generator.below(10_000)) / 8,
                     active: generator.below(2) == 0, joined: Date(timeIntervalSince1970: Double(generator.below(4_000_000_000))),
                     tags: (0..<(Int(generator.below(3)) + 2)).map { _ in text() }, address: Address(street: text(), zip: Int(generator.below(99_999))),
                     nickname: generator.below(2) == 0 ? nil : text())
    }

    @Test("decode(encode(model)) == model under every array and key encoding, the writer's dates and booleans included")
    func roundTrips() throws {
        var generator = SplitMix64(seed: 0xF04D)
        for arrays in QueryStringStyle.ArrayEncoding.allCases {
            for keys in QueryStringStyle.KeyEncoding.allCases {
                let style = QueryStringStyle(arrayEncoding: arrays, keyEncoding: keys)
                let decoder = FormDecoder(style: style)
                for _ in 0..<200 {
                    let model = Self.model(&generator)
                    let body = queryString(from: try ParameterValue(encoding: model), style: style)
                    #expect(try decoder.decode(Model.self, from: body) == model, "\(arrays) \(keys): \(body)")
                }
            }
        }
    }

    struct Signup: Decodable, Equatable {
        var firstName: String
        var newsletter: Bool
        var ids: [Int]
        var since: Date?
    }

    @Test("checkboxes, snake_case keys, a single value as a list, indices under bracketed keys, ISO 8601 dates")
    func conveniences() throws {
        var decoder = FormDecoder(dateDecoding: .iso8601, keyDecoding: .convertFromSnakeCase)
        let signup = try decoder.decode(Signup.self, from: "first_name=Ann+Lee&newsletter=on&ids=7&since=2024-05-06T07:08:09Z")
        #expect(signup == Signup(firstName: "Ann Lee", newsletter: true, ids: [7], since: Date(timeIntervalSince1970: 1_714_979_289)))
        decoder.dateDecoding = .secondsSince1970
        #expect(try decoder.decode(Signup.self, from: "first_name=B&newsletter=off&ids[1]=2&ids[0]=1&since=0").ids == [1, 2])
        #expect(try decoder.decode(Signup.self, from: "first_name=B&newsletter=0&ids[]=1").since == nil)
    }

    @Test("a value that is not the model is a DecodingError naming its path; a malformed body a FormDecodingError")
    func errors() {
        #expect {
            _ = try FormDecoder().decode(Address.self, from: "street=Main&zip=abc")
        } throws: { error in
            guard case DecodingError.dataCorrupted(let context) = error else { return false }
            return context.codingPath.map(\.stringValue) == ["zip"]
        }
        #expect {
            _ = try FormDecoder().decode(Address.self, from: "street=Main")
        } throws: { error in
            if case DecodingError.keyNotFound(let key, _) = error { return key.stringValue == "zip" }
            return false
        }
        #expect(throws: FormDecodingError.malformedPercentEscape(offset: 7)) { _ = try FormDecoder().decode(Address.self, from: "street=%G0&zip=1") }
    }

    struct Line: Decodable {
        var sku: String
        var qty: Int
        /// Where the decoder said this line sits, as the model sees it.
        var path: [String]

        enum CodingKeys: String, CodingKey { case sku, qty }

        init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            sku = try container.decode(String.self, forKey: .sku)
            qty = try container.decode(Int.self, forKey: .qty)
            path = decoder.codingPath.map { $0.intValue.map { "#\($0)" } ?? $0.stringValue }
        }
    }

    struct Order: Decodable {
        var lines: [Line]
        var counts: [String: [Int]]
    }

    @Test("coding paths run through keys, list indices and dictionaries, for the model and in errors")
    func codingPaths() throws {
        let order = try FormDecoder().decode(Order.self, from: "lines[][sku]=a&lines[][qty]=1&lines[][sku]=b&lines[][qty]=2&counts[x][]=3")
        #expect(order.lines.map(\.path) == [["lines", "#0"], ["lines", "#1"]])
        #expect(order.counts == ["x": [3]])
        #expect {
            _ = try FormDecoder().decode(Order.self, from: "lines[][sku]=a&lines[][qty]=1&lines[][sku]=b&lines[][qty]=two&counts[x][]=3")
        } throws: { error in
            guard case DecodingError.dataCorrupted(let context) = error else { return false }
            return context.codingPath.map { $0.intValue.map { "#\($0)" } ?? $0.stringValue } == ["lines", "#1", "qty"]
        }
        #expect {
            _ = try FormDecoder().decode(Order.self, from: "lines[][sku]=a&lines[][qty]=1&counts[x][]=3&counts[x][]=z")
        } throws: { error in
            guard case DecodingError.dataCorrupted(let context) = error else { return false }
            return context.codingPath.map { $0.intValue.map { "#\($0)" } ?? $0.stringValue } == ["counts", "x", "#1"]
        }
        #expect {
            _ = try FormDecoder().decode(Order.self, from: "lines=flat")
        } throws: { error in
            guard case DecodingError.typeMismatch(_, let context) = error else { return false }
            return context.codingPath.map { $0.intValue.map { "#\($0)" } ?? $0.stringValue } == ["lines", "#0"]
        }
    }

    struct Tagged: Decodable, Equatable {
        var tag: String
        var tags: [String]
        var user: [String: String]
    }

    struct Sparse: Decodable, Equatable {
        var list: [String]
        var byIndex: [Int: String]
        var mixed: [String: String]
        var named: [String: String]
    }

    @Test("sparse indices decode as a list in index order or as a dictionary by index; mixed keys as a dictionary")
    func sparseAndMixedIndices() throws {
        let indexed = FormDecoder(style: QueryStringStyle(arrayEncoding: .indexed))
        let text = "list[9]=c&list[2]=b&list[0]=a&byIndex[7]=x&byIndex[3]=y&mixed[x]=1&mixed[0]=2&named[007]=z"
        #expect(try indexed.decode(Sparse.self, from: text)
            == Sparse(list: ["a", "b", "c"], byIndex: [7: "x", 3: "y"], mixed: ["x": "1", "0": "2"], named: ["007": "z"]))
        #expect(try ParameterValue(formPairs: FormPairs.parse(text), style: indexed.style) == [
            "list": ["9": "c", "2": "b", "0": "a"], "byIndex": ["7": "x", "3": "y"], "mixed": ["x": "1", "0": "2"], "named": ["007": "z"],
        ])
    }

    @Test("a one-element indexed list reads as one value, and hand-built pairs holding lists or dictionaries expand")
    func indexedSinglesAndHandBuiltContainers() throws {
        let indexed = FormDecoder(style: QueryStringStyle(arrayEncoding: .indexed))
        #expect(try indexed.decode(Tagged.self, from: "tag[0]=x&tags[0]=a&tags[1]=b&user[name]=Ann")
            == Tagged(tag: "x", tags: ["a", "b"], user: ["name": "Ann"]))
        let pairs = [
            QueryStringPair(field: "tag", value: "x"),
            QueryStringPair(field: "tags", value: ["a", "b"]),
            QueryStringPair(field: "user", value: ["name": "Ann"]),
        ]
        #expect(try FormDecoder().decode(Tagged.self, from: pairs) == Tagged(tag: "x", tags: ["a", "b"], user: ["name": "Ann"]))
        #expect(try ParameterValue(formPairs: pairs) == ["tag": "x", "tags": ["a", "b"], "user": ["name": "Ann"]])
        var deep: ParameterValue = "leaf"
        for _ in 0..<40 { deep = ["k": deep] }
        #expect(throws: FormDecodingError.nestedTooDeep(key: "x", limit: 32)) {
            try ParameterValue(formPairs: [QueryStringPair(field: "x", value: deep)])
        }
    }

    struct Upload: Decodable {
        var title: String
        var cover: MultipartFile
        var photos: [MultipartFile]
        var note: MultipartFile?
    }

    @Test("a multipart form decodes with its files as MultipartFile, several under one name as a list")
    func multipartModel() throws {
        var form = try MultipartFormData(boundary: "model")
        try form.appendPart(formData: Data("Holiday".utf8), name: "title")
        try form.appendPart(fileData: Data("cover".utf8), name: "cover", fileName: "cover.jpg", mimeType: "image/jpeg")
        try form.appendPart(fileData: Data("one".utf8), name: "photos[]", fileName: "1.jpg", mimeType: "image/jpeg")
        try form.appendPart(fileData: Data("two".utf8), name: "photos[]", fileName: "2.jpg", mimeType: "image/jpeg")
        let read = try MultipartForm.read(try form.encodedData(), contentType: form.contentType)
        let upload = try FormDecoder().decode(Upload.self, from: read)
        #expect(upload.title == "Holiday")
        #expect(try upload.cover.fileName == "cover.jpg" && upload.cover.data() == Data("cover".utf8))
        #expect(upload.photos.map(\.fileName) == ["1.jpg", "2.jpg"])
        #expect(upload.note == nil)
        #expect(throws: DecodingError.self) { _ = try FormDecoder().decode(Address.self, from: read) }
    }
}
