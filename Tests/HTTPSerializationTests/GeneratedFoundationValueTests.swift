#if Macros
import Foundation
@testable import HTTPSerializationCodable
import HTTPSerializationMacros
import SeededGenerators
import Testing

/// Issue 63: dates, UUIDs, URLs, data and decimals read where they stand in the text, under
/// every strategy the decoder has, to the values `JSONDecoder` gives; a value the text reader
/// does not read is the tape's, whose error is `JSONDecoder`'s.
@Suite("@GeneratedJSONCoding readers read dates, UUIDs, URLs, data and decimals from the text, as JSONDecoder reads them")
struct GeneratedFoundationValueTests {
    @GeneratedJSONCoding
    struct Event: Codable, Equatable {
        @GeneratedJSONCoding
        enum Kind: String, Codable { case push, pullRequest = "pull_request" }
        var id: UUID
        var kind: Kind
        var at: Date
        var seen: Date?
        var links: [URL]
        var ids: [UUID]?
        var blob: Data?
        var amount: Decimal?
    }

    /// A strategy on both decoders, and the written forms of a date drawn under it: valid
    /// ones first, then ones that are not.
    struct DateCase {
        var name: String
        var ours: JSONBodyDecoder.DateDecodingStrategy
        var foundation: JSONDecoder.DateDecodingStrategy
        var dates: [String]
    }

