import Foundation
import HTTPSerialization
import MultipartKit
import SeededGenerators
import Testing

/// A list of models in a form: the `Encodable` encoders index its elements (`items[0][id]`), so
/// PHP and multipart-kit read the models that were sent, while trees and `[String: Any]` keep
/// AFNetworking's names (`items[][id]`).
@Suite("Lists of models in forms are named so PHP, multipart-kit and the package read them back")
struct ModelListNamingTests {
    struct Item: Codable, Equatable {
        var id: Int
        var label: String
    }

    struct Order: Codable, Equatable {
        var items: [Item]
        var tags: [String]
        var grid: [[Int]]
    }

    static let order = Order(items: [Item(id: 1, label: "a b"), Item(id: 2, label: "c")], tags: ["x", "y"], grid: [[1, 2], [3]])
    static let indexedText = "grid[0][]=1&grid[0][]=2&grid[1][]=3&items[0][id]=1&items[0][label]=a%20b&items[1][id]=2&items[1][label]=c&tags[]=x&tags[]=y"
        .replacingOccurrences(of: "[", with: "%5B").replacingOccurrences(of: "]", with: "%5D")

    @Test("FormEncoder and a request serializer given a model index lists of containers and keep [] for values; FormDecoder reads the model back")
    func encodersIndexContainers() throws {
        let text = try FormEncoder().encode(Self.order)
        #expect(text == Self.indexedText)
        #expect(try FormDecoder().decode(Order.self, from: text) == Self.order)
        #expect(try FormEncoder(style: .afNetworking).encode(Self.order) == text)

        let serializer = HTTPRequestSerializer()
        let get = try serializer.httpRequest(method: .get, url: URL(string: "http://h/orders")!, body: Self.order)
        #expect(get.request.path == "/orders?" + text)
        let post = try serializer.httpRequest(method: .post, url: URL(string: "http://h/orders")!, body: Self.order)
        #expect(post.body.data == Data(text.utf8))
    }

    @Test("a model in a list that writes nothing takes no index, so the next is read as the next element")
    func emptyModelsTakeNoIndex() throws {
        struct Filter: Codable, Equatable { var min: Int?; var max: Int? }
        struct Search: Codable, Equatable { var filters: [Filter] }
        let text = try FormEncoder().encode(Search(filters: [Filter(), Filter(min: 1), Filter(), Filter(max: 9)]))
        #expect(text == "filters%5B0%5D%5Bmin%5D=1&filters%5B1%5D%5Bmax%5D=9")
        #expect(try FormDecoder().decode(Search.self, from: text) == Search(filters: [Filter(min: 1), Filter(max: 9)]))
    }

    @Test("every serializer's model path writes the same names: the URLRequest form, and JSON and property-list queries")
    func everyModelPath() throws {
        let query = "/orders?" + Self.indexedText
        #expect(try HTTPRequestSerializer().request(method: "GET", urlString: "http://h/orders", body: Self.order).url?.absoluteString == "http://h" + query)
        #expect(try JSONRequestSerializer().httpRequest(method: "GET", urlString: "http://h/orders", body: Self.order).request.path == query)
        #expect(try PropertyListRequestSerializer().httpRequest(method: "GET", urlString: "http://h/orders", body: Self.order).request.path == query)
    }

    @Test("a ParameterValue tree or a [String: Any] keeps AFNetworking's names, also through a serializer; other array encodings are unchanged")
    func treesKeepAFNetworkingNames() throws {
        let tree = try ParameterValue(encoding: Self.order)
        let afText = "items%5B%5D%5Bid%5D=1&items%5B%5D%5Blabel%5D=a%20b&items%5B%5D%5Bid%5D=2&items%5B%5D%5Blabel%5D=c"
        #expect(queryString(from: tree).contains(afText))
        let any: [String: Any] = ["items": [["id": 1, "label": "a b"], ["id": 2, "label": "c"]]]
        #expect(queryString(from: try ParameterValue(any: any)) == afText)
        let serialized = try HTTPRequestSerializer().httpRequest(method: .get, url: URL(string: "http://h/o")!, parameters: tree)
        #expect(serialized.request.path?.contains(afText) == true)
        // A style that is not AFNetworking's [] is written as chosen.
        let indexed = QueryStringStyle(arrayEncoding: .indexed)
        #expect(try FormEncoder(style: indexed).encode(Self.order) == queryString(from: tree, style: indexed))
        let repeated = QueryStringStyle(arrayEncoding: .repeatedKeys)
        #expect(try FormEncoder(style: repeated).encode(Self.order) == queryString(from: tree, style: repeated))
        // The new encoding on a tree writes what the model encoders write.
        #expect(queryString(from: tree, style: QueryStringStyle(arrayEncoding: .bracketsIndexingContainers)) == Self.indexedText)
    }

