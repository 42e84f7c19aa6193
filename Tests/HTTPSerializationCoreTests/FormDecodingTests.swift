#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Testing
import HTTPSerializationCore

@Suite("Form decoding: pairs and trees back from what the query-string writer writes")
struct FormDecodingTests {
    static let characters: [String] = ["a", "Z", "0", " ", "+", "%", "&", "=", "?", "/", "#", "\u{E9}", "\u{65E5}", "\u{1F680}", "-", "~", "'", "\""]

    static func text(_ generator: inout SplitMix, nonEmpty: Bool = false) -> String {
        var text = ""
        let count = Int(generator.next() % 6) + (nonEmpty ? 1 : 0)
        for _ in 0..<count { text += characters[Int(generator.next() % UInt64(characters.count))] }
        return text
    }

    /// A key every style can carry: the characters above hold no brackets and no dots, and
    /// a key of digits alone would read as an index under indexed arrays.
    static func key(_ generator: inout SplitMix) -> String {
        var key = ""
        while key.isEmpty { key = text(&generator, nonEmpty: true) }
        return key.utf8.allSatisfy { $0 >= 0x30 && $0 <= 0x39 } ? key + "k" : key
    }

    /// A tree of strings the style reads back as written: no empty containers; arrays of
    /// scalars only, of two elements or more under repeated keys; arrays of anything under
    /// indexed arrays.
    static func tree(_ generator: inout SplitMix, style: QueryStringStyle, depth: Int) -> ParameterValue {
        let roll = generator.next() % 10
        if depth >= 3 || roll < 4 { return .string(text(&generator)) }
        if roll < 7 {
            let count = Int(generator.next() % 3) + (style.arrayEncoding == .repeatedKeys ? 2 : 1)
            let elements = (0..<count).map { _ -> ParameterValue in
                style.arrayEncoding.readsIndices ? tree(&generator, style: style, depth: depth + 1) : .string(text(&generator))
            }
            return .array(elements)
        }
        var entries: [String: ParameterValue] = [:]
        for _ in 0..<(Int(generator.next() % 3) + 1) { entries[key(&generator)] = tree(&generator, style: style, depth: depth + 1) }
        return .dictionary(ParameterDictionary(entries))
    }

    @Test("decode(encode(tree)) == tree for brackets, indexed and repeated-key arrays, bracketed and dotted keys, %20 and + spaces",
          arguments: QueryStringStyle.ArrayEncoding.allCases)
    func roundTrips(_ arrays: QueryStringStyle.ArrayEncoding) throws {
        var generator = SplitMix(state: 0xF0F0 &+ UInt64(arrays.hashValue & 0xFF))
        for keys in QueryStringStyle.KeyEncoding.allCases {
            for spaces in QueryStringStyle.SpaceEncoding.allCases {
                let style = QueryStringStyle(arrayEncoding: arrays, keyEncoding: keys, spaceEncoding: spaces)
                for _ in 0..<150 {
                    var entries: [String: ParameterValue] = [:]
                    for _ in 0..<(Int(generator.next() % 4) + 1) {
                        entries[Self.key(&generator)] = Self.tree(&generator, style: style, depth: 0)
                    }
                    let tree = ParameterValue.dictionary(ParameterDictionary(entries))
                    let written = queryString(from: tree, style: style)
                    guard let read = try? ParameterValue(formPairs: FormPairs.parse(written), style: style) else {
                        Issue.record("\(style.arrayEncoding) \(style.keyEncoding): \(written) from \(tree)")
                        return
                    }
                    #expect(read == tree, "\(style.arrayEncoding) \(style.keyEncoding) \(style.spaceEncoding): \(written)")
                }
            }
        }
    }

