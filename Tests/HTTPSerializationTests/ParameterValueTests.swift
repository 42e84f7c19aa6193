import Foundation
import Testing
@testable import HTTPSerialization
@testable import HTTPSerializationCodable
@testable import HTTPSerializationCore
@testable import HTTPSerializationFoundation
@testable import HTTPSerializationImages
@testable import HTTPSerializationXML

@Suite("Parameter tree: literals and Foundation bridging")
struct ParameterValueBridgingTests {
    @Test("literals build the expected cases")
    func literals() {
        let value: ParameterValue = ["s": "x", "i": 1, "d": 1.5, "b": true, "n": nil, "a": [1, "two"]]
        #expect(value == .dictionary([
            "s": .string("x"), "i": .int(1), "d": .double(1.5), "b": .bool(true), "n": .null,
            "a": .array([.int(1), .string("two")]),
        ]))
    }

    @Test("NSNumber booleans are detected; NSNumber integers and doubles are not booleans")
    func nsNumberKinds() throws {
        let value = try ParameterValue(any: [
            "yes": NSNumber(value: true), "one": NSNumber(value: 1), "half": NSNumber(value: 0.5),
            "big": NSNumber(value: UInt64.max), "swiftBool": false, "swiftInt": 0,
        ] as [String: Any])
        #expect(value == [
            "yes": true, "one": 1, "half": 0.5, "big": .decimal(Decimal(UInt64.max)), "swiftBool": false, "swiftInt": 0,
        ])
    }

    @Test("NSNull, nil optionals, dates, data, URLs, decimals and sets bridge")
    func foundationScalarsAndSets() throws {
        let date = Date(timeIntervalSince1970: 1)
        let missing: String? = nil
        let value = try ParameterValue(any: [
            "null": NSNull(), "nil": missing as Any, "date": date, "data": Data([1, 2]),
            "url": URL(string: "https://example.com/a")!, "decimal": Decimal(string: "1.25")!,
            "nsset": NSSet(array: ["a", "b"]), "set": Set([1, 2]), "float": Float(0.5), "int8": Int8(-3),
            "sub": "abc".dropFirst(),
        ] as [String: Any])
        #expect(value == [
            "null": nil, "nil": nil, "date": .date(date), "data": .data(Data([1, 2])),
            "url": "https://example.com/a", "decimal": .decimal(Decimal(string: "1.25")!),
            "nsset": .set(["a", "b"]), "set": .set([1, 2]), "float": 0.5, "int8": -3, "sub": "bc",
        ])
    }

    @Test("NSDictionary and NSArray nest inside Swift collections")
    func mixedCollections() throws {
        let inner = NSMutableDictionary()
        inner["k"] = NSArray(array: [1, "x"])
        let value = try ParameterValue(any: ["outer": inner, "list": [inner]] as [String: Any])
        #expect(value == ["outer": ["k": [1, "x"]], "list": [["k": [1, "x"]]]])
    }

    @Test("a non-string key is a typed error naming where it is")
    func nonStringKey() {
        #expect(throws: RequestSerializationError.invalidParameter(path: "a", reason: "dictionary key 42 is not a string")) {
            try ParameterValue(any: ["a": [42: "value"]] as [String: Any])
        }
    }

    @Test("an unsupported value is a typed error with its path, never a crash")
    func unsupportedValue() {
        final class Opaque {}
        #expect(throws: RequestSerializationError.invalidParameter(path: "list[1]", reason: "a value of type Opaque has no parameter form")) {
            try ParameterValue(any: ["list": [1, Opaque()]] as [String: Any])
        }
    }

    @Test("nesting beyond the limit is a typed error; at the limit it is accepted")
    func depthLimit() throws {
        func nested(_ levels: Int) -> Any {
            var value: Any = "leaf"
            for _ in 0..<levels { value = [value] }
            return value
        }
        #expect(try ParameterValue(any: nested(512)).depth == 512)
        #expect(throws: RequestSerializationError.self) { try ParameterValue(any: nested(513)) }
        #expect(throws: RequestSerializationError.self) { try ParameterValue(any: nested(4), maximumDepth: 3) }
        #expect(try ParameterValue(any: nested(3), maximumDepth: 3).depth == 3)
    }
}

@Suite("Parameter tree: Encodable models")
struct ParameterValueEncodingTests {
    struct Address: Codable { var city: String; var zip: String? }
    enum Role: String, Codable { case admin, user }
    struct User: Codable {
        var name: String
        var age: UInt8
        var score: Double
        var active: Bool
        var address: Address
        var tags: [String]
        var role: Role
        var nickname: String?
        var joined: Date
        var avatar: Data
        var site: URL
        var balance: Decimal
        var matrix: [[Int]]
        var big: UInt64
    }

