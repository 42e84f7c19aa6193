#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Testing
@testable import HTTPSerializationCore

@Suite("Query strings")
struct QueryStringStyleTests {
    static let classic: ParameterValue = [
        "name": "bang",
        "phone": ["mobile": "xx", "home": "xx"],
        "families": ["father", "mother"],
        "nums": .set([1, 2]),
    ]

    @Test("AFNetworking's classic nested example encodes exactly")
    func classicExample() {
        #expect(queryString(from: Self.classic)
            == "families%5B%5D=father&families%5B%5D=mother&name=bang&nums=1&nums=2&phone%5Bhome%5D=xx&phone%5Bmobile%5D=xx")
    }

    @Test("pairs carry unescaped fields and the original values, in output order")
    func pairsOfClassicExample() {
        let pairs = queryStringPairs(from: Self.classic)
        #expect(pairs.map(\.field) == ["families[]", "families[]", "name", "nums", "nums", "phone[home]", "phone[mobile]"])
        #expect(pairs.map(\.value) == ["father", "mother", "bang", 1, 2, "xx", "xx"])
        #expect(pairs.map { $0.urlEncodedString() }.joined(separator: "&") == queryString(from: Self.classic))
    }

    @Test("keys sort at every level and array order is never changed")
    func sortingRules() {
        let value: ParameterValue = ["b": ["z": 1, "a": 2], "a": [3, 1, 2]]
        #expect(queryString(from: value) == "a%5B%5D=3&a%5B%5D=1&a%5B%5D=2&b%5Ba%5D=2&b%5Bz%5D=1")
    }

    @Test("arrays of dictionaries and nested arrays use AF's bracket paths")
    func nestedContainers() {
        let value: ParameterValue = ["a": [["x": 1, "y": 2], [[3]]]]
        #expect(queryStringPairs(from: value).map(\.field) == ["a[][x]", "a[][y]", "a[][][]"])
    }

    @Test("brackets indexing containers write [] for values and an index for dictionaries and lists, and read back mixed lists in order")
    func bracketsIndexingContainers() throws {
        let style = QueryStringStyle(arrayEncoding: .bracketsIndexingContainers)
        let value: ParameterValue = ["a": ["v", ["x": 1, "y": 2], [3, 4], "w"], "b": ["p", "q"]]
        #expect(queryStringPairs(from: value, style: style).map(\.field) == ["a[]", "a[1][x]", "a[1][y]", "a[2][]", "a[2][]", "a[]", "b[]", "b[]"])
        let read = try ParameterValue(formPairs: FormPairs.parse(queryString(from: value, style: style)), style: style)
        #expect(read == ["a": ["v", ["x": "1", "y": "2"], ["3", "4"], "w"], "b": ["p", "q"]])
        // An element that writes nothing takes no index, as PHP's [] takes none for it; a
        // set's members are written with [] and each counts as an element.
        let sparse: ParameterValue = ["f": [.dictionary([:]), ["min": 1], .array([]), .set(["s", "t"]), ["max": 2], ["n": .null]]]
        var dropping = style
        dropping.nullEncoding = .dropKey
        #expect(queryStringPairs(from: sparse, style: dropping).map(\.field) == ["f[0][min]", "f[]", "f[]", "f[3][max]"])
        #expect(queryStringPairs(from: sparse, style: style).map(\.field) == ["f[0][min]", "f[]", "f[]", "f[3][max]", "f[4][n]"])
        // The style the Encodable encoders use: only AFNetworking's [] changes.
        #expect(QueryStringStyle.afNetworking.forEncodableModels.arrayEncoding == .bracketsIndexingContainers)
        #expect(QueryStringStyle(arrayEncoding: .indexed).forEncodableModels.arrayEncoding == .indexed)
        #expect(QueryStringStyle(arrayEncoding: .repeatedKeys).forEncodableModels.arrayEncoding == .repeatedKeys)
    }

    @Test("a Float parameter is written with the Float's own shortest digits")
    func floatDigits() {
        #expect(queryString(from: ["a": ParameterValue(Float(0.1)), "b": ParameterValue(Float(1e-5)), "c": ParameterValue(Float(3))])
            == "a=0.1&b=1e-05&c=3")
        #expect(queryString(from: ["a": .double(Double(Float(0.1)))]) == "a=0.10000000149011612")
    }

    @Test("indexed arrays name each element so arrays of dictionaries round-trip")
    func indexedArrays() {
        var style = QueryStringStyle.afNetworking
        style.arrayEncoding = .indexed
        let value: ParameterValue = ["a": [["x": 1], ["x": 2]], "b": ["p", "q"]]
        #expect(queryString(from: value, style: style) == "a%5B0%5D%5Bx%5D=1&a%5B1%5D%5Bx%5D=2&b%5B0%5D=p&b%5B1%5D=q")
    }

    @Test("repeated keys drop the brackets")
    func repeatedKeys() {
        var style = QueryStringStyle.afNetworking
        style.arrayEncoding = .repeatedKeys
        #expect(queryString(from: ["id": [3, 1, 2]], style: style) == "id=3&id=1&id=2")
    }

    @Test("dotted keys join nested dictionaries with dots")
    func dottedKeys() {
        var style = QueryStringStyle.afNetworking
        style.keyEncoding = .dotted
        style.arrayEncoding = .indexed
        let value: ParameterValue = ["user": ["address": ["city": "Oslo"], "tags": [["k": "v"]]]]
        #expect(queryString(from: value, style: style) == "user.address.city=Oslo&user.tags%5B0%5D.k=v")
    }

    @Test("literal booleans")
    func literalBooleans() {
        var style = QueryStringStyle.afNetworking
        style.boolEncoding = .literal
        #expect(queryString(from: ["a": true, "b": false], style: style) == "a=true&b=false")
    }

    @Test("plus for space, while a literal plus stays escaped")
    func plusForSpace() {
        var style = QueryStringStyle.afNetworking
        style.spaceEncoding = .plus
        #expect(queryString(from: ["a b": "c d+e%20"], style: style) == "a+b=c+d%2Be%2520")
    }

    @Test("null as bare key, empty value, or dropped")
    func nullEncodings() {
        let value: ParameterValue = ["a": nil, "b": 1]
        var style = QueryStringStyle.afNetworking
        #expect(queryString(from: value, style: style) == "a&b=1")
        style.nullEncoding = .emptyValue
        #expect(queryString(from: value, style: style) == "a=&b=1")
        style.nullEncoding = .dropKey
        #expect(queryString(from: value, style: style) == "b=1")
    }

    @Test("each date encoding writes the documented text")
    func dateEncodings() {
        let date = Date(timeIntervalSince1970: 978_307_200)
        let half = Date(timeIntervalSince1970: 978_307_200.5)
        var style = QueryStringStyle.afNetworking
        #expect(queryString(from: ["d": .date(date)], style: style) == "d=2001-01-01%2000%3A00%3A00%20%2B0000")
        style.dateEncoding = .secondsSince1970
        #expect(queryString(from: ["d": .date(date), "e": .date(half)], style: style) == "d=978307200&e=978307200.5")
        style.dateEncoding = .millisecondsSince1970
        #expect(queryString(from: ["d": .date(half)], style: style) == "d=978307200500")
        style.dateEncoding = .iso8601
        #expect(queryString(from: ["d": .date(date)], style: style) == "d=2001-01-01T00%3A00%3A00Z")
        #expect(queryString(from: ["d": .date(half)], style: style) == "d=2001-01-01T00%3A00%3A00.500Z")
        style.dateEncoding = .custom { "day-\(Int($0.timeIntervalSince1970) / 86_400)" }
        #expect(queryString(from: ["d": .date(date)], style: style) == "d=day-11323")
    }

    @Test("data is Base64 with + and = escaped (/ is literal in AF's set); a custom data encoding is used when set")
    func dataEncodings() {
        var style = QueryStringStyle.afNetworking
        #expect(queryString(from: ["d": .data(Data([0xFB, 0xFF, 0xFE]))], style: style) == "d=%2B//%2B")
        style.dataEncoding = .custom { $0.map { ($0 < 16 ? "0" : "") + String($0, radix: 16) }.joined() }
        #expect(queryString(from: ["d": .data(Data([0xFB, 0xFF]))], style: style) == "d=fbff")
    }

    @Test("numbers print in their shortest form, integral doubles without .0")
    func numbers() {
        let value: ParameterValue = ["a": 1.0, "b": 1.5, "c": -7, "d": .decimal(Decimal(string: "12345678901234567890.5")!), "e": 1e20]
        #expect(queryString(from: value) == "a=1&b=1.5&c=-7&d=12345678901234567890.5&e=1e%2B20")
    }

    @Test("set elements sort by their written form; sets of dictionaries are stable")
    func setOrdering() {
        #expect(queryString(from: ["n": .set([10, 9, 100])]) == "n=10&n=100&n=9")
        let value: ParameterValue = ["s": .set([["k": "b"], ["k": "a"]])]
        #expect(queryString(from: value) == "s%5Bk%5D=a&s%5Bk%5D=b")
    }

    @Test("fuzz regression: a pair that writes no bytes still gets its separator, so every pair is recoverable")
    func emptyPairKeepsSeparator() {
        let value: ParameterValue = ["": [nil, "x"]]
        #expect(queryStringPairs(from: value).count == 2)
        var style = QueryStringStyle.afNetworking
        style.arrayEncoding = .repeatedKeys
        #expect(queryString(from: value, style: style) == "&=x")
        #expect(queryString(from: .array([nil, "x"]), style: style) == "&=x")
    }

    @Test("empty containers contribute nothing")
    func emptyContainers() {
        #expect(queryString(from: ["a": [], "b": [:], "c": .set([]), "d": 1]) == "d=1")
        #expect(queryString(from: [:]) == "")
    }

    @Test("a tree far deeper than any stack is flattened without recursion")
    func veryDeepTreeDoesNotRecurse() {
        var value: ParameterValue = "leaf"
        for _ in 0..<50_000 { value = ["k": value] }
        let pairs = queryStringPairs(from: value)
        #expect(pairs.count == 1)
        #expect(pairs[0].field.hasPrefix("k[k][k]"))
        #expect(value.depth == 50_000)
        // Dismantle iteratively: the enum's own release would recurse 50,000 levels.
        while case .dictionary(let entries) = value, let inner = entries["k"] { value = inner }
    }
}
