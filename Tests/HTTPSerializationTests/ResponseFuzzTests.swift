import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
#if canImport(FoundationXML)
import FoundationXML
#endif
import SeededGenerators
import Testing
@testable import HTTPSerialization
@testable import HTTPSerializationCodable
@testable import HTTPSerializationCore
@testable import HTTPSerializationFoundation
@testable import HTTPSerializationImages
@testable import HTTPSerializationXML

@Suite("Response serializers under random input")
struct ResponseFuzzTests {
    static let contentTypes = [
        nil, "application/json", "text/json", "application/xml", "text/xml", "application/x-plist", "image/png",
        "image/jpeg", "image/gif", "text/html", "*/*", "application/problem+json", "garbage", "",
    ]

    /// Valid documents of every kind, mutated below so the parsers get past their first byte.
    static let seeds: [Data] = {
        var seeds = [jsonFoo, xmlFoo, Data(#"{"a":[1,2,{"b":null}],"c":"\u00e9"}"#.utf8)]
        seeds.append((try? PropertyListSerialization.data(fromPropertyList: ["k": [1, 2]], format: .xml, options: 0)) ?? Data())
        seeds.append((try? PropertyListSerialization.data(fromPropertyList: ["k": [1, 2]], format: .binary, options: 0)) ?? Data())
        seeds.append(ImageFixtures.png(width: 4, height: 4) { x, y in [UInt8(x), UInt8(y), 9, 255] })
        seeds.append(ImageFixtures.jpeg(width: 8, height: 8) { x, _ in [UInt8(x * 30), 0, 0] } ?? Data())
        seeds.append(Data("GIF89a".utf8) + Data([4, 0, 4, 0]))
        return seeds
    }()

    /// A delegate that asks FoundationXML for everything, as an app would.
    final class RecordingDelegate: NSObject, XMLParserDelegate {
        var events = 0
        func parser(_ parser: XMLParser, didStartElement elementName: String, namespaceURI: String?,
                    qualifiedName qName: String?, attributes attributeDict: [String: String] = [:]) { events += 1 }
        func parser(_ parser: XMLParser, didEndElement elementName: String, namespaceURI: String?, qualifiedName qName: String?) { events += 1 }
        func parser(_ parser: XMLParser, foundCharacters string: String) { events += 1 }
        func parser(_ parser: XMLParser, foundCDATA CDATABlock: Data) { events += 1 }
        func parser(_ parser: XMLParser, foundComment comment: String) { events += 1 }
    }

    static func input(_ random: inout SplitMix64) -> Data {
        switch random.range(0, 2) {
        case 0:
            return Data((0..<random.range(0, 300)).map { _ in UInt8(truncatingIfNeeded: random.next()) })
        default:
            var data = seeds[random.range(0, seeds.count - 1)]
            for _ in 0..<random.range(1, 6) where !data.isEmpty {
                let index = data.startIndex + random.range(0, data.count - 1)
                switch random.range(0, 2) {
                case 0: data[index] = UInt8(truncatingIfNeeded: random.next())
                case 1: data = data.prefix(random.range(0, data.count))
                default: data.insert(UInt8(truncatingIfNeeded: random.next()), at: index)
                }
            }
            return data
        }
    }

    @Test("10,000 seeded random and mutated bodies with random content types never crash any serializer")
    func noInputCrashes() throws {
        try Self.run(seed: 4_004, count: 10_000)
    }

    static func run(seed: UInt64, count: Int) throws {
        var random = SplitMix64(seed: seed)
        struct Shape: Decodable { var a: [Int]? }
        let compound = CompoundResponseSerializer([
            AnyResponseSerializer(ImageResponseSerializer()), AnyResponseSerializer(JSONResponseSerializer()),
            AnyResponseSerializer(PropertyListResponseSerializer()),
        ])
        var outcomes = [String: Int]()
        for _ in 0..<count {
            let data = Self.input(&random)
            let type = Self.contentTypes[random.range(0, Self.contentTypes.count - 1)]
            let response = resp([200, 204, 404, 500][random.range(0, 3)], type)
            var json = JSONResponseSerializer()
            json.removesKeysWithNullValues = random.range(0, 1) == 1
            json.readingOptions = random.range(0, 1) == 1 ? .fragmentsAllowed : []
            var image = ImageResponseSerializer()
            image.acceptableContentTypes = nil
            let attempts: [() throws -> Any?] = [
                { try HTTPResponseSerializer().responseObject(for: response, data: data) },
                { try json.responseObject(for: response, data: data) },
                { try DecodableResponseSerializer(Shape?.self).responseObject(for: response, data: data) },
                {
                    let parser = try XMLParserResponseSerializer().responseObject(for: response, data: data)
                    let recorder = RecordingDelegate()
                    parser?.delegate = recorder
                    return parser?.parse()
                },
                { try XMLDocumentResponseSerializer().responseObject(for: response, data: data) },
                { try PropertyListResponseSerializer().responseObject(for: response, data: data) },
                { try image.responseObject(for: response, data: data) },
                { try compound.responseObject(for: response, data: data) },
            ]
            for attempt in attempts {
                do {
                    _ = try attempt()
                    outcomes["value", default: 0] += 1
                } catch is ResponseSerializationError {
                    outcomes["typed error", default: 0] += 1
                } catch {
                    Issue.record("an untyped error escaped: \(error)")
                }
            }
        }
        #expect(outcomes.values.reduce(0, +) == 8 * count)
        #expect(outcomes["value", default: 0] > 0)
        #expect(outcomes["typed error", default: 0] > 0)
    }
}
