import Foundation
import Testing
@testable import HTTPSerializationCodable
@testable import HTTPSerializationCore

@Suite("JSON encoder: one pass for every order Encoder allows")
struct JSONEncoderOnePassTests {
    typealias Runs = JSONBodyEncoderTests.Runs

    /// Writes out of order in every way `Encoder` allows, counting its runs.
    struct Unusual: Encodable {
        enum Keys: String, CodingKey { case a, b, nested, list, parent, twice, someValue }
        let runs: Runs
        let swallows: Bool

        func encode(to encoder: any Encoder) throws {
            runs.count += 1
            var container = encoder.container(keyedBy: Keys.self)
            try container.encode(1, forKey: .a)
            var nested = container.nestedContainer(keyedBy: Keys.self, forKey: .nested)
            var list = container.nestedUnkeyedContainer(forKey: .list)
            try list.encode("first")
            // The parent goes on, then the nested containers are written to again.
            try container.encode("b", forKey: .b)
            if swallows {
                try? nested.encode(2, forKey: .a)
            } else {
                try nested.encode(2, forKey: .a)
            }
            try list.encode("second")
            try nested.encode(["x": 1], forKey: .someValue)
            try container.encode(1, forKey: .twice)
            try container.encode(2, forKey: .twice)
            try Base(someValue: 5).encode(to: container.superEncoder(forKey: .parent))
            try container.encode(3.5, forKey: .someValue)
        }

        struct Base: Encodable { var someValue: Int }
    }

    static func encoders(_ variant: Int) -> (JSONBodyEncoder, JSONEncoder) {
        var ours = JSONBodyEncoder()
        let theirs = JSONEncoder()
        if variant == 1 {
            ours.keyEncodingStrategy = .convertToSnakeCase
            theirs.keyEncodingStrategy = .convertToSnakeCase
            ours.outputFormatting = .prettyPrinted
            theirs.outputFormatting = .prettyPrinted
        }
        return (ours, theirs)
    }

    @Test("a model that writes out of order runs its encode(to:) once, and encodes as with JSONEncoder", arguments: [0, 1])
    func outOfOrderRunsOnce(variant: Int) throws {
        let (ours, theirs) = Self.encoders(variant)
        for swallows in [false, true] {
            let runs = Runs()
            let model = Unusual(runs: runs, swallows: swallows)
            let data = try ours.encode(model)
            #expect(runs.count == 1)
            let expected = try ParameterValue(json: theirs.encode(model))
            let difference = JSONNumbers.difference(try ParameterValue(json: data), expected)
            #expect(difference == nil, "\(String(decoding: data, as: UTF8.self))")
        }
    }

    /// A turn taken deep inside a streamed document, after a dictionary under a key strategy.
    struct Outer: Encodable {
        var someMap: [String: Int]
        var items: [Item]
    }

    enum Item: Encodable {
        case plain(Int)
        case unusual(Unusual)

        func encode(to encoder: any Encoder) throws {
            switch self {
            case .plain(let number):
                var container = encoder.unkeyedContainer()
                try container.encode(number)
                try container.encode("n\(number)")
            case .unusual(let model): try model.encode(to: encoder)
            }
        }
    }

    @Test("a turn deep inside an array keeps what was streamed before it and takes what comes after", arguments: [0, 1])
    func turnDeepInside(variant: Int) throws {
        let (ours, theirs) = Self.encoders(variant)
        let runs = Runs()
        let items = (0..<60).map { $0 == 25 || $0 == 40 ? Item.unusual(Unusual(runs: runs, swallows: false)) : .plain($0) }
        let model = Outer(someMap: ["innerKey": 1, "other": 2], items: items)
        let data = try ours.encode(model)
        #expect(runs.count == 2)
        let difference = JSONNumbers.difference(try ParameterValue(json: data), try ParameterValue(json: theirs.encode(model)))
        #expect(difference == nil)
    }