    @Test("MultipartFormEncoder names a list of models by index; multipart-kit, MultipartFormDecoder and FormDecoder read the models sent")
    func multipartReadsBack() throws {
        let form = try MultipartFormEncoder().encode(Self.order, boundary: "kit-boundary")
        let body = try form.encodedData()
        let received = try MultipartForm.read(body, contentType: form.contentType)
        #expect(received.fields.map(\.name) == ["grid[0][]", "grid[0][]", "grid[1][]", "items[0][id]", "items[0][label]",
                                                "items[1][id]", "items[1][label]", "tags[]", "tags[]"])
        #expect(try FormDataDecoder().decode(Order.self, from: Array(body), boundary: "kit-boundary") == Self.order)
        #expect(try MultipartFormDecoder().decode(Order.self, from: body, contentType: form.contentType) == Self.order)
        #expect(try FormDecoder().decode(Order.self, from: received) == Self.order)
        // AFNetworking's names, which multipart-kit reads as one-key objects, from a tree.
        var afForm = try MultipartFormData(boundary: "kit-boundary")
        try afForm.appendParts(from: try ParameterValue(encoding: Self.order))
        #expect(throws: DecodingError.self) { try FormDataDecoder().decode(Order.self, from: Array(try afForm.encodedData()), boundary: "kit-boundary") }
    }

    @Test("PHP's parse_str reads seeded lists of models written by FormEncoder as the models sent", .enabled(if: PHP.path != nil || PHP.required))
    func phpReadsTheModels() throws {
        var generator = SplitMix64(seed: 0x11575)
        var orders: [Order] = [Self.order]
        while orders.count < 150 {
            let items = (0..<generator.range(0, 4)).map { _ in Item(id: generator.range(-9, 999), label: generator.str(0, 6)) }
            let tags = (0..<generator.range(0, 3)).map { _ in generator.str(1, 5) }
            let grid = (0..<generator.range(0, 3)).map { _ in (0..<generator.range(1, 3)).map { _ in generator.range(0, 9) } }
            orders.append(Order(items: items, tags: tags, grid: grid))
        }
        let queries = try orders.map { try FormEncoder().encode($0) }
        let output = try PHP.run(PHP.normalize + PHP.reader, input: queries.joined(separator: "\n") + "\n")
        let lines = output.split(separator: "\n")
        #expect(lines.count == orders.count)
        var decoder = FormDecoder()
        decoder.absentFieldsAreEmpty = true
        for ((line, order), query) in zip(zip(lines, orders), queries) {
            let record = try ParameterValue(json: Data(line.utf8))
            guard case .dictionary(let fields) = record, let parsed = fields["parsed"] else {
                Issue.record("PHP printed \(line)")
                continue
            }
            // What PHP read, list by list (an empty list sends nothing, so PHP has no key).
            let items = order.items.map { ParameterValue.dictionary(["id": .string(String($0.id)), "label": .string($0.label)]) }
            if !order.items.isEmpty { #expect(Self.entry(parsed, "items") == .array(ParameterArray(items)), "\(line)") }
            if !order.tags.isEmpty { #expect(Self.entry(parsed, "tags") == .array(ParameterArray(order.tags.map(ParameterValue.string))), "\(line)") }
            let grid = order.grid.map { row in ParameterValue.array(ParameterArray(row.map { .string(String($0)) })) }
            if !order.grid.isEmpty { #expect(Self.entry(parsed, "grid") == .array(ParameterArray(grid)), "\(line)") }
            #expect(try decoder.decode(Order.self, from: query) == order, "\(query)")
        }
    }

    static func entry(_ tree: ParameterValue, _ key: String) -> ParameterValue? {
        guard case .dictionary(let entries) = tree else { return nil }
        return entries[key]
    }
}
