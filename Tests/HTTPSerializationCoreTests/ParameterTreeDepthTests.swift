#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import HTTPTypes
import Testing
@testable import HTTPSerializationCore

@Suite("Parameter tree: any depth is freed, compared, hashed and printed without recursion")
struct ParameterTreeDepthTests {
    static let levels = 100_000

    enum Shape: String, CaseIterable, CustomTestStringConvertible {
        case array, dictionary, set, mixed
        var testDescription: String { rawValue }
    }

    /// A chain of `levels` containers around `leaf`; `mixed` cycles through the three kinds.
    static func chain(_ shape: Shape, levels: Int = levels, leaf: ParameterValue = "leaf") -> ParameterValue {
        var value = leaf
        for level in 0..<levels {
            let kind = shape == .mixed ? [Shape.array, .dictionary, .set][level % 3] : shape
            switch kind {
            case .array: value = .array([value, .int(level)])
            case .dictionary: value = .dictionary(["k": value, "n": .int(level)])
            default: value = .set([value])
            }
        }
        return value
    }

    // Before containers had a deinit of their own, about 50,000 levels overflowed the stack
    // while the tree was destroyed.
    @Test("a tree 100,000 levels deep is freed without overflowing the stack", arguments: Shape.allCases)
    func deepTreeIsFreed(shape: Shape) {
        var value: ParameterValue? = Self.chain(shape)
        #expect(value?.depth == Self.levels)
        value = nil
        #expect(value == nil)
    }

    enum Mutation: String, CaseIterable, CustomTestStringConvertible {
        case arraySubscript, arrayAppend, arrayInsert, dictionarySubscript, setInsert
        var testDescription: String { rawValue }
    }

    /// A chain of `levels` containers, each made empty (or with a scalar) and then given the
    /// level below through one of the mutating methods, so its stored height comes from the mutation.
    static func mutatedChain(_ mutation: Mutation, levels: Int = levels) -> ParameterValue {
        var value: ParameterValue = "leaf"
        for _ in 0..<levels {
            switch mutation {
            case .arraySubscript:
                var array: ParameterArray = [.null]
                array[0] = value
                value = .array(array)
            case .arrayAppend:
                var array = ParameterArray()
                array.append(value)
                value = .array(array)
            case .arrayInsert:
                var array: ParameterArray = [1, 2]
                array.insert(contentsOf: [value], at: 1)
                value = .array(array)
            case .dictionarySubscript:
                var dictionary = ParameterDictionary()
                dictionary["k"] = value
                value = .dictionary(dictionary)
            case .setInsert:
                var set = ParameterSet()
                set.insert(value)
                value = .set(set)
            }
        }
        return value
    }

    // Short trees are freed by plain recursion; a container grown by mutation must still
    // count as tall, or freeing it would recurse 100,000 levels.
    @Test("a tree 100,000 levels deep built by mutating empty containers is freed without overflowing the stack",
          arguments: Mutation.allCases)
    func deepMutatedTreeIsFreed(mutation: Mutation) {
        var value: ParameterValue? = Self.mutatedChain(mutation)
        #expect(value?.depth == Self.levels)
        value = nil
        #expect(value == nil)
    }

    @Test("a copy-on-write copy of a tall container stays tall after a removal")
    func tallCopyAfterRemoval() {
        var array: ParameterArray = [Self.chain(.array), "x"]
        let original = array
        array.removeLast()
        var copy: ParameterValue? = .array(array)
        #expect(copy?.depth == Self.levels + 1)
        #expect(original.count == 2)
        copy = nil
        #expect(copy == nil)
    }

    @Test("two deep trees built apart compare equal, and one differing at the bottom compares unequal",
          arguments: Shape.allCases)
    func deepEquality(shape: Shape) {
        let one = Self.chain(shape)
        let two = Self.chain(shape)
        let other = Self.chain(shape, leaf: "other leaf")
        #expect(one == two)
        #expect(one != other)
        #expect(one.hashValue == two.hashValue)
        var set: Set<ParameterValue> = [one]
        #expect(set.insert(two).inserted == false)
        #expect(set.insert(other).inserted)
    }

