#if Macros
import Foundation
@testable import HTTPSerializationCodable
import HTTPSerializationMacros
import Synchronization
import Testing

/// Issue 63: models that once left the text reader without a word (a set, a generic
/// parameter, an optional spelled through a type alias) read on the text path, to
/// `JSONDecoder`'s values, and write `JSONEncoder`'s text.
@Suite("@GeneratedJSONCoding readers keep sets, generic parameters and aliased optionals on the text path")
struct GeneratedFallbackTests {
    typealias MaybeCount = Int?
    typealias MaybeTemperature = Temperature?

    /// A plain `Codable` type, with no reader of its own.
    struct Temperature: Codable, Equatable { var kelvin: Double }

    @GeneratedJSONCoding
    struct Aliased: Codable, Equatable {
        var name: String
        var count: MaybeCount
        var temperature: MaybeTemperature
        var tags: Set<String>
    }

    @GeneratedJSONCoding
    struct Item: Codable, Equatable, Hashable {
        var id: Int
        var label: String
    }

    /// A page as a user writes one: the parameter only `Codable`.
    @GeneratedJSONCoding
    struct Page<Element: Codable & Equatable>: Codable, Equatable {
        var items: [Element]
        var first: Element?
        var next: String?
    }

    @Test("an optional spelled through a type alias is nil when its key is missing or null, in either member order, and its nil leaves the key out", arguments: [
        #"{"name":"a","tags":[]}"#, #"{"name":"a","count":null,"temperature":null,"tags":["x","x"]}"#,
        #"{"tags":["y"],"name":"a"}"#, #"{"name":"a","count":3,"tags":[]}"#, #"{"tags":[],"count":4,"name":"b"}"#,
    ])
    func aliasedOptionals(text: String) throws {
        let theirs = try JSONDecoder().decode(Aliased.self, from: Data(text.utf8))
        #expect(GeneratedTextReaderTests.fromText(Aliased.self, text) == theirs)
        #expect(GeneratedTextReaderTests.fromTape(Aliased.self, text) == .value(theirs))
        #expect(try JSONBodyDecoder().decode(Aliased.self, from: Data(text.utf8)) == theirs)
        // Written back: nil leaves the key out, as JSONEncoder writes it.
        let written = try JSONBodyEncoder().encode(theirs)
        #expect(String(decoding: written, as: UTF8.self).contains("count") == (theirs.count != nil))
        #expect(try JSONDecoder().decode(Aliased.self, from: written) == theirs)
    }

    @Test("an aliased optional of a type with no reader of its own is nil from the text when missing or null; a value of it is the tape's")
    func aliasedOptionalWithoutAReader() throws {
        let missing = #"{"name":"a","tags":[],"count":1}"#
        #expect(GeneratedTextReaderTests.fromText(Aliased.self, missing)?.temperature == nil)
        #expect(GeneratedTextReaderTests.fromText(Aliased.self, missing) != nil)
        let present = #"{"name":"a","tags":[],"temperature":{"kelvin":3.5}}"#
        #expect(GeneratedTextReaderTests.fromText(Aliased.self, present) == nil)
        #expect(try JSONBodyDecoder().decode(Aliased.self, from: Data(present.utf8)).temperature == Temperature(kelvin: 3.5))
    }

