import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing
@testable import HTTPSerialization
@testable import HTTPSerializationCodable
@testable import HTTPSerializationCore
@testable import HTTPSerializationFoundation
@testable import HTTPSerializationImages
@testable import HTTPSerializationXML

@Suite("JSON decoder: options, paths and hostile documents")
struct JSONBodyDecoderTests {
    static func decode<T: Decodable>(_ type: T.Type, _ text: String, _ configure: (inout JSONBodyDecoder) -> Void = { _ in }) throws -> T {
        var decoder = JSONBodyDecoder()
        configure(&decoder)
        return try decoder.decode(type, from: Data(text.utf8))
    }

    struct Event: Decodable, Equatable {
        var at: Date
        var payload: Data
    }

    @Test("date strategies read seconds, milliseconds, ISO 8601 (with a format) and custom forms")
    func dateStrategies() throws {
        let noon = Date(timeIntervalSince1970: 1_714_564_800)
        #expect(try Self.decode([Date].self, "[1714564800]") { $0.dateDecodingStrategy = .secondsSince1970 } == [noon])
        #expect(try Self.decode([Date].self, "[1714564800000]") { $0.dateDecodingStrategy = .millisecondsSince1970 } == [noon])
        #expect(try Self.decode([Date].self, #"["2024-05-01T12:00:00Z", "2024-05-01T14:00:00+02:00"]"#) { $0.dateDecodingStrategy = .iso8601 } == [noon, noon])
        #expect(try Self.decode([Date].self, "[736257600]") == [noon])
        let fractional = try Self.decode([Date].self, #"["2024-05-01T12:00:00.250Z"]"#) {
            $0.dateDecodingStrategy = .formatted(.iso8601.year().month().day().time(includingFractionalSeconds: true))
        }
        #expect(fractional == [noon.addingTimeInterval(0.25)])
        let custom = try Self.decode([Date].self, #"["noon"]"#) {
            $0.dateDecodingStrategy = .custom { decoder in
                try decoder.singleValueContainer().decode(String.self) == "noon" ? noon : .distantPast
            }
        }
        #expect(custom == [noon])
        #expect(throws: DecodingError.self) { try Self.decode([Date].self, #"["2024-05-01"]"#) { $0.dateDecodingStrategy = .iso8601 } }
    }

