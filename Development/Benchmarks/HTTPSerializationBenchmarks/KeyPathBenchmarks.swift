import Foundation
import HTTPSerialization
import SeededGenerators

/// Issue 40 §3: a 1 KB value at a key path of the §6 document in an envelope, against the
/// peers' ways to the same value (JSONDecoder through a wrapper model; Moya's map(atKeyPath:)).
enum KeyPathBenchmarks {
    /// The paging block: about 1 KB, after the records, so every reader passes the 20 MB first.
    struct Page: Codable, Equatable {
        var cursor: String
        var total: Int
        var hasMore: Bool
        var links: [String]
        var sort: [String: String]
    }

    /// What a `JSONDecoder` user writes to reach the page: a model that holds only it.
    struct Wrapper: Decodable {
        var page: Page
    }

    static func page(records: Int) -> Page {
        var generator = SplitMix64(seed: 40)
        return Page(
            cursor: (0..<4).map { _ in String(generator.next(), radix: 16) }.joined(),
            total: records, hasMore: false,
            links: (0..<18).map { "https://api.example.com/v2/records?page=\($0)&cursor=\(String(generator.next(), radix: 36))" },
            sort: ["field": "created", "order": "descending", "collation": generator.str(8, 16)])
    }

    @MainActor
    static func run(records document: Data, count: Int, runs: Int) {
        let page = page(records: count)
        var envelope = Data(#"{"data":{"items":"#.utf8)
        envelope.append(document)
        envelope.append(Data(#"},"page":"#.utf8))
        let pageJSON = (try? JSONEncoder().encode(page)) ?? Data()
        envelope.append(pageJSON)
        envelope.append(Data("}".utf8))

        let decoder = JSONBodyDecoder()
        let ours = try? decoder.decode(Page.self, from: envelope, atKeyPath: "page")
        check(ours == page, "key path: JSONBodyDecoder did not read the page")
        check((try? JSONDecoder().decode(Wrapper.self, from: envelope))?.page == page, "key path: JSONDecoder did not read the page")
        check(moyaWay(envelope) == page, "key path: the JSONSerialization way did not read the page")
        let tree = try? ParameterValue(json: envelope, atKeyPath: "page")
        check(tree.flatMap { try? JSONDecoder().decode(Page.self, from: $0.jsonData()) } == page, "key path: ParameterValue did not read the page")

        let times = fastest(runs: runs, [
            { consume(try? JSONDecoder().decode(Wrapper.self, from: envelope)) },
            { consume(try? decoder.decode(Page.self, from: envelope, atKeyPath: "page")) },
            { consume(moyaWay(envelope)) },
            { consume(try? ParameterValue(json: envelope, atKeyPath: "page")) },
            { consume(try? JSONReader.validate(envelope)) },
        ])
        print("Key path: the \(pageJSON.count)-byte \"page\" after the §6 records, \(envelope.count) bytes in all")
        print("  JSONDecoder, wrapper model      \(format(times[0] * 1000)) ms")
        print("  JSONBodyDecoder atKeyPath       \(format(times[1] * 1000)) ms, \(format(times[0] / times[1], 2))x JSONDecoder   (target >= 10x); "
            + "\(format(times[2] / times[1], 1))x Moya's way (JSONSerialization, the key path, written back, JSONDecoder) at \(format(times[2] * 1000)) ms")
        print("  ParameterValue(json:atKeyPath:) \(format(times[3] * 1000)) ms; the check of the whole document alone (JSONReader.validate) "
            + "\(format(times[4] * 1000)) ms, \(format(times[4] / times[1] * 100, 0))% of the key path's time")
        recordRatio("json-key-path-vs-jsondecoder-wrapper", times[0] / times[1], target: 10)
    }

    /// Moya's `map(_:atKeyPath:)`: the whole graph, the value at the path, written back, decoded.
    static func moyaWay(_ data: Data) -> Page? {
        guard let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any], let page = object["page"],
              let bytes = try? JSONSerialization.data(withJSONObject: page) else { return nil }
        return try? JSONDecoder().decode(Page.self, from: bytes)
    }
}
