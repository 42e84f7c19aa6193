#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Testing
@testable import HTTPSerializationCore

@Suite("JSON key paths: the value inside an envelope, read alone")
struct JSONKeyPathTests {
    static let envelope = Data(#"""
    {"meta": {"page": 2, "tags": ["a", "b"]},
     "data": {"items": [{"id": 1, "name": "one"}, {"id": 2, "name": "two", "deep": [[0, [5]]]}], "total": 2},
     "caf\u00e9": "escaped key", "dup": 1, "dup": 2, "0": "zero key", "a.b": "dotted", "e\u0301": "decomposed"}
    """#.utf8)

    @Test("text paths split at dots, with bracketed indices after keys", arguments: [
        ("data.items", [JSONKeyPath.Component.key("data"), .key("items")]),
        ("data.items[1].name", [.key("data"), .key("items"), .index(1), .key("name")]),
        ("data.items.1", [.key("data"), .key("items"), .key("1")]),
        ("[0][2]", [.index(0), .index(2)]),
        ("", []),
        ("a[x]", [.key("a[x]")]),
        ("a[]", [.key("a[]")]),
        ("a[1", [.key("a[1")]),
        ("a..b", [.key("a"), .key(""), .key("b")]),
    ])
    func textPathsParse(text: String, components: [JSONKeyPath.Component]) {
        #expect(JSONKeyPath(text).components == components)
    }

    @Test("a path's description is the text that reads back to it")
    func descriptionRoundTrips() {
        for text in ["data.items[1].name", "[0][2]", "a.b.c", "items[3]"] {
            #expect(JSONKeyPath(text).description == text)
            #expect(JSONKeyPath(JSONKeyPath(text).description) == JSONKeyPath(text))
        }
    }

    @Test("the value at a path is the value the whole tree holds there", arguments: [
        ("data.items[1].name", ParameterValue.string("two")),
        ("data.items.0.id", .int(1)),
        ("data.items[1].deep[0][1][0]", .int(5)),
        ("meta", ParameterValue.dictionary(["page": 2, "tags": .array(["a", "b"])])),
        ("meta.tags", .array(["a", "b"])),
        ("data.total", .int(2)),
        ("café", .string("escaped key")),
        ("0", .string("zero key")),
    ])
    func valueAtPath(path: String, expected: ParameterValue) throws {
        #expect(try ParameterValue(json: Self.envelope, atKeyPath: JSONKeyPath(path)) == expected)
    }

    @Test("a key holding a dot is reached with components; the empty path is the whole document")
    func componentsAndEmptyPath() throws {
        #expect(try ParameterValue(json: Self.envelope, atKeyPath: JSONKeyPath([.key("a.b")])) == "dotted")
        #expect(try ParameterValue(json: Self.envelope, atKeyPath: "") == ParameterValue(json: Self.envelope))
    }

    @Test("a repeated key follows the last, as the whole tree keeps it")
    func repeatedKeyFollowsLast() throws {
        #expect(try ParameterValue(json: Self.envelope, atKeyPath: "dup") == 2)
        let data = Data(#"{"a": {"x": 1}, "a": {"x": 2}}"#.utf8)
        #expect(try ParameterValue(json: data, atKeyPath: "a.x") == 2)
        let first = try JSONTape.withParsed(data, maximumDepth: 8) { reader in
            Result { () throws(JSONKeyPathError) in reader.parameterValue(try reader.entry(at: "a.x", repeatedKey: .first)) }
        }
        #expect(try first.get() == 1)
    }

    @Test("keys compare as Swift strings do: a precomposed key finds its decomposed form")
    func keysCompareCanonically() throws {
        #expect(try ParameterValue(json: Self.envelope, atKeyPath: JSONKeyPath([.key("\u{E9}")])) == "decomposed")
    }

    @Test("a path that leads nowhere is an error naming the path, where it stopped and why", arguments: [
        ("data.item", 1, JSONKeyPathError.Reason.keyNotFound("item")),
        ("data.items[2]", 2, .indexOutOfRange(2, count: 2)),
        ("data.items.-1", 2, .notAContainer(found: "an array")),
        ("data.items.first", 2, .notAContainer(found: "an array")),
        ("data[0]", 1, .notAContainer(found: "an object")),
        ("data.total.x", 2, .notAContainer(found: "a number")),
        ("data.items[0].name.x", 4, .notAContainer(found: "a string")),
        ("missing", 0, .keyNotFound("missing")),
    ])
    func missingPaths(path: String, found: Int, reason: JSONKeyPathError.Reason) {
        #expect(throws: JSONKeyPathError(keyPath: JSONKeyPath(path), found: found, reason: reason)) {
            try ParameterValue(json: Self.envelope, atKeyPath: JSONKeyPath(path))
        }
    }

    @Test("a negative index is out of range, never a trap")
    func negativeIndex() {
        #expect(throws: JSONKeyPathError(keyPath: JSONKeyPath([.key("meta"), .key("tags"), .index(-1)]), found: 2, reason: .indexOutOfRange(-1, count: 2))) {
            try ParameterValue(json: Self.envelope, atKeyPath: JSONKeyPath([.key("meta"), .key("tags"), .index(-1)]))
        }
    }

    @Test("a leading empty key keeps its dot, an index too large for Int is out of range, and an error's count is clamped")
    func edgeCases() {
        #expect(JSONKeyPath([.key(""), .key("a")]).description == ".a")
        #expect(JSONKeyPath(".a") == JSONKeyPath([.key(""), .key("a")]))
        #expect(JSONKeyPath("a[99999999999999999999]").components == [.key("a"), .index(Int.max)])
        #expect(throws: JSONKeyPathError(keyPath: "meta.tags.99999999999999999999", found: 2, reason: .indexOutOfRange(Int.max, count: 2))) {
            try ParameterValue(json: Self.envelope, atKeyPath: "meta.tags.99999999999999999999")
        }
        #expect(JSONKeyPathError(keyPath: "a", found: -1, reason: .keyNotFound("a")).description.contains("the document"))
        #expect(JSONKeyPathError(keyPath: "a", found: 9, reason: .keyNotFound("b")).description.contains("\"a\""))
    }

    @Test("the error's sentence names the path and the container that stopped it")
    func errorDescription() {
        let error = JSONKeyPathError(keyPath: "data.items[2]", found: 2, reason: .indexOutOfRange(2, count: 2))
        #expect(error.description == #"No value at "data.items[2]" in the JSON document: "data.items" has 2 elements, so no index 2."#)
        let top = JSONKeyPathError(keyPath: "x", found: 0, reason: .keyNotFound("x"))
        #expect(top.description == #"No value at "x" in the JSON document: the document has no key "x"."#)
    }

    @Test("the rest of the document is still checked: an error after the value is the reader's")
    func restIsChecked() {
        let broken = Data(#"{"data": {"items": [1]}, "after": [1, 2,]}"#.utf8)
        #expect(throws: JSONReadingError.self) { try ParameterValue(json: broken, atKeyPath: "data.items") }
        let deep = Data(("{\"a\": 1, \"b\": " + String(repeating: "[", count: 600) + String(repeating: "]", count: 600) + "}").utf8)
        let error = #expect(throws: JSONReadingError.self) { try ParameterValue(json: deep, atKeyPath: "a") }
        #expect(error?.reason == .nestingTooDeep(limit: 512))
    }

    @Test("a path into a scalar document, or through a long array, finds what it names")
    func scalarDocumentsAndLongArrays() throws {
        #expect(try ParameterValue(json: Data("7".utf8), atKeyPath: "") == 7)
        #expect(throws: JSONKeyPathError(keyPath: "a", found: 0, reason: .notAContainer(found: "a number"))) {
            try ParameterValue(json: Data("7".utf8), atKeyPath: "a")
        }
        let long = Data(("[" + (0..<10_000).map { #"{"n": [\#($0), {"k": "v"}]}"# }.joined(separator: ",") + "]").utf8)
        #expect(try ParameterValue(json: long, atKeyPath: "[9999].n[0]") == 9999)
    }
}
