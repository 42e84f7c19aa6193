import Foundation
import Testing
@testable import HTTPSerialization
@testable import HTTPSerializationCodable
@testable import HTTPSerializationCore
@testable import HTTPSerializationFoundation
@testable import HTTPSerializationImages
@testable import HTTPSerializationXML

@Suite("Parameter tree: bridging Foundation graphs by dynamic type, at any depth")
struct FoundationBridgeTests {
    /// Carries a graph from the thread that builds it to the one that converts it and back.
    /// `@unchecked Sendable`: each thread finishes with the box before the next one starts.
    final class Handoff: @unchecked Sendable {
        var graph: Any?
        var result: Result<ParameterValue, any Error>?
    }

    /// Runs `body` on a thread of its own with the given stack and waits for it.
    static func onThread(stackSize: Int, _ body: @escaping @Sendable () -> Void) async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let thread = Thread {
                body()
                continuation.resume()
            }
            thread.stackSize = stackSize
            thread.start()
        }
    }

    enum Shape: String, CaseIterable, CustomTestStringConvertible {
        case swiftDictionary, nsDictionary, swiftArray, mixed
        var testDescription: String { rawValue }
    }

    static func chain(_ shape: Shape, levels: Int) -> Any {
        var value: Any = "leaf"
        for level in 0..<levels {
            switch shape {
            case .swiftDictionary: value = ["k": value, "n": level] as [String: Any]
            case .nsDictionary: value = NSDictionary(dictionary: ["k": value, "n": level])
            case .swiftArray: value = [value, level] as [Any]
            case .mixed:
                switch level % 4 {
                case 0: value = ["k": value] as [String: Any]
                case 1: value = NSDictionary(dictionary: ["k": value])
                case 2: value = NSArray(array: [value])
                default: value = [value] as [Any]
                }
            }
        }
        return value
    }

    // A graph this deep is destroyed recursively by Swift and Foundation themselves, so it is
    // built and freed on a thread with a large stack. The conversion runs on a 16 MiB one:
    // enough for 512 levels even in a debug build under ThreadSanitizer, far too little for
    // recursion that followed 100,000 levels (or Foundation's bridging of 10,000).
    @Test("graphs 513, 10,000 and 100,000 levels deep are nestingTooDeep, never a crash",
          arguments: [513, 10_000, 100_000], Shape.allCases)
    func deepGraphs(levels: Int, shape: Shape) async throws {
        let handoff = Handoff()
        await Self.onThread(stackSize: 1 << 30) { handoff.graph = Self.chain(shape, levels: levels) }
        await Self.onThread(stackSize: 16 << 20) {
            handoff.result = Result { try ParameterValue(any: handoff.graph!) }
        }
        await Self.onThread(stackSize: 1 << 30) { handoff.graph = nil }
        let error = try #require(throws: RequestSerializationError.self) { try handoff.result!.get() }
        guard case .nestingTooDeep(let path, let limit) = error else {
            Issue.record("unexpected \(error)")
            return
        }
        #expect(limit == 512)
        // The path names the container that went past the limit: 512 steps down.
        #expect(path.filter { $0 == "k" || $0 == "[" }.count == 512)
    }

    @Test("at the limit a graph converts; one level more is refused", arguments: Shape.allCases)
    func limitIsExact(shape: Shape) throws {
        let atLimit = Self.chain(shape, levels: 512)
        #expect(try ParameterValue(any: atLimit).depth == 512)
        #expect(throws: RequestSerializationError.self) { try ParameterValue(any: Self.chain(shape, levels: 513)) }
        #expect(try ParameterValue(any: Self.chain(shape, levels: 8), maximumDepth: 8).depth == 8)
        #expect(throws: RequestSerializationError.self) { try ParameterValue(any: Self.chain(shape, levels: 8), maximumDepth: 7) }
    }

    @Test("a ParameterValue inside a graph counts toward the depth")
    func embeddedTreeDepth() throws {
        let tree: ParameterValue = [[["x"]]]
        #expect(try ParameterValue(any: ["a": tree] as [String: Any], maximumDepth: 4) == ["a": tree])
        #expect(throws: RequestSerializationError.nestingTooDeep(path: "a", limit: 3)) {
            try ParameterValue(any: ["a": tree] as [String: Any], maximumDepth: 3)
        }
    }

    @Test("every Foundation and Swift type bridges to its case")
    func everyType() throws {
        let url = URL(string: "https://example.com/p?q=1")!
        let date = Date(timeIntervalSince1970: 86_400)
        let optionalInt: Int? = 7
        let nestedOptional: String?? = "deep"
        let graph: [String: Any] = [
            "string": "s", "int": 1, "double": 2.5, "bool": true, "float": Float(0.25), "uint8": UInt8(200),
            "uint64": UInt64.max, "int64": Int64.min, "decimal": Decimal(string: "0.1")!,
            "nsString": NSString(string: "ns"), "nsMutableString": NSMutableString(string: "mutable"),
            "nsNumberInt": NSNumber(value: 3), "nsNumberBool": NSNumber(value: false), "nsNumberDouble": NSNumber(value: 0.5),
            "nsNumberUInt64": NSNumber(value: UInt64.max), "nsDecimal": NSDecimalNumber(string: "1.5"),
            "nsNull": NSNull(), "date": date, "nsDate": NSDate(timeIntervalSince1970: 86_400),
            "data": Data([1]), "nsData": NSData(bytes: [2, 3] as [UInt8], length: 2), "url": url, "nsURL": NSURL(string: "https://e.org/")!,
            "optional": optionalInt as Any, "nestedOptional": nestedOptional as Any, "none": Optional<String>.none as Any,
            "strings": ["a", "b"], "ints": [1, 2], "doubles": [0.5], "bools": [false],
            "stringDictionary": ["x": "y"], "intDictionary": ["x": 1], "anyHashableKeys": [AnyHashable("h"): 1] as [AnyHashable: Any],
            "set": Set(["p"]), "anyHashableSet": Set([AnyHashable(1)]), "nsSet": NSSet(array: [1]),
            "nsArray": NSArray(array: ["n", 1]), "nsMutableArray": NSMutableArray(array: [true]),
            "nsDictionary": NSDictionary(dictionary: ["d": 1]), "records": [["id": 1], ["id": 2]] as [[String: Any]],
            "substring": "xyz".dropFirst(), "tree": ParameterValue.array([1]),
        ]
        let expected: ParameterValue = [
            "string": "s", "int": 1, "double": 2.5, "bool": true, "float": 0.25, "uint8": 200,
            "uint64": .decimal(Decimal(UInt64.max)), "int64": .int(Int(Int64.min)), "decimal": .decimal(Decimal(string: "0.1")!),
            "nsString": "ns", "nsMutableString": "mutable",
            "nsNumberInt": 3, "nsNumberBool": false, "nsNumberDouble": 0.5,
            "nsNumberUInt64": .decimal(Decimal(UInt64.max)), "nsDecimal": .decimal(Decimal(string: "1.5")!),
            "nsNull": nil, "date": .date(date), "nsDate": .date(date),
            "data": .data(Data([1])), "nsData": .data(Data([2, 3])), "url": "https://example.com/p?q=1", "nsURL": "https://e.org/",
            "optional": 7, "nestedOptional": "deep", "none": nil,
            "strings": ["a", "b"], "ints": [1, 2], "doubles": [0.5], "bools": [false],
            "stringDictionary": ["x": "y"], "intDictionary": ["x": 1], "anyHashableKeys": ["h": 1],
            "set": .set(["p"]), "anyHashableSet": .set([1]), "nsSet": .set([1]),
            "nsArray": ["n", 1], "nsMutableArray": [true],
            "nsDictionary": ["d": 1], "records": [["id": 1], ["id": 2]],
            "substring": "yz", "tree": [1],
        ]
        let bridged = try ParameterValue(any: graph)
        guard case .dictionary(let got) = bridged, case .dictionary(let want) = expected else {
            Issue.record("not a dictionary: \(bridged)")
            return
        }
        #expect(Set(got.keys) == Set(want.keys))
        for key in want.keys { #expect(got[key] == want[key], "\(key)") }
    }

    @Test("errors name where they are, through Swift and NS containers alike")
    func errorPaths() {
        struct Opaque {}
        #expect(throws: RequestSerializationError.invalidParameter(path: "a[1].b", reason: "a value of type Opaque has no parameter form")) {
            try ParameterValue(any: ["a": [0, NSDictionary(dictionary: ["b": Opaque()])] as [Any]] as [String: Any])
        }
        #expect(throws: RequestSerializationError.invalidParameter(path: "x[2]", reason: "a value of type Opaque has no parameter form")) {
            try ParameterValue(any: ["x": NSArray(array: [1, 2, Opaque()])] as [String: Any])
        }
        #expect(throws: RequestSerializationError.invalidParameter(path: "m", reason: "dictionary key 1 is not a string")) {
            try ParameterValue(any: ["m": [1: "one"] as [Int: String]] as [String: Any])
        }
        #expect(throws: RequestSerializationError.invalidParameter(path: "typed[0]", reason: "a value of type Opaque has no parameter form")) {
            try ParameterValue(any: ["typed": [Opaque()]] as [String: Any])
        }
        // Among many keys, at every depth, the one that failed is named, whichever it is.
        for bad in [0, 1, 37, 99] {
            var inner: [String: Any] = [:]
            for index in 0..<100 { inner["i\(index)"] = index == bad ? Opaque() : index }
            var outer: [String: Any] = [:]
            for index in 0..<100 { outer["o\(index)"] = index == 63 ? inner : "v\(index)" }
            #expect(throws: RequestSerializationError.invalidParameter(path: "o63.i\(bad)", reason: "a value of type Opaque has no parameter form")) {
                try ParameterValue(any: outer)
            }
        }
    }

    @Test("a bare scalar or container at the top converts too")
    func topLevelValues() throws {
        #expect(try ParameterValue(any: "x") == "x")
        #expect(try ParameterValue(any: [1, 2]) == [1, 2])
        #expect(try ParameterValue(any: NSNumber(value: true)) == true)
        #expect(try ParameterValue(any: [String: Any]()) == .dictionary([:]))
    }
}