    @Test("pairs: + is a space, escapes undone, bare keys null, empty pieces skipped, order and repeats kept")
    func pairs() throws {
        let pairs = try FormPairs.parse("name=Ann+Lee&&tags[]=a%26b&flag&tags[]=c%2Bd&empty=&=v")
        #expect(pairs == [QueryStringPair(field: "name", value: "Ann Lee"), QueryStringPair(field: "tags[]", value: "a&b"),
                          QueryStringPair(field: "flag", value: .null), QueryStringPair(field: "tags[]", value: "c+d"),
                          QueryStringPair(field: "empty", value: ""), QueryStringPair(field: "", value: "v")])
        #expect(try FormPairs.parse("") == [])
        #expect(try FormPairs.parse("a=%FF%FE") == [QueryStringPair(field: "a", value: "\u{FFFD}\u{FFFD}")])
    }

    @Test("trees: Rails' [] of objects, indexes in any order, repeated keys, and a key that is no path")
    func trees() throws {
        let rails = try ParameterValue(formPairs: FormPairs.parse("a[][x]=1&a[][y]=2&a[][x]=3"))
        #expect(rails == ["a": [["x": "1", "y": "2"], ["x": "3"]]])
        var indexed = QueryStringStyle()
        indexed.arrayEncoding = .indexed
        #expect(try ParameterValue(formPairs: FormPairs.parse("a[2]=c&a[0]=a&a[1][k]=b"), style: indexed) == ["a": ["a", ["k": "b"], "c"]])
        #expect(try ParameterValue(formPairs: FormPairs.parse("a=1&a=2&b=3")) == ["a": ["1", "2"], "b": "3"])
        #expect(try ParameterValue(formPairs: FormPairs.parse("a[b=1&[x]=2&c[d]e=3")) == ["a[b": "1", "[x]": "2", "c[d]e": "3"])
        #expect(try ParameterValue(formPairs: FormPairs.parse("a[0]=x")) == ["a": ["0": "x"]], "brackets style reads [0] as a key")
    }

    @Test("bad input: %ZZ, 1,000,000 pairs, a key 10,000 levels deep, long keys and values, conflicting keys")
    func badInput() throws {
        #expect(throws: FormDecodingError.malformedPercentEscape(offset: 2)) { try FormPairs.parse("a=%ZZ") }
        #expect(throws: FormDecodingError.malformedPercentEscape(offset: 2)) { try FormPairs.parse("a=%4") }
        #expect(try FormPairs.parse("a=%ZZ%4", keepsMalformedEscapes: true) == [QueryStringPair(field: "a", value: "%ZZ%4")])
        let many = String(repeating: "a=1&", count: 1_000_000)
        #expect(throws: FormDecodingError.tooManyPairs(limit: 1000)) { try FormPairs.parse(many) }
        var roomy = FormDecodingLimits()
        roomy.maximumKeyLength = 1 << 20
        let deep = "a" + String(repeating: "[b]", count: 10_000) + "=1"
        #expect(throws: FormDecodingError.nestedTooDeep(key: "a" + String(repeating: "[b]", count: 10_000), limit: 32)) {
            try ParameterValue(formPairs: FormPairs.parse(deep, limits: roomy))
        }
        #expect(throws: FormDecodingError.keyTooLong(limit: 1024)) { try FormPairs.parse(String(repeating: "k", count: 1025) + "=1") }
        var limits = FormDecodingLimits()
        limits.maximumValueLength = 3
        #expect(throws: FormDecodingError.valueTooLong(key: "a", limit: 3)) { try FormPairs.parse("a=1234", limits: limits) }
        #expect(throws: FormDecodingError.conflictingKeys("a[b]")) { try ParameterValue(formPairs: FormPairs.parse("a=1&a[b]=2")) }
        #expect(throws: FormDecodingError.conflictingKeys("a")) { try ParameterValue(formPairs: FormPairs.parse("a[b]=2&a=1")) }
        #expect(throws: FormDecodingError.conflictingKeys("a[b]")) { try ParameterValue(formPairs: FormPairs.parse("a=1&a=2&a[b]=3")) }
    }

    static func read(_ text: String, _ arrays: QueryStringStyle.ArrayEncoding = .indexed) throws -> ParameterValue {
        try ParameterValue(formPairs: FormPairs.parse(text), style: QueryStringStyle(arrayEncoding: arrays))
    }

    @Test("keys that mix indices and names read as a dictionary keyed by each key's text, as PHP, Rack and qs read them")
    func mixedContainers() throws {
        #expect(try Self.read("a[0][x]=1&a[0][0]=2") == ["a": [["x": "1", "0": "2"]]])
        #expect(try Self.read("a[x]=1&a[0]=2") == ["a": ["x": "1", "0": "2"]])
        #expect(try Self.read("a[0]=1&a[x]=2&a[1]=3") == ["a": ["0": "1", "x": "2", "1": "3"]])
        for arrays in QueryStringStyle.ArrayEncoding.allCases {
            #expect(try Self.read("a[]=x&a[y]=z", arrays) == ["a": ["0": "x", "y": "z"]], "\(arrays)")
            #expect(try Self.read("a[y]=z&a[]=x", arrays) == ["a": ["y": "z", "0": "x"]], "\(arrays)")
            #expect(try Self.read("a[7]=z&a[y]=w&a[]=x", arrays) == ["a": ["7": "z", "y": "w", "8": "x"]], "\(arrays)")
        }
        // `[]` under indexed arrays is PHP's next index: a new element each time.
        #expect(try Self.read("a[]=x&a[5]=y&a[]=z") == ["a": ["0": "x", "5": "y", "6": "z"]])
        #expect(try Self.read("a[][x]=1&a[][y]=2") == ["a": [["x": "1"], ["y": "2"]]])
        #expect(try Self.read("a[][x]=1&a[][y]=2", .brackets) == ["a": [["x": "1", "y": "2"]]], "Rails' rule under brackets")
    }

    @Test("indices are kept as written unless they run 0..<n: a[9] alone is the key 9, a[007] the key 007")
    func sparseIndices() throws {
        #expect(try Self.read("a[9]=x") == ["a": ["9": "x"]])
        #expect(try Self.read("a[1]=x&a[0]=y") == ["a": ["y", "x"]])
        #expect(try Self.read("a[0]=x&a[2]=y") == ["a": ["0": "x", "2": "y"]])
        #expect(try Self.read("a[007]=x&a[7]=y") == ["a": ["007": "x", "7": "y"]])
        #expect(try Self.read("a[007]=x") == ["a": ["007": "x"]])
        #expect(try Self.read("a[999999999]=x&a[]=y") == ["a": ["999999999": "x", "1000000000": "y"]])
        #expect(try Self.read("a[1234567890123]=x&a[]=y") == ["a": ["1234567890123": "x", "1234567890124": "y"]])
    }

    @Test("a value and a container under one name stay an error, whichever comes first")
    func contradictionsStayErrors() {
        for text in ["a=1&a[b]=2", "a=1&a[0]=2", "a=1&a[]=2", "a=1&a=2&a[0]=3"] {
            #expect(throws: FormDecodingError.self, "\(text)") { try Self.read(text) }
        }
        #expect(throws: FormDecodingError.conflictingKeys("a")) { try Self.read("a[0]=2&a=1") }
        #expect(throws: FormDecodingError.conflictingKeys("a")) { try Self.read("a[x]=2&a=1") }
    }
}
