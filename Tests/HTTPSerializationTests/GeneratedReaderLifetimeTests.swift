import Foundation
import Testing
import HTTPSerializationCodable
#if Macros
import HTTPSerializationMacros
#endif

/// A generated reader's `JSONTapeValue`, `JSONTapeObject` and `JSONTextReader` read memory the
/// decode lends them. The value and the text reader cannot be copied and are only handed on
/// `borrowing` or `inout`, so the compiler refuses code that keeps them; an object can be kept,
/// and one used after its decode returned traps, in every build.
@Suite("Generated readers: no reader outlives its decode")
struct GeneratedReaderLifetimeTests {
    /// What a reader that breaks the rule keeps. Written by the decode and read after it on the
    /// same task, in one exit test's process, so nothing reaches it from two threads at once.
    final class Kept: @unchecked Sendable {
        var object: JSONTapeObject?
    }

    @TaskLocal static var kept: Kept?

    /// Keeps the object its tape reader opens.
    struct KeepsTapeObject: JSONTapeDecodable {
        var id: Int
        init(from decoder: any Decoder) throws {
            id = try decoder.singleValueContainer().decode(Int.self)
        }
        init(jsonTape value: borrowing JSONTapeValue) throws {
            var object = try value.object()
            id = try object.decode(Int.self, forKey: "id")
            GeneratedReaderLifetimeTests.kept?.object = object
        }
    }