    static let numericDates = ["12.5", "-3", "1e3", "1700000000123", "0", "-0.0", #""12""#, "true", "[]"]

    static let dateCases = [
        DateCase(name: "deferredToDate", ours: .deferredToDate, foundation: .deferredToDate, dates: numericDates),
        DateCase(name: "secondsSince1970", ours: .secondsSince1970, foundation: .secondsSince1970, dates: numericDates),
        DateCase(name: "millisecondsSince1970", ours: .millisecondsSince1970, foundation: .millisecondsSince1970, dates: numericDates),
        DateCase(name: "iso8601", ours: .iso8601, foundation: .iso8601, dates: [
            #""2026-11-29T01:02:03Z""#, #""2024-02-29T23:59:59Z""#, #""1970-01-01T00:00:00Z""#, #""2026-11-29T03:02:03+02:00""#,
            #""\u0032026-11-29T01:02:03Z""#, #""1600-03-01T00:00:00Z""#,
            #""2026-11-29T01:02:03.5Z""#, #""2023-02-29T00:00:00Z""#, #""2026-11-29 01:02:03Z""#, #""2026-13-01T00:00:00Z""#,
            #""2026-11-29T24:00:00Z""#, #""2026-11-29T01:02:03z""#, #""""#, "1700000000",
        ]),
    ]

    static let uuids = [
        #""E621E1F8-C36C-495A-93FC-0C247A3E6E5F""#, #""e621e1f8-c36c-495a-93fc-0c247a3e6e5f""#, #""E621e1f8-C36c-495A-93fC-0c247A3E6E5f""#,
        #""\u0045621E1F8-C36C-495A-93FC-0C247A3E6E5F""#, #""00000000-0000-0000-0000-000000000000""#,
        #""E621E1F8-C36C-495A-93FC-0C247A3E6E5""#, #""E621E1F8-C36C-495A-93FC-0C247A3E6E5F0""#, #""E621E1F8C36C-495A-93FC-0C247A3E6E5F-""#,
        #""G621E1F8-C36C-495A-93FC-0C247A3E6E5F""#, #""E621E1F8-C36C-495A-93FC-0C247A3E6E5 ""#, #""{E621E1F8-C36C-495A-93FC-0C247A3E6E5F}""#,
        "12", "null",
    ]

    static let urls = [
        #""https://example.com/a?b=c#d""#, #""https:\/\/example.org\/x""#, #""mailto:someone@example.com""#, #""relative/path""#,
        #""http://[::1]:8080/""#, #""http://example.com/\u00e9t\u00e9""#, #""""#, #""a b""#, "7", "null",
    ]

    static let blobs = [#""aGk=""#, #""""#, #""aGk""#, #""!!""#, "[104,105]", "null", "1"]
    static let amounts = ["12.345678901234567890", "-0", "1e5", "0.000001", "123456789012345678901234567890", #""1""#, "null"]

    /// A document of `Event` drawn from the lists above: usually valid, often not.
    static func document(_ random: inout SplitMix64, dates: [String]) -> String {
        func pick(_ list: [String]) -> String { list[Int(random.below(UInt64(list.count)))] }
        // Valid forms come first in each list: weight the draw toward them.
        func mostly(_ list: [String], valid: Int) -> String { random.below(4) > 0 ? list[Int(random.below(UInt64(valid)))] : pick(list) }
        var members = [
            #""id":\#(mostly(uuids, valid: 5))"#,
            #""kind":\#(pick([#""push""#, #""pull_request""#, #""merge""#]))"#,
            #""at":\#(mostly(dates, valid: 6))"#,
            #""links":[\#((0..<random.below(3)).map { _ in mostly(urls, valid: 6) }.joined(separator: ","))]"#,
        ]
        if random.below(2) == 0 { members.append(#""seen":\#(random.below(3) == 0 ? "null" : mostly(dates, valid: 6))"#) }
        if random.below(2) == 0 { members.append(#""ids":[\#((0..<random.below(3)).map { _ in mostly(uuids, valid: 5) }.joined(separator: ","))]"#) }
        if random.below(2) == 0 { members.append(#""blob":\#(pick(blobs))"#) }
        if random.below(2) == 0 { members.append(#""amount":\#(pick(amounts))"#) }
        // Members in the model's order or another: both ways of reading an object.
        if random.below(2) == 0 { members.shuffle(using: &random) }
        return "{" + members.joined(separator: ",") + "}"
    }

    @Test("under each date strategy JSONDecoder shares (deferred, seconds, milliseconds, ISO 8601), the text reader reads every document JSONDecoder reads, to its value; the rest is the tape's, with JSONDecoder's error", arguments: dateCases.map(\.name))
    func foundationValuesMatchJSONDecoder(strategy name: String) throws {
        let dateCase = try #require(Self.dateCases.first { $0.name == name })
        var random = SplitMix64(seed: 63)
        var read = 0, refused = 0
        for dataStrategy in [JSONBodyDecoder.DataDecodingStrategy.base64, .deferredToData] {
            var ours = JSONBodyDecoder()
            ours.dateDecodingStrategy = dateCase.ours
            ours.dataDecodingStrategy = dataStrategy
            let foundation = JSONDecoder()
            foundation.dateDecodingStrategy = dateCase.foundation
            if case .deferredToData = dataStrategy { foundation.dataDecodingStrategy = .deferredToData }
            for _ in 0..<600 {
                let text = Self.document(&random, dates: dateCase.dates)
                let theirs = JSONBodyDecoderDifferentialTests.Outcome { try foundation.decode(Event.self, from: Data(text.utf8)) }
                let tape = GeneratedTextReaderTests.fromTape(Event.self, text, decoder: ours)
                #expect(tape.matches(foundation: theirs), "\(name): \(text): tape \(tape), JSONDecoder \(theirs)")
                let fromText = GeneratedTextReaderTests.fromText(Event.self, text, decoder: ours)
                if let fromText {
                    read += 1
                    #expect(.value(fromText) == theirs, "\(name): \(text)")
                } else {
                    refused += 1
                    // Everything JSONDecoder reads, the text reader reads: no value falls back.
                    if case .value = theirs { Issue.record("\(name): the text reader left a document JSONDecoder reads to the tape: \(text)") }
                }
                let decoded = try? ours.decode(Event.self, from: Data(text.utf8))
                #expect(decoded == (try? foundation.decode(Event.self, from: Data(text.utf8))))
            }
        }
        // Both outcomes are exercised.
        #expect(read > 100 && refused > 100, "\(name): \(read) read, \(refused) refused")
    }

    @Test("a custom date or data strategy is the tape's: the text reader stops, and the decode gives the strategy's value")
    func customStrategiesAreTheTapes() throws {
        let text = #"{"id":"E621E1F8-C36C-495A-93FC-0C247A3E6E5F","kind":"push","at":1,"links":[],"blob":"aGk="}"#
        var custom = JSONBodyDecoder()
        custom.dateDecodingStrategy = .custom { _ in Date(timeIntervalSince1970: 42) }
        #expect(GeneratedTextReaderTests.fromText(Event.self, text, decoder: custom) == nil)
        #expect(try custom.decode(Event.self, from: Data(text.utf8)).at == Date(timeIntervalSince1970: 42))
        var data = JSONBodyDecoder()
        data.dataDecodingStrategy = .custom { _ in Data([7]) }
        #expect(GeneratedTextReaderTests.fromText(Event.self, text, decoder: data) == nil)
        #expect(try data.decode(Event.self, from: Data(text.utf8)).blob == Data([7]))
    }

    @Test("a formatted ISO 8601 strategy reads its own form from the text, fractional seconds included, and leaves any other to the tape")
    func formattedDatesFromTheText() throws {
        var ours = JSONBodyDecoder()
        let style = Date.ISO8601FormatStyle(includingFractionalSeconds: true)
        ours.dateDecodingStrategy = .formatted(style)
        let text = #"{"id":"E621E1F8-C36C-495A-93FC-0C247A3E6E5F","kind":"push","at":"2026-11-29T01:02:03.250Z","links":[]}"#
        let event = try #require(GeneratedTextReaderTests.fromText(Event.self, text, decoder: ours))
        #expect(event.at == (try style.parse("2026-11-29T01:02:03.250Z")))
        let other = text.replacingOccurrences(of: "2026-11-29T01:02:03.250Z", with: "29/11/2026")
        #expect(GeneratedTextReaderTests.fromText(Event.self, other, decoder: ours) == nil)
        #expect(throws: DecodingError.self) { try ours.decode(Event.self, from: Data(other.utf8)) }
    }

    @Test("a UUID's text parsed from its bytes is UUID(uuidString:)'s, and anything it does not parse is left to UUID(uuidString:)")
    func uuidTextMatchesFoundation() {
        var random = SplitMix64(seed: 36)
        let alphabet = Array("0123456789abcdefABCDEFgG-{} z\u{0}".utf8)
        var parsed = 0
        for round in 0..<20_000 {
            var bytes = Array(UUID().uuidString.utf8)
            if round % 2 == 1 { bytes = Array(String(decoding: bytes, as: UTF8.self).lowercased().utf8) }
            // Mutate some: a byte changed, one dropped or one added.
            for _ in 0..<random.below(3) {
                switch random.below(3) {
                case 0 where !bytes.isEmpty: bytes[Int(random.below(UInt64(bytes.count)))] = alphabet[Int(random.below(UInt64(alphabet.count)))]
                case 1 where !bytes.isEmpty: bytes.remove(at: Int(random.below(UInt64(bytes.count))))
                default: bytes.insert(alphabet[Int(random.below(UInt64(alphabet.count)))], at: Int(random.below(UInt64(bytes.count + 1))))
                }
            }
            let ours = bytes.withUnsafeBufferPointer { UUIDText.parse($0) }
            let theirs = UUID(uuidString: String(decoding: bytes, as: UTF8.self))
            if let ours {
                parsed += 1
                #expect(ours == theirs, "\(String(decoding: bytes, as: UTF8.self))")
            }
            // The canonical form, either case, is always parsed from the bytes. (Foundation on
            // Linux also reads a hyphen where a digit belongs, to another UUID: left to it.)
            let hyphens = [8, 13, 18, 23]
            let canonical = bytes.count == 36 && bytes.indices.allSatisfy { index in
                hyphens.contains(index) ? bytes[index] == UInt8(ascii: "-") : Character(UnicodeScalar(bytes[index])).isHexDigit
            }
            if canonical { #expect(ours != nil && ours == theirs, "\(String(decoding: bytes, as: UTF8.self))") }
        }
        #expect(parsed > 5_000)
    }

    @Test("a generated writer writes a UUID as JSONEncoder does, and the text reads back")
    func uuidsWriteAsJSONEncoder() throws {
        let event = Event(id: UUID(uuidString: "E621E1F8-C36C-495A-93FC-0C247A3E6E5F")!, kind: .pullRequest, at: Date(timeIntervalSinceReferenceDate: 12.5),
                          seen: nil, links: [URL(string: "https://example.com/a")!], ids: [UUID(), UUID()], blob: Data("hi".utf8), amount: Decimal(string: "1.25"))
        let written = try JSONBodyEncoder().encode(event)
        #expect(String(decoding: written, as: UTF8.self).contains(#""id":"E621E1F8-C36C-495A-93FC-0C247A3E6E5F""#))
        #expect(try JSONDecoder().decode(Event.self, from: written) == event)
        #expect(try JSONBodyDecoder().decode(Event.self, from: written) == event)
    }
}
#endif