    @Test("a deep tree prints without recursion")
    func deepDescription() {
        let text = Self.chain(.array).description
        #expect(text.hasPrefix("[[[[["))
        #expect(text.hasSuffix(", 99998], 99999]"))
        #expect(text.contains("\"leaf\""))
    }

    @Test("shared subtrees are freed once and survive while another owner holds them")
    func sharedSubtrees() {
        let shared = Self.chain(.dictionary, levels: 20_000)
        var outer: ParameterValue? = .array([shared, shared, .dictionary(["again": shared])])
        outer = nil
        #expect(outer == nil)
        #expect(shared.depth == 20_000)
        #expect(shared == Self.chain(.dictionary, levels: 20_000))
    }

    @Test("a serializer handed a deep tree refuses it with a typed error")
    func deepTreeInSerializer() throws {
        let request = HTTPRequest(method: .post, scheme: "http", authority: "127.0.0.1", path: "/")
        #expect(throws: RequestSerializationError.nestingTooDeep(path: "", limit: ParameterValue.defaultMaximumDepth)) {
            try JSONRequestSerializer().serialize(request, parameters: Self.chain(.mixed))
        }
    }
}

@Suite("Parameter tree: containers read and change like Swift collections")
struct ParameterContainerTests {
    @Test("arrays, sets and dictionaries change by copy on write; other copies keep their values")
    func copyOnWrite() {
        let original: ParameterArray = [1, 2]
        var changed = original
        changed.append(3)
        changed[0] = "zero"
        #expect(original.elements == [1, 2])
        #expect(changed.elements == ["zero", 2, 3])

        let entries: ParameterDictionary = ["a": 1]
        var moreEntries = entries
        moreEntries["b"] = 2
        moreEntries.removeValue(forKey: "a")
        #expect(entries.entries == ["a": 1])
        #expect(moreEntries.entries == ["b": 2])

        let set: ParameterSet = [1]
        var biggerSet = set
        #expect(biggerSet.insert(2).inserted)
        #expect(!biggerSet.insert(1).inserted)
        #expect(set.count == 1 && biggerSet.count == 2 && biggerSet.contains(2))
    }

    @Test("Swift collections and literals build the same values")
    func swiftCollections() {
        let list: [ParameterValue] = [1, "x"]
        let unique: Set<ParameterValue> = [1, 2]
        let keyed: [String: ParameterValue] = ["a": 1]
        #expect(ParameterValue.array(list) == [1, "x"])
        #expect(ParameterValue.set(unique) == .set([2, 1]))
        #expect(ParameterValue.dictionary(keyed) == ["a": 1])
        if case .dictionary(let entries) = ParameterValue.dictionary(keyed) {
            #expect(entries["a"] == 1)
            #expect(Array(entries.keys) == ["a"])
        } else {
            Issue.record("not a dictionary")
        }
    }

    @Test("equality follows the cases: kinds differ, sets and dictionaries ignore order, hashes agree")
    func equalityAndHashing() {
        #expect(ParameterValue.int(1) != .double(1))
        #expect(ParameterValue.array([1, 2]) != .array([2, 1]))
        #expect(ParameterValue.array([1, 2]) != .set([1, 2]))
        #expect(ParameterValue.double(0) == .double(-0.0))
        #expect(ParameterValue.double(.nan) != .double(.nan))
        let left: ParameterValue = .set([["a": 1, "b": [1, .set([2, 3])]], "x", 4])
        let right: ParameterValue = .set([4, "x", ["b": [1, .set([3, 2])], "a": 1]])
        #expect(left == right)
        #expect(left.hashValue == right.hashValue)
        #expect(left != .set([4, "x", ["b": [1, .set([3, 2])], "a": 2]]))
        #expect(ParameterValue.dictionary([:]) != .dictionary(["a": nil]))
    }

    @Test("description is a Swift literal with sorted keys")
    func description() {
        let value: ParameterValue = ["b": [1, 2.5, true, nil], "a": "x\"y", "c": [:], "d": .data(Data([1, 2, 3]))]
        #expect(value.description == #"["a": "x\"y", "b": [1, 2.5, true, nil], "c": [:], "d": <3 bytes>]"#)
        #expect(ParameterValue.set([1]).description == ".set([1])")
        #expect(ParameterValue.array([]).description == "[]")
    }
}