    @Test("a model encodes through keyed, unkeyed and single-value containers")
    func modelEncodes() throws {
        let joined = Date(timeIntervalSince1970: 100)
        let user = User(
            name: "Ann", age: 30, score: 9.5, active: true, address: Address(city: "Oslo", zip: nil),
            tags: ["a", "b"], role: .admin, nickname: nil, joined: joined, avatar: Data([7]),
            site: URL(string: "https://ann.example")!, balance: Decimal(string: "10.01")!, matrix: [[1, 2], []],
            big: UInt64.max)
        let value = try ParameterValue(encoding: user)
        #expect(value == [
            "name": "Ann", "age": 30, "score": 9.5, "active": true, "address": ["city": "Oslo"],
            "tags": ["a", "b"], "role": "admin", "joined": .date(joined), "avatar": .data(Data([7])),
            "site": "https://ann.example", "balance": .decimal(Decimal(string: "10.01")!), "matrix": [[1, 2], []],
            "big": .decimal(Decimal(UInt64.max)),
        ])
        #expect(queryString(from: value).hasPrefix("active=1&address%5Bcity%5D=Oslo&age=30"))
    }

    class Animal: Encodable {
        var legs = 4
        private enum CodingKeys: String, CodingKey { case legs }
        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(legs, forKey: .legs)
        }
    }

    final class Dog: Animal {
        var name = "Rex"
        private enum CodingKeys: String, CodingKey { case name }
        override func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(name, forKey: .name)
            try super.encode(to: container.superEncoder())
        }
    }

    @Test("super encoders nest the superclass under \"super\"")
    func superEncoder() throws {
        #expect(try ParameterValue(encoding: Dog()) == ["name": "Rex", "super": ["legs": 4]])
    }

    @Test("explicit nils encode as null; top-level scalars encode as themselves")
    func nilsAndScalars() throws {
        struct Explicit: Encodable {
            func encode(to encoder: any Encoder) throws {
                var container = encoder.container(keyedBy: ParameterCodingKey.self)
                try container.encodeNil(forKey: ParameterCodingKey(stringValue: "gone"))
                var list = container.nestedUnkeyedContainer(forKey: ParameterCodingKey(stringValue: "list"))
                try list.encodeNil()
                try list.encode(1)
            }
        }
        #expect(try ParameterValue(encoding: Explicit()) == ["gone": nil, "list": [nil, 1]])
        #expect(try ParameterValue(encoding: 5) == 5)
        #expect(try ParameterValue(encoding: ["x": [1, 2]]) == ["x": [1, 2]])
    }

    @Test("a model that encodes nothing is a typed error")
    func emptyModel() {
        struct Nothing: Encodable { func encode(to encoder: any Encoder) throws {} }
        #expect(throws: RequestSerializationError.self) { try ParameterValue(encoding: Nothing()) }
    }

    indirect enum Chain: Encodable {
        case end
        case link(Chain)
        static func of(_ length: Int) -> Chain {
            var chain = Chain.end
            for _ in 0..<length { chain = .link(chain) }
            return chain
        }
        func encode(to encoder: any Encoder) throws {
            var container = encoder.unkeyedContainer()
            if case .link(let next) = self { try container.encode(next) }
        }
    }

    @Test("a recursive model stops at the depth limit with a typed error")
    func recursiveModelStops() throws {
        #expect(try ParameterValue(encoding: Chain.of(40), maximumDepth: 64).depth == 41)
        #expect(throws: RequestSerializationError.self) { try ParameterValue(encoding: Chain.of(100), maximumDepth: 64) }
        #expect(throws: RequestSerializationError.self) { try ParameterValue(encoding: Chain.of(5_000)) }
    }

    @Test("errors thrown by a model propagate unchanged")
    func modelErrorPropagates() {
        let marker = MarkerError(id: UUID())
        struct Failing: Encodable {
            let marker: MarkerError
            func encode(to encoder: any Encoder) throws { throw marker }
        }
        #expect(throws: marker) { try ParameterValue(encoding: Failing(marker: marker)) }
    }

    @Test("encoding is linear: a 200,000-element model encodes")
    func largeModel() throws {
        let values = (0..<200_000).map { "v\($0)" }
        let value = try ParameterValue(encoding: ["list": values])
        guard case .dictionary(let entries) = value, case .array(let list) = entries["list"] else {
            Issue.record("unexpected shape")
            return
        }
        #expect(list.count == 200_000)
        #expect(list.last == "v199999")
    }
}