    class Animal: Encodable {
        var legs = 4
        var name = "rex"
        enum Keys: String, CodingKey { case legs, name }
        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: Keys.self)
            try container.encode(legs, forKey: .legs)
            try container.encode(name, forKey: .name)
        }
    }

    final class Dog: Animal {
        var breed = "collie"
        var tags = ["good"]
        enum DogKeys: String, CodingKey { case breed, tags }
        override func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: DogKeys.self)
            try container.encode(breed, forKey: .breed)
            try container.encode(tags, forKey: .tags)
            try super.encode(to: encoder)
        }
    }

    @Test("a subclass and its superclass write one object, streamed in the order written")
    func subclassSharesContainer() throws {
        let data = try JSONBodyEncoder().encode([Dog(), Dog()])
        // The streamed order: a tree would write each object in its dictionary's order.
        #expect(String(decoding: data, as: UTF8.self)
            == #"[{"breed":"collie","tags":["good"],"legs":4,"name":"rex"},{"breed":"collie","tags":["good"],"legs":4,"name":"rex"}]"#)
        #expect(try ParameterValue(json: data) == ParameterValue(json: JSONEncoder().encode([Dog(), Dog()])))
    }

    /// Holds a container past the code of the value that made it.
    final class Kept {
        var object: KeyedEncodingContainer<Unusual.Keys>?
        var list: (any UnkeyedEncodingContainer)?
    }

    /// Hands its object and a list of its own out, written to once its parent goes on.
    struct HandsOut: Encodable {
        let kept: Kept
        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: Unusual.Keys.self)
            try container.encode(1, forKey: .a)
            kept.list = container.nestedUnkeyedContainer(forKey: .list)
            kept.object = container
        }
    }

    /// Writes to a child's containers after the child's `encode(to:)` returned, once before
    /// its own next key and once after; the child under a key or in an array.
    struct WritesLater: Encodable {
        var afterNextKey: Bool
        var inArray: Bool
        func encode(to encoder: any Encoder) throws {
            let kept = Kept()
            var container = encoder.container(keyedBy: Unusual.Keys.self)
            if inArray {
                try container.encode([HandsOut(kept: kept)], forKey: .nested)
            } else {
                try container.encode(HandsOut(kept: kept), forKey: .nested)
            }
            if afterNextKey { try container.encode("b", forKey: .b) }
            try kept.object?.encode(2, forKey: .b)
            try kept.list?.encode("late")
            try container.encode(3, forKey: .a)
        }
    }

    // `JSONEncoder` drops such writes (the child's value is fixed when its code returns); the
    // writes land here, as a container's writes always do.
    @Test("a container written after its value's code returned keeps the write", arguments: [0, 1])
    func containerKeptPastItsValue(variant: Int) throws {
        let (ours, _) = Self.encoders(variant)
        for afterNextKey in [false, true] {
            for inArray in [false, true] {
                let data = try ours.encode(WritesLater(afterNextKey: afterNextKey, inArray: inArray))
                let child: ParameterValue = ["a": 1, "b": 2, "list": ["late"]]
                var expected: ParameterValue = ["nested": inArray ? [child] : child, "a": 3]
                if afterNextKey { expected = ["nested": inArray ? [child] : child, "b": "b", "a": 3] }
                #expect(try ParameterValue(json: data) == expected, "\(String(decoding: data, as: UTF8.self))")
            }
        }
    }

    struct Fails: Encodable, Error {
        var afterWriting: Bool
        func encode(to encoder: any Encoder) throws {
            if afterWriting {
                var container = encoder.container(keyedBy: JSONEncoderOnePassTests.Unusual.Keys.self)
                try container.encode(1, forKey: .a)
                var list = container.nestedUnkeyedContainer(forKey: .list)
                try list.encode(2)
            }
            throw self
        }
    }

    /// Swallows the errors of values that fail, before and after writing part of themselves.
    struct Swallows: Encodable {
        /// Arrays of doubles that fail too (JSONEncoder traps on those once it has swallowed one).
        var arrays = true
        enum Keys: String, CodingKey { case first, failsAtOnce, failsLater, notANumber, numbers, last }
        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: Keys.self)
            try container.encode(1, forKey: .first)
            try? container.encode(Fails(afterWriting: false), forKey: .failsAtOnce)
            try? container.encode(Fails(afterWriting: true), forKey: .failsLater)
            try? container.encode(Double.nan, forKey: .notANumber)
            if arrays {
                try? container.encode([1.5, .nan], forKey: .numbers)
                try? container.encode(Decimal.nan, forKey: .numbers)
            }
            var list = container.nestedUnkeyedContainer(forKey: .last)
            try list.encode(1)
            try? list.encode(Fails(afterWriting: true))
            try? list.encode(Double.infinity)
            if arrays { try? list.encode([2.5, -.infinity]) }
            try list.encode(2)
            try? list.encode(Fails(afterWriting: true))
        }
    }

    @Test("a value whose error the model swallows leaves nothing behind, as with JSONEncoder", arguments: [0, 1])
    func swallowedErrorsLeaveNothing(variant: Int) throws {
        let (ours, theirs) = Self.encoders(variant)
        let expected: ParameterValue = ["first": 1, "last": [1, 2]]
        for arrays in [false, true] {
            let data = try ours.encode(Swallows(arrays: arrays))
            #expect(try ParameterValue(json: data) == expected, "\(String(decoding: data, as: UTF8.self))")
        }
        #expect(try ParameterValue(json: theirs.encode(Swallows(arrays: false))) == expected)
    }

    struct Scalars: Encodable {
        var strings = ["a/b", "x\"y", "é中😀", "", "line\nbreak"]
        var integers = [0, -1, Int.max, Int.min]
        var doubles = [0.1, -0.0, 1e16, 1e-7, 12.5]
        var flags = [true, false]
        var empty: [Int] = []
        var nested = [[1, 2], []]
    }

    @Test("arrays of scalars, written in one loop, match JSONEncoder; a bad double names its index", arguments: [0, 1])
    func scalarArrays(variant: Int) throws {
        let (ours, theirs) = Self.encoders(variant)
        let data = try ours.encode(Scalars())
        #expect(try ParameterValue(json: data) == ParameterValue(json: theirs.encode(Scalars())))
        var bad = Scalars()
        bad.doubles[3] = .infinity
        do {
            _ = try ours.encode(bad)
            Issue.record("an infinite double was written")
        } catch let EncodingError.invalidValue(_, context) {
            #expect(context.codingPath.map(\.stringValue) == ["doubles", "Index 3"])
        }
    }

    struct TooDeep: Encodable {
        func encode(to encoder: any Encoder) throws {
            var container = encoder.unkeyedContainer()
            var inner = container.nestedUnkeyedContainer()
            try? inner.encode(1)
        }
    }

    @Test("a container past the depth limit is an error even when the model swallows it")
    func depthErrorIsNotSwallowed() throws {
        var ours = JSONBodyEncoder()
        ours.maximumDepth = 1
        #expect(throws: RequestSerializationError.self) { try ours.encode(TooDeep()) }
    }
}