    @Test("data reads as Base64 by default, as bytes when deferred; bad Base64 is corrupted data at its path")
    func dataStrategies() throws {
        let event = try Self.decode(Event.self, #"{"at": 0, "payload": "aGk="}"#)
        #expect(event.payload == Data("hi".utf8))
        let bytes = try Self.decode(Event.self, #"{"at": 0, "payload": [104, 105]}"#) { $0.dataDecodingStrategy = .deferredToData }
        #expect(bytes.payload == Data("hi".utf8))
        do {
            _ = try Self.decode(Event.self, #"{"at": 0, "payload": "not base64!"}"#)
            Issue.record("bad Base64 was accepted")
        } catch DecodingError.dataCorrupted(let context) {
            #expect(context.codingPath.map(\.stringValue) == ["payload"])
        }
    }

    @Test("non-conforming floats come from the strings named for them, and only then")
    func nonConformingFloats() throws {
        let values = try Self.decode([Double].self, #"["+inf", "-inf", "nan", 1.5]"#) {
            $0.nonConformingFloatDecodingStrategy = .convertFromString(positiveInfinity: "+inf", negativeInfinity: "-inf", nan: "nan")
        }
        #expect(values[0] == .infinity && values[1] == -.infinity && values[2].isNaN && values[3] == 1.5)
        #expect(throws: DecodingError.self) { try Self.decode([Double].self, #"["+inf"]"#) }
    }

    @Test("a custom key strategy sees the path to each key; userInfo reaches init(from:)")
    func customKeysAndUserInfo() throws {
        struct Tagged: Decodable {
            var name: String
            var tag: String
            init(from decoder: any Decoder) throws {
                let container = try decoder.container(keyedBy: CodingKeys.self)
                name = try container.decode(String.self, forKey: .name)
                tag = decoder.userInfo[CodingUserInfoKey(rawValue: "tag")!] as? String ?? ""
            }
            enum CodingKeys: String, CodingKey { case name }
        }
        let value = try Self.decode(Tagged.self, #"{"NAME": "x"}"#) {
            $0.keyDecodingStrategy = .custom { path in JSONCodingKey(stringValue: path.last!.stringValue.lowercased()) }
            $0.userInfo[CodingUserInfoKey(rawValue: "tag")!] = "t"
        }
        #expect(value.name == "x" && value.tag == "t")
    }

    @Test("integers read exactly from any spelling of an integer, up to 128 bits, and refuse fractions")
    func integers() throws {
        #expect(try Self.decode([Int].self, "[1.0, 12e1, 1200E-2, -0, 9223372036854775807, -9223372036854775808]")
                == [1, 120, 12, 0, .max, .min])
        #expect(try Self.decode([UInt64].self, "[18446744073709551615]") == [.max])
        if #available(macOS 15.0, iOS 18.0, watchOS 11.0, tvOS 18.0, visionOS 2.0, *) {
            #expect(try Self.decode([Int128].self, "[-170141183460469231731687303715884105728]") == [.min])
        }
        for bad in ["[1.5]", "[9223372036854775808]", "[1e19]", "[0.1e1000]"] {
            #expect(throws: DecodingError.self, "\(bad)") { try Self.decode([Int].self, bad) }
        }
        #expect(throws: DecodingError.self) { try Self.decode([UInt8].self, "[-1]") }
    }

    struct Node: Decodable {
        var next: [Node]
    }

    @Test("nesting past the depth limit is corrupted data, never a crash, on a small stack too")
    func deepNesting() async throws {
        // 500 levels (an object and an array each), within the default limit of 512.
        let deep = String(repeating: #"{"next":["#, count: 250) + String(repeating: "]}", count: 250)
        let tooDeep = String(repeating: #"{"next":["#, count: 100_000) + String(repeating: "]}", count: 100_000)
        await FoundationBridgeTests.onThread(stackSize: 4 << 20) {
            #expect((try? Self.decode(Node.self, deep)) != nil)
            do {
                _ = try Self.decode(Node.self, tooDeep)
                Issue.record("100,000 levels decoded")
            } catch DecodingError.dataCorrupted(let context) {
                #expect((context.underlyingError as? JSONReadingError)?.reason == .nestingTooDeep(limit: 512))
            } catch {
                Issue.record("unexpected \(error)")
            }
        }
    }

    @Test("nested containers, super decoders and failed reads report the paths JSONDecoder reports")
    func pathsThroughNestedContainers() throws {
        struct Outer: Decodable {
            init(from decoder: any Decoder) throws {
                let container = try decoder.container(keyedBy: JSONCodingKey.self)
                var list = try container.nestedUnkeyedContainer(forKey: JSONCodingKey(stringValue: "list"))
                #expect(list.codingPath.map(\.stringValue) == ["list"])
                _ = try list.decode(Int.self)
                let inner = try list.nestedContainer(keyedBy: JSONCodingKey.self)
                #expect(inner.codingPath.map(\.stringValue) == ["list", "Index 1"])
                let superDecoder = try inner.superDecoder(forKey: JSONCodingKey(stringValue: "x"))
                #expect(try superDecoder.singleValueContainer().decode(Int.self) == 3)
                #expect(superDecoder.codingPath.map(\.stringValue) == ["list", "Index 1", "x"])
                do {
                    _ = try inner.decode(String.self, forKey: JSONCodingKey(stringValue: "x"))
                    Issue.record("a number read as a string")
                } catch DecodingError.typeMismatch(_, let context) {
                    #expect(context.codingPath.map(\.stringValue) == ["list", "Index 1", "x"])
                }
                // A failed read leaves the element in place.
                #expect(throws: DecodingError.self) { try list.decode(String.self) }
                #expect(try list.decode(Bool.self))
                #expect(list.isAtEnd)
            }
        }
        _ = try Self.decode(Outer.self, #"{"list": [1, {"x": 3}, true]}"#)
    }

    @Test("arrays of models, optionals and arrays read as JSONDecoder reads them, failures at the same paths")
    func arraysOfModelsMatchJSONDecoder() throws {
        struct Point: Codable, Equatable {
            var x: Int
            var label: String?
        }
        struct Plot: Codable, Equatable {
            var points: [Point]
            var rows: [[Point?]]
            var flags: [Bool]
        }
        /// Both decoders' answers: the value, or the error's kind and path.
        func outcome<T: Decodable & Equatable>(_ type: T.Type, _ text: String, _ decode: (Data) throws -> T) -> String {
            do {
                return "value \(try decode(Data(text.utf8)))"
            } catch DecodingError.typeMismatch(let type, let context) {
                return "typeMismatch \(type) at \(context.codingPath.map(\.stringValue))"
            } catch DecodingError.valueNotFound(let type, let context) {
                return "valueNotFound \(type) at \(context.codingPath.map(\.stringValue))"
            } catch DecodingError.keyNotFound(let key, let context) {
                return "keyNotFound \(key.stringValue) at \(context.codingPath.map(\.stringValue))"
            } catch DecodingError.dataCorrupted(let context) {
                return "dataCorrupted at \(context.codingPath.map(\.stringValue))"
            } catch {
                return "other \(error)"
            }
        }
        let documents = [
            #"{"points":[{"x":1},{"x":2,"label":"b"}],"rows":[[{"x":3},null],[]],"flags":[true,false]}"#,
            #"{"points":[],"rows":[],"flags":[]}"#,
            #"{"points":[{"x":1},{"x":"2"}],"rows":[],"flags":[]}"#,
            #"{"points":[{"x":1}],"rows":[[null,{"label":"no x"}]],"flags":[]}"#,
            #"{"points":null,"rows":[],"flags":[]}"#,
            #"{"points":{"x":1},"rows":[],"flags":[]}"#,
            #"{"points":[{"x":1}],"rows":[7],"flags":[]}"#,
            #"{"points":[{"x":1}],"rows":[],"flags":[true,null]}"#,
        ]
        for text in documents {
            let ours = outcome(Plot.self, text) { try JSONBodyDecoder().decode(Plot.self, from: $0) }
            let foundation = outcome(Plot.self, text) { try JSONDecoder().decode(Plot.self, from: $0) }
            #expect(ours == foundation, "\(text)")
        }
        let top = #"[{"x":1},{"x":2,"label":"two"}]"#
        #expect(outcome([Point].self, top) { try JSONBodyDecoder().decode([Point].self, from: $0) }
            == outcome([Point].self, top) { try JSONDecoder().decode([Point].self, from: $0) })
    }

    @Test("a tape whose entries are all wide decodes, and reads as Any, as the usual tape does")
    func wideTapeDecodesTheSame() throws {
        struct Item: Codable, Equatable {
            var id: Int
            var name: String
            var tags: [String]
            var score: Double?
        }
        let items = (0..<30).map { Item(id: $0, name: "item \($0) café", tags: ["t\($0)", "x"], score: $0 % 3 == 0 ? nil : Double($0) / 4) }
        let data = try JSONEncoder().encode(items)
        for limit in [1, 3] {
            let wide = try JSONTape.parse(data, maximumDepth: 64, narrowLimit: limit)
            #expect(!wide.storage.overflow.isEmpty)
            let decoder = JSONTapeDecoder(JSONTapeDocument(owning: wide), options: JSONBodyDecoder())
            #expect(try decoder.decodeValue([Item].self, at: 0, site: JSONPathSite(prefix: 0), appending: { nil }) == items)
            // A document that a kept decoder moves to a copy of its own keeps its overflow.
            let moved = JSONTapeDocument(borrowing: wide.reader)
            moved.keepReadable()
            #expect(!moved.reader.overflow.isEmpty)
            let movedDecoder = JSONTapeDecoder(moved, options: JSONBodyDecoder())
            #expect(try movedDecoder.decodeValue([Item].self, at: 0, site: JSONPathSite(prefix: 0), appending: { nil }) == items)
            let usual = try JSONTape.parse(data, maximumDepth: 64)
            for removingNulls in [false, true] {
                // Each reader is used while its tape is held.
                let ours = withExtendedLifetime(wide) { wide.reader.foundationObject(removingNulls: removingNulls) }
                let theirs = withExtendedLifetime(usual) { usual.reader.foundationObject(removingNulls: removingNulls) }
                #expect(NSArray(array: ours as? [Any] ?? []).isEqual(theirs as? [Any]))
            }
        }
    }

    @Test("a decoder kept after decode returns still reads its document, through the readers of arrays, dictionaries and optionals too")
    func keptDecoderStaysValid() throws {
        final class Keeper: Decodable, @unchecked Sendable {
            // Written once in init(from:) and read after; the test touches it from one thread.
            let decoder: any Decoder
            init(from decoder: any Decoder) throws { self.decoder = decoder }
        }
        for text in [#"{"a": "short"}"#, #"{"a": "\#(String(repeating: "long ", count: 40))"}"#] {
            let kept = try Self.decode(Keeper.self, text)
            let container = try kept.decoder.container(keyedBy: JSONCodingKey.self)
            #expect(try container.decode(String.self, forKey: JSONCodingKey(stringValue: "a")).hasPrefix(text.contains("long") ? "long" : "short"))
        }
        // Values the runtime reads itself (arrays, dictionaries, optionals) go through its
        // readers, made after the decode from the kept document.
        let kept = try Self.decode(Keeper.self, #"{"flags": [true, false], "counts": {"a": 1}, "ratio": 0.5}"#)
        let container = try kept.decoder.container(keyedBy: JSONCodingKey.self)
        #expect(try container.decode([Bool].self, forKey: JSONCodingKey(stringValue: "flags")) == [true, false])
        #expect(try container.decode([String: Int64].self, forKey: JSONCodingKey(stringValue: "counts")) == ["a": 1])
        #expect(try container.decode(Float?.self, forKey: JSONCodingKey(stringValue: "ratio")) == 0.5)
    }

    @Test("DecodableResponseSerializer decodes with JSONBodyDecoder by default")
    func serializerDefault() throws {
        let serializer = DecodableResponseSerializer([Int].self)
        #expect(serializer.decoder is JSONBodyDecoder)
        let response = HTTPURLResponse(url: URL(string: "http://127.0.0.1/")!, statusCode: 200, httpVersion: nil,
                                       headerFields: ["Content-Type": "application/json"])!
        #expect(try serializer.responseObject(for: response, data: Data("[1,2]".utf8)) == [1, 2])
    }

    @Test("a body the reader refuses is unreadableJSON, as with JSONResponseSerializer; a shape that does not fit stays a decoding failure")
    func serializerReadingErrors() throws {
        let response = HTTPURLResponse(url: URL(string: "http://127.0.0.1/")!, statusCode: 200, httpVersion: nil,
                                       headerFields: ["Content-Type": "application/json"])!
        let serializer = DecodableResponseSerializer([Int].self)
        do {
            _ = try serializer.responseObject(for: response, data: Data("[1,]".utf8))
            Issue.record("no error")
        } catch let error as ResponseSerializationError {
            guard case .unreadableJSON(let reading, _, _) = error else { Issue.record("got \(error)"); return }
            #expect(reading.offset == 3)
            #expect(error.reason == "The response is not valid JSON: found \"]\" where a value was expected (byte 3).")
        }
        do {
            _ = try serializer.responseObject(for: response, data: Data(#"{"a":1}"#.utf8))
            Issue.record("no error")
        } catch let error as ResponseSerializationError {
            guard case .responseSerializationFailed = error else { Issue.record("got \(error)"); return }
        }
    }
}

@Suite("JSON decoder: a reader never points into memory that has gone")
struct JSONTapeOwnershipTests {
    /// Whether `address` lies inside `data`'s bytes.
    static func isInside(_ address: UnsafePointer<UInt8>, _ data: Data) -> Bool {
        data.withUnsafeBytes { raw in
            let start = UInt(bitPattern: raw.baseAddress!), end = start + UInt(raw.count)
            let base = UInt(bitPattern: address)
            return base >= start && base < end
        }
    }

    @Test("a tape made to be kept reads from its own copy of the document, never from the caller's buffer")
    func tapeOwnsTheText() throws {
        for text in [#"{"k":"v"}"#, "[" + String(repeating: "\"some longer text\",", count: 40) + "1]"] {
            let data = Data(text.utf8)
            let tape = try JSONTape.parse(data, maximumDepth: 16)
            let reader = tape.reader
            #expect(!Self.isInside(reader.base, data))
            #expect(withExtendedLifetime(tape) { reader.text(1).elementsEqual(text.utf8.dropFirst(2).prefix(reader.length(1))) })
        }
    }

    @Test("a decode reads the body in place, and a decoder kept past it moves to a copy its document owns")
    func keptDecoderMovesToACopy() throws {
        final class Keeper: Decodable, @unchecked Sendable {
            // Written once in init(from:) and read after; the test touches it from one thread.
            let decoder: any Decoder
            let addressDuringDecode: UInt
            init(from decoder: any Decoder) throws {
                self.decoder = decoder
                addressDuringDecode = UInt(bitPattern: (decoder as! JSONTapeDecoder).tape.base)
            }
        }
        let text = #"{"a": "\#(String(repeating: "long ", count: 400))"}"#
        let data = Data(text.utf8)
        let kept = try JSONBodyDecoder().decode(Keeper.self, from: data)
        let decoder = try #require(kept.decoder as? JSONTapeDecoder)
        #expect(Self.isInside(UnsafePointer(bitPattern: kept.addressDuringDecode)!, data))
        #expect(!Self.isInside(decoder.tape.base, data))
        let container = try decoder.container(keyedBy: JSONCodingKey.self)
        #expect(try container.decode(String.self, forKey: JSONCodingKey(stringValue: "a")).count == 2000)
    }
}