    static let document = Data(#"{"id": 7}"#.utf8)

    /// What a decode of `type` left in the task's `Kept`, once the decode has returned.
    static func keptAfterDecoding<T: Decodable>(_ type: T.Type) throws -> Kept {
        let kept = Kept()
        _ = try $kept.withValue(kept) { try JSONBodyDecoder().decode(type, from: document) }
        return kept
    }

    @Test("a reader that keeps its object still decodes as usual")
    func usedDuringDecode() throws {
        let kept = Kept()
        let value = try Self.$kept.withValue(kept) { try JSONBodyDecoder().decode(KeepsTapeObject.self, from: Self.document) }
        #expect(value.id == 7)
        #expect(kept.object != nil)
    }

    /// Whether the child process stopped at the lifetime check, not somewhere else.
    static func trappedOnLifetime(_ result: ExitTest.Result?) -> Bool {
        guard let result else { return false }
        return String(decoding: result.standardErrorContent, as: UTF8.self).contains("A JSON reader was used after the decode that made it returned")
    }

    @Test("a JSONTapeObject read after its decode returned traps")
    func keptTapeObjectTraps() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let kept = try GeneratedReaderLifetimeTests.keptAfterDecoding(GeneratedReaderLifetimeTests.KeepsTapeObject.self)
            _ = kept.object?.contains("id")
        }
        #expect(Self.trappedOnLifetime(result))
    }

    @Test("a JSONTapeObject's coding path after its decode returned traps")
    func keptTapeObjectPathTraps() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let kept = try GeneratedReaderLifetimeTests.keptAfterDecoding(GeneratedReaderLifetimeTests.KeepsTapeObject.self)
            _ = kept.object?.codingPath
        }
        #expect(Self.trappedOnLifetime(result))
    }

    @Test("a JSONTapeObject's decode and decodeIfPresent after its decode returned trap")
    func keptTapeObjectDecodeTraps() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let kept = try GeneratedReaderLifetimeTests.keptAfterDecoding(GeneratedReaderLifetimeTests.KeepsTapeObject.self)
            _ = try kept.object?.decode(Int.self, forKey: "id")
        }
        #expect(Self.trappedOnLifetime(result))
        let present = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let kept = try GeneratedReaderLifetimeTests.keptAfterDecoding(GeneratedReaderLifetimeTests.KeepsTapeObject.self)
            _ = try kept.object?.decodeIfPresent(Date.self, forKey: "id")
        }
        #expect(Self.trappedOnLifetime(present))
    }

    /// Keeps the `Decoder` it is handed, as a type may: the decoder stays usable after the decode.
    struct KeepsDecoder: Decodable {
        var id: Int
        var decoder: any Decoder
        init(from decoder: any Decoder) throws {
            id = try decoder.container(keyedBy: GeneratedReaderLifetimeTests.Key.self).decode(Int.self, forKey: .id)
            self.decoder = decoder
        }
    }

    enum Key: String, CodingKey { case id }

    @Test("a Decoder kept past its decode still reads, through readers it opens afterwards")
    func keptDecoderStillReads() throws {
        let kept = try JSONBodyDecoder().decode(KeepsDecoder.self, from: Self.document)
        #expect(kept.id == 7)
        #expect(try kept.decoder.container(keyedBy: Key.self).decode(Int.self, forKey: .id) == 7)
        // A reader over the parse, opened through the kept decoder after its decode returned.
        #expect(try kept.decoder.singleValueContainer().decode(KeepsTapeObject.self).id == 7)
    }

    /// Where an outer reader puts its own reader while a nested decode runs.
    final class Stash: @unchecked Sendable {
        var reader: JSONTextReader?
    }

    @TaskLocal static var stash: Stash?

    /// Swaps the reader of its decode with the one in the stash.
    struct SwapsReader: JSONTapeDecodable {
        var id = 1
        init(from decoder: any Decoder) throws {}
        init(jsonTape value: borrowing JSONTapeValue) throws {}
        init(jsonText reader: inout JSONTextReader) throws {
            if let stash = GeneratedReaderLifetimeTests.stash, var outer = stash.reader.take() {
                swap(&reader, &outer)
                stash.reader = consume outer
            }
        }
    }

    /// Puts its reader in the stash, runs a nested decode that swaps it for the nested one's,
    /// and takes back what the stash then holds: the nested decode's reader, whose text is gone.
    struct LendsReader: JSONTapeDecodable {
        var id = 0
        init(from decoder: any Decoder) throws {}
        init(jsonTape value: borrowing JSONTapeValue) throws {}
        init(jsonText reader: inout JSONTextReader) throws {
            let stash = GeneratedReaderLifetimeTests.stash!
            stash.reader = consume reader
            _ = try? JSONBodyDecoder().decode(SwapsReader.self, from: Data(#"{"nested": [1, 2, 3]}"#.utf8))
            reader = stash.reader.take()!
            try reader.skipValue()
        }
    }

    @Test("a decode that ends with another decode's reader traps before that reader is read")
    func swappedTextReaderTraps() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            _ = try GeneratedReaderLifetimeTests.$stash.withValue(Stash()) {
                try JSONBodyDecoder().decode(GeneratedReaderLifetimeTests.LendsReader.self, from: GeneratedReaderLifetimeTests.document)
            }
        }
        let printed = result.map { String(decoding: $0.standardErrorContent, as: UTF8.self) } ?? ""
        #expect(printed.contains("A JSONTextReader was swapped with another decode's"), "\(printed)")
    }

    /// Where a hand-written reader keeps a slot past its decode.
    final class SlotStash: @unchecked Sendable {
        var slot: JSONTextReader.Slot<String>?
    }

    @TaskLocal static var slotStash: SlotStash?

    /// Reads its object in the document's order into a slot it keeps; a later decode reads the
    /// kept slot first, in its own text.
    struct KeepsSlot: JSONTapeDecodable {
        var name = ""
        init(from decoder: any Decoder) throws {}
        init(jsonTape value: borrowing JSONTapeValue) throws {}
        init(jsonText reader: inout JSONTextReader) throws {
            let stash = GeneratedReaderLifetimeTests.slotStash!
            var object = try reader.object()
            if let kept = stash.slot { name = try reader.decode(from: kept) }
            var slot = JSONTextReader.Slot(String.self)
            while let member = try reader.nextMember(in: &object) {
                if try reader.member(member, is: "name") { try reader.read(into: &slot) } else { try reader.skipValue() }
            }
            if stash.slot == nil { name = try reader.decode(from: slot) }
            stash.slot = slot
        }
    }

    @Test("a string slot read by a decode of a shorter text traps")
    func keptSlotTraps() async throws {
        let first = try Self.$slotStash.withValue(SlotStash()) {
            try JSONBodyDecoder().decode(KeepsSlot.self, from: Data(#"{"name": "a longer name"}"#.utf8))
        }
        #expect(first.name == "a longer name")
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            try GeneratedReaderLifetimeTests.$slotStash.withValue(SlotStash()) {
                let texts = [Data(#"{"name": "a longer name"}"#.utf8), Data(#"{"name": "x"}"#.utf8)]
                let decoder = JSONBodyDecoder()
                _ = try decoder.decode(GeneratedReaderLifetimeTests.KeepsSlot.self, from: texts[0])
                _ = try decoder.decode(GeneratedReaderLifetimeTests.KeepsSlot.self, from: texts[1])
                withExtendedLifetime(texts) {}
            }
        }
        let printed = result.map { String(decoding: $0.standardErrorContent, as: UTF8.self) } ?? ""
        #expect(printed.contains("A JSONTextReader.Slot was read by a decode other than the one that filled it"), "\(printed)")
    }

    #if Macros
    /// A reader type that tries to keep what it is handed: `body` is the reader's statement,
    /// on line 7 of the checked source (the harness's import is line 1), in the reader on line 6.
    static func keeping(_ stored: String, in signature: String, _ body: String) -> String {
        let readers = ["init(jsonTape value: borrowing JSONTapeValue) throws", "init(jsonText reader: inout JSONTextReader) throws"]
        let other = readers.first { $0 != signature } ?? readers[0]
        return """
        nonisolated(unsafe) var kept: \(stored)? = nil
        struct Keeper: JSONTapeDecodable {
            init(from decoder: any Decoder) throws {}
            \(other) {}
            \(signature) {
                \(body)
            }
        }
        """
    }

    @GeneratedJSONCoding
    struct NameFirst: Codable, Equatable {
        var name: String
        var id: Int
    }

    @Test("a null for a required property, in an object read in the document's order, is the tape's error, not a trap")
    func nullInDocumentOrderIsAnError() throws {
        #expect(try JSONBodyDecoder().decode(NameFirst.self, from: Data(#"{"id": 3, "name": "a"}"#.utf8)) == NameFirst(name: "a", id: 3))
        #expect(throws: DecodingError.self) {
            try JSONBodyDecoder().decode(NameFirst.self, from: Data(#"{"id": null, "name": "a"}"#.utf8))
        }
    }

    /// Whether `swiftc` refused the reader with an error at its signature or its statement
    /// (lines 6 and 7 of the checked source).
    static func refused(_ checked: (accepted: Bool, output: String)) -> Bool {
        !checked.accepted && (6...7).contains { checked.output.contains(".swift:\($0):") }
            && checked.output.contains("error:")
    }

    /// What a reader is handed, the reader's signature, statements that keep it, and one that
    /// only uses it.
    static let handed: [(type: String, signature: String, keeping: [String], using: String)] = [
        ("JSONTapeValue", "init(jsonTape value: borrowing JSONTapeValue) throws",
         ["kept = value", "let copy = value; kept = copy", "kept = consume value"], "_ = value.isNull"),
        ("JSONTextReader", "init(jsonText reader: inout JSONTextReader) throws",
         ["kept = reader", "let copy = reader; kept = copy", "kept = consume reader"], "try reader.skipValue()"),
    ]

    @Test("the compiler refuses a reader that keeps its JSONTapeValue or JSONTextReader, or a copy of it", arguments: 0..<2)
    func keepingWhatAReaderIsHandedDoesNotCompile(_ index: Int) throws {
        let handed = Self.handed[index]
        for body in handed.keeping {
            let checked = try GeneratedModelCompilerTests.typecheck(Self.keeping(handed.type, in: handed.signature, body), ownership: true)
            #expect(Self.refused(checked), "\(body): \(checked.output)")
        }
        // The same reader without keeping compiles: what the compiler refuses is the keeping.
        let plain = try GeneratedModelCompilerTests.typecheck(Self.keeping(handed.type, in: handed.signature, handed.using), ownership: true)
        #expect(plain.accepted, "\(plain.output)")
    }
    #endif
}