    @Test("a generic page of generated models reads on the text path, in either member order; of a plain type, through the tape")
    func genericParametersReadByTheirReader() throws {
        for text in [#"{"items":[{"id":1,"label":"a"},{"label":"b","id":2}],"first":{"id":1,"label":"a"},"next":"n"}"#,
                     #"{"next":null,"first":null,"items":[{"id":1,"label":"a"}]}"#,
                     #"{"next":"n","items":[],"first":{"label":"c","id":3}}"#] {
            let theirs = try JSONDecoder().decode(Page<Item>.self, from: Data(text.utf8))
            #expect(GeneratedTextReaderTests.fromText(Page<Item>.self, text) == theirs, "\(text)")
            #expect(try JSONBodyDecoder().decode(Page<Item>.self, from: Data(text.utf8)) == theirs)
        }
        let plain = #"{"items":[{"kelvin":1}]}"#
        #expect(GeneratedTextReaderTests.fromText(Page<Temperature>.self, plain) == nil)
        #expect(try JSONBodyDecoder().decode(Page<Temperature>.self, from: Data(plain.utf8)).items == [Temperature(kelvin: 1)])
        // A wrong kind under a generic parameter is the tape's error, JSONDecoder's.
        let wrong = #"{"items":[{"id":"1","label":"a"}]}"#
        #expect(GeneratedTextReaderTests.fromText(Page<Item>.self, wrong) == nil)
        #expect(GeneratedTextReaderTests.fromTape(Page<Item>.self, wrong).matches(
            foundation: JSONBodyDecoderDifferentialTests.Outcome { try JSONDecoder().decode(Page<Item>.self, from: Data(wrong.utf8)) }))
    }

    @GeneratedJSONCoding
    struct Tagged: Codable, Equatable {
        var tags: Set<String>
        var ids: Set<UUID>?
        var items: Set<Item>
    }

    @Test("sets read from the text as JSONDecoder reads them, a repeated element kept once, and write as arrays that JSONDecoder reads back")
    func setsOnTheTextPath() throws {
        let text = #"{"tags":["a","b","a"],"ids":["E621E1F8-C36C-495A-93FC-0C247A3E6E5F"],"items":[{"id":1,"label":"x"},{"id":1,"label":"x"}]}"#
        let theirs = try JSONDecoder().decode(Tagged.self, from: Data(text.utf8))
        #expect(GeneratedTextReaderTests.fromText(Tagged.self, text) == theirs)
        #expect(theirs.tags == ["a", "b"] && theirs.items.count == 1)
        let bad = #"{"tags":["a",1],"items":[]}"#
        #expect(GeneratedTextReaderTests.fromText(Tagged.self, bad) == nil)
        #expect(GeneratedTextReaderTests.fromTape(Tagged.self, bad).matches(
            foundation: JSONBodyDecoderDifferentialTests.Outcome { try JSONDecoder().decode(Tagged.self, from: Data(bad.utf8)) }))
        let one = Tagged(tags: ["only"], ids: nil, items: [Item(id: 2, label: "y")])
        // JSONEncoder on Linux orders keys by hash: the text is compared as written, the values read back.
        let ours = try JSONBodyEncoder().encode(one)
        #expect(String(decoding: ours, as: UTF8.self) == #"{"tags":["only"],"items":[{"id":2,"label":"y"}]}"#)
        #expect(try JSONDecoder().decode(Tagged.self, from: ours) == one)
    }

    typealias Maybe<Value> = Value?

    /// An optional through a generic alias, in a generic model: read from a slot when the
    /// object's members come in another order.
    @GeneratedJSONCoding
    struct Boxed<Value: Codable & Equatable>: Codable, Equatable {
        var name: String
        var value: Maybe<Value>
    }

    @Test("an optional through a generic alias is nil when missing or null, read by its reader when it has one, and the tape's when not", arguments: [
        #"{"name":"a"}"#, #"{"value":null,"name":"a"}"#, #"{"name":"a","value":null}"#,
    ])
    func genericAliasedOptionals(text: String) throws {
        #expect(GeneratedTextReaderTests.fromText(Boxed<Item>.self, text) == Boxed(name: "a", value: nil))
        #expect(GeneratedTextReaderTests.fromText(Boxed<Temperature>.self, text) == Boxed(name: "a", value: nil))
        let item = text.replacingOccurrences(of: "null", with: #"{"label":"x","id":1}"#)
        if item != text {
            #expect(GeneratedTextReaderTests.fromText(Boxed<Item>.self, item) == Boxed(name: "a", value: Item(id: 1, label: "x")))
            let temperature = text.replacingOccurrences(of: "null", with: #"{"kelvin":1}"#)
            #expect(GeneratedTextReaderTests.fromText(Boxed<Temperature>.self, temperature) == nil)
            #expect(try JSONBodyDecoder().decode(Boxed<Temperature>.self, from: Data(temperature.utf8)).value == Temperature(kelvin: 1))
        }
    }

    @GeneratedJSONCoding
    struct Reading: Codable, Equatable {
        var at: Date
        var temperature: Temperature?
    }

    /// The fallbacks `decoder` reports while decoding `text` as `type`.
    static func fallbacks<T: Decodable>(_ type: T.Type, _ text: String, decoder: JSONBodyDecoder = JSONBodyDecoder()) -> [JSONBodyDecoder.TextReaderFallback] {
        let seen = Mutex<[JSONBodyDecoder.TextReaderFallback]>([])
        var decoder = decoder
        decoder.onTextReaderFallback = { fallback in seen.withLock { $0.append(fallback) } }
        _ = try? decoder.decode(type, from: Data(text.utf8))
        return seen.withLock { $0 }
    }

    @Test("a decode that leaves the text path says which model and why; one that stays says nothing")
    func fallbacksAreReported() {
        let model = String(reflecting: Reading.self)
        #expect(Self.fallbacks(Reading.self, #"{"at":1}"#).isEmpty)
        #expect(Self.fallbacks([Item].self, #"[{"id":1,"label":"a"}]"#).isEmpty)
        #expect(Self.fallbacks(Reading.self, #"{"at":1,"temperature":{"kelvin":2}}"#)
            == [.init(model: model, reason: .noReader(type: String(reflecting: Temperature.self)))])
        #expect(Self.fallbacks(Reading.self, #"{"at":"soon"}"#) == [.init(model: model, reason: .document)])
        var custom = JSONBodyDecoder()
        custom.dateDecodingStrategy = .custom { _ in Date(timeIntervalSince1970: 0) }
        #expect(Self.fallbacks(Reading.self, #"{"at":1}"#, decoder: custom) == [.init(model: model, reason: .customDateStrategy)])
        var keys = JSONBodyDecoder()
        keys.keyDecodingStrategy = .custom { $0.last! }
        #expect(Self.fallbacks([Reading].self, #"[]"#, decoder: keys) == [.init(model: String(reflecting: [Reading].self), reason: .customKeyStrategy)])
        let fallback = JSONBodyDecoder.TextReaderFallback(model: "App.Profile", reason: .noReader(type: "Foundation.Locale"))
        #expect(fallback.description == "App.Profile read through the parse: its property type Foundation.Locale has no generated reader")
    }
}
#endif
