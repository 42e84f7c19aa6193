#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Testing
@testable import HTTPSerializationCore

@Suite("JSON tape words: tapes of any size keep every word as they grow and move")
struct JSONTapeWordsTests {
    /// Appends `pairs` numbered pairs of words, from a first capacity of `capacity` words.
    static func filled(capacity: Int, pairs: Int) -> JSONTapeWords {
        var words = JSONTapeWords(capacity: capacity)
        for index in 0..<pairs {
            words.append(UInt64(index))
            words.append(~UInt64(index))
        }
        return words
    }

    static func check(_ words: UnsafeBufferPointer<UInt64>, pairs: Int) {
        #expect(words.count == 2 * pairs)
        var wrong = 0
        for index in 0..<pairs where words[2 * index] != UInt64(index) || words[2 * index + 1] != ~UInt64(index) { wrong += 1 }
        #expect(wrong == 0)
    }

    @Test("a tape that grows from a few words past several megabytes keeps every word", arguments: [2, 600_000])
    func growingTapeKeepsItsWords(capacity: Int) {
        // 1.5 million pairs is 24 MB: from 2 words the tape doubles twenty times, from
        // 600,000 words twice, each time moving every word written so far.
        let pairs = 1_500_000
        let words = Self.filled(capacity: capacity, pairs: pairs)
        words.withReader(text: UnsafeRawBufferPointer(start: nil, count: 0)) { Self.check($0.words, pairs: pairs) }
    }

    @Test("a tape handed to storage, and storage copied from a reader, keep every word", arguments: [100, 600_000])
    func storageKeepsTheWords(pairs: Int) {
        let text = Array("[]".utf8)
        let storage = text.withUnsafeBytes { JSONTapeStorage(copying: $0, words: Self.filled(capacity: 64, pairs: pairs)) }
        Self.check(storage.words, pairs: pairs)
        let reader = JSONTapeReader(base: storage.bytes.baseAddress!, byteCount: storage.bytes.count, words: storage.words, overflow: storage.overflow)
        let copy = JSONTapeStorage(copying: reader)
        Self.check(copy.words, pairs: pairs)
        #expect(Array(copy.bytes) == text)
    }

    @Test("a document of megabytes parses to the same values as one of a few bytes")
    func largeDocumentParses() throws {
        let count = 400_000
        let json = "[" + (0..<count).map { #"{"n":\#($0),"s":"v\#($0)"}"# }.joined(separator: ",") + "]"
        #expect(json.utf8.count > 4 << 20)
        guard case .array(let values) = try ParameterValue(json: Data(json.utf8)) else {
            Issue.record("not an array")
            return
        }
        #expect(values.count == count)
        var wrong = 0
        for (index, value) in values.enumerated() where value != ["n": .int(index), "s": .string("v\(index)")] { wrong += 1 }
        #expect(wrong == 0)
        let tape = try JSONTape.parse(Data(json.utf8), maximumDepth: 8)
        #expect(tape.reader.length(0) == count)
    }

    /// Documents whose entries are all narrow, and the same read with every length, count,
    /// offset or end from `limit` up made wide: the outputs must not differ.
    static let wideDocuments = [
        #"[]"#, #"{}"#, #""a long string, longer than the limit""#, #"12345678901234567890"#,
        #"{"key":"value","a longer key":[1,2.5,-3e4,true,false,null,{"n":{}}],"x":"\u00e9\n"}"#,
        #"[[[[["deep"]]]],{"a":[1,2,3,4,5,6,7,8,9,10]},"caf\u00e9","日本語のテキスト"]"#,
    ]

    @Test("wide entries read the same as narrow ones, in the tree, keys and shapes included", arguments: [1, 2, 5, 9])
    func wideEntriesReadTheSame(limit: Int) throws {
        var records = (0..<40).map { #"{"id":\#($0),"name":"record number \#($0)","tags":["a","bb","ccc"],"nested":{"k":null}}"# }
        records.append(#"{"id":-1,"name":"différent","tags":[],"nested":{"k":"v"}}"#)
        for text in Self.wideDocuments + ["[" + records.joined(separator: ",") + "]"] {
            let data = Data(text.utf8)
            let narrow = try JSONTape.parse(data, maximumDepth: 64)
            let wide = try JSONTape.parse(data, maximumDepth: 64, narrowLimit: limit)
            #expect(narrow.storage.overflow.isEmpty)
            // Every document but the empty containers has a length or count of at least 1.
            #expect(wide.storage.overflow.isEmpty == (text.utf8.count == 2), "wide entries in \(text)")
            #expect(wide.reader.build(with: ParameterValueBuilder()) == narrow.reader.build(with: ParameterValueBuilder()), "\(text)")
            // A copy of a wide tape keeps its overflow.
            let copy = JSONTapeStorage(copying: wide.reader)
            withExtendedLifetime(copy) {
                let reader = JSONTapeReader(base: copy.bytes.baseAddress!, byteCount: copy.bytes.count, words: copy.words, overflow: copy.overflow)
                #expect(reader.build(with: ParameterValueBuilder()) == narrow.reader.build(with: ParameterValueBuilder()))
            }
            try #require(narrow.reader.words.count == wide.reader.words.count)
            var entry = 0, wrong = 0
            while entry < narrow.reader.words.count {
                if narrow.reader.kind(entry) != wide.reader.kind(entry) || narrow.reader.flags(entry) != wide.reader.flags(entry)
                    || narrow.reader.length(entry) != wide.reader.length(entry) || narrow.reader.offset(entry) != wide.reader.offset(entry) {
                    wrong += 1
                }
                entry += 1
            }
            #expect(wrong == 0)
        }
    }
}