@Suite("Parameter tree: freed on any thread")
struct ParameterTreeThreadTests {
    @Test("a tree 100,000 levels deep is freed on a secondary thread with a 256 KiB stack")
    func deepTreeIsFreedOnSmallStack() async throws {
        let levels = 100_000
        let text = String(repeating: #"[{"k":"#, count: levels / 2) + "1" + String(repeating: "}]", count: levels / 2)
        let document = Data(text.utf8)
        let finished = await withCheckedContinuation { (continuation: CheckedContinuation<Bool, Never>) in
            let thread = Thread {
                var value = try? ParameterValue(json: document, maximumDepth: levels)
                let built = value?.depth == levels
                value = nil
                continuation.resume(returning: built && value == nil)
            }
            thread.stackSize = 256 * 1024
            thread.start()
        }
        #expect(finished)
    }
}

@Suite("Parameter tree: no key is lost")
struct ParameterKeyTests {
    static let equivalentKeysError = RequestSerializationError.invalidParameter(
        path: "outer",
        reason: #"the keys "Café" (U+0043 U+0061 U+0066 U+0065 U+0301) and "Café" (U+0043 U+0061 U+0066 U+00E9) are canonically equivalent, so one would replace the other"#)

    /// An `NSMutableDictionary` subclass that keeps every key it is given, as Apple's
    /// Foundation does for these two (its `isEqual` compares UTF-16 literally).
    final class KeepingDictionary: NSMutableDictionary {
        private var storedKeys: [NSString] = []
        private var storedValues: [Any] = []
        override var count: Int { storedKeys.count }
        override func object(forKey key: Any) -> Any? {
            let wanted = (key as? String) ?? (key as? NSString).map { $0 as String } ?? ""
            return storedKeys.firstIndex { ($0 as String).unicodeScalars.elementsEqual(wanted.unicodeScalars) }.map { storedValues[$0] }
        }
        override func keyEnumerator() -> NSEnumerator { NSArray(array: storedKeys).objectEnumerator() }
        override func setObject(_ object: Any, forKey key: AnyHashable) {
            storedKeys.append(key.base as! NSString)
            storedValues.append(object)
        }
        override func removeObject(forKey key: Any) {}
    }

    /// Every shape a dictionary can reach the bridge in, each holding both spellings of "Café".
    static func equivalentKeyRoutes() -> [(String, Any)] {
        let precomposed = NSString(string: "Caf\u{E9}"), decomposed = NSString(string: "Cafe\u{301}")
        let subclass = KeepingDictionary()
        subclass.setObject("precomposed", forKey: AnyHashable(precomposed))
        subclass.setObject("decomposed", forKey: AnyHashable(decomposed))
        // Not a plain NSDictionary: corelibs' NSString says the two are equal while hashing
        // them apart, so Foundation's own storage merges them or traps on insertion, by the
        // process's hash seed, before any bridge could see them. Apple's keeps both, as this does.
        let routes: [(String, Any)] = [("NSMutableDictionary subclass", subclass)]
        return routes
    }

    @Test("canonically equivalent keys are the same error through every route a dictionary takes")
    func canonicallyEquivalentKeysEveryRoute() {
        for (route, dictionary) in Self.equivalentKeyRoutes() {
            let wrappings: [(String, Any)] = [
                ("as Any", ["outer": dictionary] as [String: Any]),
                ("in [AnyHashable: Any]", [AnyHashable("outer"): dictionary] as [AnyHashable: Any]),
                ("in [Any]", ["outer": [dictionary]] as [String: Any]),
                ("in NSArray", ["outer": NSArray(array: [dictionary])] as [String: Any]),
                ("in NSMutableArray", ["outer": NSMutableArray(array: [dictionary])] as [String: Any]),
                ("optional", ["outer": Optional<Any>.some(dictionary) as Any] as [String: Any]),
            ]
            for (wrapping, value) in wrappings {
                let inArray = wrapping.contains("Array") || wrapping.contains("[Any]")
                let expected = inArray
                    ? RequestSerializationError.invalidParameter(path: "outer[0]", reason: Self.equivalentKeysReason)
                    : Self.equivalentKeysError
                #expect(throws: expected, "\(route) \(wrapping)") { try ParameterValue(any: value) }
            }
        }
    }

    /// A subclass whose enumerator names a key it then has no value for.
    final class ForgetfulDictionary: NSDictionary {
        override var count: Int { 1 }
        override func object(forKey key: Any) -> Any? { nil }
        override func keyEnumerator() -> NSEnumerator { NSArray(array: ["ghost"]).objectEnumerator() }
    }

    @Test("a dictionary subclass with no value for its own key is an error, not a trap")
    func forgetfulSubclass() {
        #expect(throws: RequestSerializationError.invalidParameter(
            path: "outer", reason: "the dictionary has no value for its own key ghost")) {
            try ParameterValue(any: ["outer": ForgetfulDictionary()] as [String: Any])
        }
    }

    static var equivalentKeysReason: String {
        guard case .invalidParameter(_, let reason) = equivalentKeysError else { return "" }
        return reason
    }

    @Test("an NSDictionary with distinct keys bridges every pair")
    func distinctKeysKept() throws {
        let dictionary = NSDictionary(objects: [1, 2], forKeys: [NSString(string: "\u{E9}"), NSString(string: "e")])
        #expect(try ParameterValue(any: dictionary) == ["\u{E9}": 1, "e": 2])
    }
}
