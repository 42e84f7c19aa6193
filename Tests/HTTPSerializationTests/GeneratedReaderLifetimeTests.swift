import Foundation
import Testing
import HTTPSerializationCodable

/// A generated reader's `JSONTapeValue`, `JSONTapeObject` and `JSONTextReader` read memory the
/// decode lends them; release builds do not check, debug builds trap where a kept one is used.
@Suite("Generated readers: a reader kept past its decode traps in debug builds")
struct GeneratedReaderLifetimeTests {
    /// What a reader that breaks the rule keeps. Written by the decode and read after it on the
    /// same task, in one exit test's process, so nothing reaches it from two threads at once.
    final class Kept: @unchecked Sendable {
        var value: JSONTapeValue?
        var object: JSONTapeObject?
        var reader: JSONTextReader?
    }

    @TaskLocal static var kept: Kept?

    /// Keeps the value and the object its tape reader is handed.
    struct KeepsTapeValue: JSONTapeDecodable {
        var id: Int
        init(from decoder: any Decoder) throws {
            id = try decoder.singleValueContainer().decode(Int.self)
        }
        init(jsonTape value: JSONTapeValue) throws {
            var object = try value.object()
            id = try object.decode(Int.self, forKey: "id")
            GeneratedReaderLifetimeTests.kept?.value = value
            GeneratedReaderLifetimeTests.kept?.object = object
        }
    }

    /// Keeps a copy of the text reader it is handed.
    struct KeepsTextReader: JSONTapeDecodable {
        var id: Int
        init(from decoder: any Decoder) throws {
            id = try decoder.singleValueContainer().decode(Int.self)
        }
        init(jsonTape value: JSONTapeValue) throws {
            var object = try value.object()
            id = try object.decode(Int.self, forKey: "id")
        }
        init(jsonText reader: inout JSONTextReader) throws {
            var object = try reader.object()
            id = try reader.decode(Int.self, forKey: "id", in: &object)
            try reader.close(&object)
            GeneratedReaderLifetimeTests.kept?.reader = reader
        }
    }

    static let document = Data(#"{"id": 7}"#.utf8)

    /// What a decode of `type` left in the task's `Kept`, once the decode has returned.
    static func keptAfterDecoding<T: Decodable>(_ type: T.Type) throws -> Kept {
        let kept = Kept()
        _ = try $kept.withValue(kept) { try JSONBodyDecoder().decode(type, from: document) }
        return kept
    }

    @Test("readers that keep what they are handed still decode as usual")
    func usedDuringDecode() throws {
        let kept = Kept()
        let values = try Self.$kept.withValue(kept) {
            (try JSONBodyDecoder().decode(KeepsTapeValue.self, from: Self.document),
             try JSONBodyDecoder().decode(KeepsTextReader.self, from: Self.document))
        }
        #expect(values.0.id == 7 && values.1.id == 7)
        #expect(kept.value != nil && kept.object != nil && kept.reader != nil)
    }

    #if DEBUG
    /// Whether the child process stopped at the lifetime check, not somewhere else.
    static func trappedOnLifetime(_ result: ExitTest.Result?) -> Bool {
        guard let result else { return false }
        return String(decoding: result.standardErrorContent, as: UTF8.self).contains("A JSON reader was used after the decode that made it returned")
    }

    @Test("a JSONTapeValue used after its decode returned traps")
    func keptTapeValueTraps() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let kept = try GeneratedReaderLifetimeTests.keptAfterDecoding(GeneratedReaderLifetimeTests.KeepsTapeValue.self)
            _ = kept.value?.isNull
        }
        #expect(Self.trappedOnLifetime(result))
    }

    @Test("a JSONTapeObject used after its decode returned traps")
    func keptTapeObjectTraps() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let kept = try GeneratedReaderLifetimeTests.keptAfterDecoding(GeneratedReaderLifetimeTests.KeepsTapeValue.self)
            _ = kept.object?.contains("id")
        }
        #expect(Self.trappedOnLifetime(result))
    }

    @Test("a JSONTextReader used after its decode returned traps")
    func keptTextReaderTraps() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let kept = try GeneratedReaderLifetimeTests.keptAfterDecoding(GeneratedReaderLifetimeTests.KeepsTextReader.self)
            var reader = kept.reader
            try reader?.skipValue()
        }
        #expect(Self.trappedOnLifetime(result))
    }
    #endif
}
