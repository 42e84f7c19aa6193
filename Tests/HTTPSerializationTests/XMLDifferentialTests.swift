import Foundation
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

/// Random well-formed documents: names (ASCII, Latin, CJK, prefixed), attributes, references,
/// CDATA, comments, processing instructions and line ends, nested a few levels.
struct XMLDocumentGenerator {
    var random: SplitMix64
    private(set) var elements: [String] = []
    private(set) var text = ""

    static let names = ["a", "b", "item", "x-y", "_z", "n.1", "\u{00E9}l\u{00E8}ve", "\u{4E2D}\u{6587}", "p:q", "p:r"]
    static let words: [(source: String, value: String)] = [
        ("hello", "hello"), (" ", " "), ("&amp;", "&"), ("&lt;", "<"), ("&gt;", ">"), ("&quot;", "\""), ("&apos;", "'"),
        ("&#233;", "\u{00E9}"), ("&#x1F600;", "\u{1F600}"), ("caf\u{00E9}", "caf\u{00E9}"), ("\r\n", "\n"), ("]", "]"),
        ("<![CDATA[<x> & y]]>", "<x> & y"), ("<!-- note -->", ""), ("<?pi some data?>", ""), ("\u{4E2D}", "\u{4E2D}"),
    ]

    mutating func document() -> String {
        elements = []
        text = ""
        var output = random.range(0, 1) == 1 ? "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n" : ""
        if random.range(0, 3) == 0 { output += "<!-- head -->" }
        output += element(depth: 0, root: true)
        if random.range(0, 3) == 0 { output += "\n<?tail data?>" }
        return output
    }

    private mutating func element(depth: Int, root: Bool = false) -> String {
        let name = Self.names[random.range(0, Self.names.count - 1)]
        elements.append(name)
        var tag = "<" + name
        if root { tag += " xmlns:p=\"urn:p\"" }
        var used = Set<String>()
        for _ in 0..<random.range(0, 3) {
            let attribute = ["k", "id", "p:k", "v-1"][random.range(0, 3)]
            guard used.insert(attribute).inserted else { continue }
            let value = (0..<random.range(0, 3)).map { _ in ["v", "&amp;", "&#65;", " ", "\u{00E9}", "&quot;"][random.range(0, 5)] }.joined()
            tag += " \(attribute)=\"\(value)\""
        }
        if random.range(0, 4) == 0 { return tag + "/>" }
        var body = ""
        for _ in 0..<random.range(0, 4) {
            if depth < 5, random.range(0, 2) == 0 {
                body += element(depth: depth + 1)
            } else {
                let word = Self.words[random.range(0, Self.words.count - 1)]
                body += word.source
                text += word.value
            }
        }
        return tag + ">" + body + "</" + name + ">"
    }
}

@Suite("XML reader against FoundationXML")
struct XMLDifferentialTests {
    @Test("2,000 seeded well-formed documents: the reader accepts each and FoundationXML reads the same elements and text")
    func wellFormedAgree() throws {
        var generator = XMLDocumentGenerator(random: SplitMix64(seed: 1_010))
        for _ in 0..<2_000 {
            let document = generator.document()
            let data = Data(document.utf8)
            #expect(xmlRefusal(data) == nil, "refused: \(document)")
            let (ok, recorder) = FoundationXMLRecorder.parse(try XMLSafetyCheck.prepare(data, policy: XMLReadingPolicy()))
            #expect(ok, "FoundationXML failed: \(document)")
            #expect(recorder.elements == generator.elements)
            #expect(recorder.text == generator.text, "\(document)")
            let ours = try xmlTokens(data).compactMap { token -> String? in
                if case .startElement(let name, _) = token { return name }
                return nil
            }
            #expect(ours == generator.elements)
        }
    }

    @Test("6,000 seeded mutations: whatever the reader accepts, FoundationXML parses without an error")
    func acceptedMeansFoundationParses() throws {
        var generator = XMLDocumentGenerator(random: SplitMix64(seed: UInt64(ProcessInfo.processInfo.environment["XML_SEED"] ?? "") ?? 2_020))
        var random = SplitMix64(seed: 3_030)
        let specials = Array("<>&;\"'/!?-[]=:#x \r\n\u{00E9}".utf8)
        var accepted = 0
        for _ in 0..<(Int(ProcessInfo.processInfo.environment["XML_MUTATIONS"] ?? "") ?? 6_000) {
            var bytes = Array(generator.document().utf8)
            for _ in 0..<random.range(1, 3) where !bytes.isEmpty {
                let index = random.range(0, bytes.count - 1)
                switch random.range(0, 3) {
                case 0: bytes[index] = specials[random.range(0, specials.count - 1)]
                case 1: bytes.remove(at: index)
                case 2: bytes.insert(specials[random.range(0, specials.count - 1)], at: index)
                default: bytes = Array(bytes.prefix(index))
                }
            }
            let data = Data(bytes)
            guard let prepared = try? XMLSafetyCheck.prepare(data, policy: XMLReadingPolicy()) else { continue }
            accepted += 1
            let (ok, _) = FoundationXMLRecorder.parse(prepared)
            #expect(ok, "accepted, but FoundationXML failed: \(String(decoding: bytes, as: UTF8.self).debugDescription)")
        }
        #expect(accepted > 300)
    }
}
