import Foundation
import HTTPSerialization
import HTTPSerializationMacros

/// Issue 63: documents keyed by id, `[String: Record]` at the top and inside a model, against
/// `JSONDecoder` and against the same records as an array.
extension GeneratedJSONBenchmarks {
    /// A catalogue whose records are keyed by id inside it.
    @GeneratedJSONCoding
    struct Catalogue: Codable, Equatable {
        var version: Int
        var records: [String: Record]
    }

    /// The §6 records as one object keyed by each record's id, and that object inside a catalogue.
    @MainActor
    static func runKeyedById(records data: Data, runs: Int) {
        guard let records = try? JSONDecoder().decode([Record].self, from: data) else { return check(false, "§6 did not decode for the keyed documents") }
        let keyed = keyedById(data)
        var nested = Data(#"{"version":3,"records":"#.utf8)
        nested.append(keyed)
        nested.append(Data("}".utf8))
        let expected = Dictionary(uniqueKeysWithValues: records.map { (String($0.id), $0) })
        check((try? JSONDecoder().decode([String: Record].self, from: keyed)) == expected, "records keyed by id: the document is not the records")
        let arrayTime = fastest(runs: runs, [{ consume(try? JSONBodyDecoder().decode([Record].self, from: data)) }])[0]
        runKeyed("§6 records keyed by id, [String: Record] at the top", key: "keyed-by-id-", data: keyed, type: [String: Record].self,
                 plain: [String: JSONBenchmarks.Record].self, arrayTime: arrayTime, runs: runs)
        runKeyed("§6 records keyed by id inside a model, Catalogue { version, records: [String: Record] }", key: "keyed-by-id-nested-",
                 data: nested, type: Catalogue.self, plain: PlainCatalogue.self, arrayTime: arrayTime, runs: runs)
    }

    /// The §6 records as one object, each member keyed by its record's id and holding its
    /// record's text as the array holds it, in the array's order.
    static func keyedById(_ data: Data) -> Data {
        var keyed = Data("{".utf8)
        var text = data.dropFirst().dropLast()
        var index = 0
        while !text.isEmpty {
            let end = endOfObject(in: text)
            if index > 0 { keyed.append(Data(",".utf8)) }
            keyed.append(Data("\"\(index)\":".utf8))
            keyed.append(text[text.startIndex..<end])
            text = text[min(end + 1, text.endIndex)...]
            index += 1
        }
        keyed.append(Data("}".utf8))
        return keyed
    }

    struct PlainCatalogue: Codable, Equatable {
        var version: Int
        var records: [String: JSONBenchmarks.Record]
    }

    /// Where the object that starts `text` ends (just past its closing brace): records hold no
    /// braces in their strings.
    static func endOfObject(in text: Data) -> Data.Index {
        var depth = 0
        for index in text.indices {
            if text[index] == UInt8(ascii: "{") { depth += 1 }
            if text[index] == UInt8(ascii: "}") { depth -= 1; if depth == 0 { return index + 1 } }
        }
        return text.endIndex
    }

    @MainActor
    static func runKeyed<Generated: Decodable & Equatable, Plain: Decodable>(
        _ name: String, key: String, data: Data, type: Generated.Type, plain: Plain.Type, arrayTime: Double, runs: Int
    ) {
        let expected = try? JSONDecoder().decode(Generated.self, from: data)
        let ours = try? JSONBodyDecoder().decode(Generated.self, from: data)
        var agree = false
        if let expected, let ours { agree = ours == expected }
        check(agree, "\(name): the generated path and JSONDecoder disagree")
        let times = fastest(runs: runs, [
            { consume(try? JSONDecoder().decode(Generated.self, from: data)) },
            { consume(try? JSONBodyDecoder().decode(Generated.self, from: data)) },
            { consume(try? JSONBodyDecoder().decode(Plain.self, from: data)) },
        ])
        print("  \(name), \(data.count) bytes: JSONDecoder \(format(times[0] * 1000)) ms")
        print("    generated readers        \(format(times[1] * 1000)) ms, \(format(times[0] / times[1], 2))x JSONDecoder   (target >= 8x); "
            + "the same records as an array \(format(arrayTime * 1000)) ms: keyed at \(format(times[1] / arrayTime, 2))x the array's time")
        print("    Decodable path           \(format(times[2] * 1000)) ms, \(format(times[0] / times[2], 2))x JSONDecoder")
        recordRatio("json-generated-decoding-\(key)vs-jsondecoder", times[0] / times[1], target: 8)
    }
}
