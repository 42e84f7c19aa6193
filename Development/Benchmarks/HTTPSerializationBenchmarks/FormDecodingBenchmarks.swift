import Foundation
import HTTPSerialization

/// Reading forms back: the §3 query set into pairs against Foundation's `URLComponents`,
/// and into a tree and a typed model against Vapor's `URLEncodedFormDecoder`.
enum FormDecodingBenchmarks {
    @MainActor
    static func run(quick: Bool, runs: Int) {
        let set = Inputs.querySet(keys: quick ? 1_000 : 10_000)
        let text = queryString(from: set.parameters)
        var limits = FormDecodingLimits()
        limits.maximumPairs = 1 << 20
        let pairs = (try? FormPairs.parse(text, limits: limits)) ?? []
        let foundation = URLComponents(string: "http://h/?" + text)?.queryItems ?? []
        check(pairs.count == set.pairCount && foundation.count == pairs.count, "the form readers found \(pairs.count) and \(foundation.count) pairs")
        check(zip(pairs, foundation).allSatisfy { $0.field == $1.name }, "the form readers read different names")
        // Some §3 keys hold brackets of their own, so the tree is not the written one; it must build.
        check((try? ParameterValue(formPairs: pairs, limits: limits)) != nil, "the §3 pairs did not build a tree")
        let times = fastest(runs: runs, [
            { consume(try? FormPairs.parse(text, limits: limits)) },
            { consume(URLComponents(string: "http://h/?" + text)?.queryItems) },
        ])
        print("")
        print("form decoding, the §3 query set (\(pairs.count) pairs, \(text.utf8.count) bytes)")
        print("  into pairs: FormPairs.parse \(format(Double(pairs.count) / times[0] / 1e6, 2)) M pairs/s, \(format(times[1] / times[0], 2))x URLComponents.queryItems")
        recordRatio("form-pairs-vs-urlcomponents", times[1] / times[0], target: 1)

        let readable = readableSet(set.parameters)
        let query = queryString(from: readable)
        let expected = QuerySetModel(readable)
        let decoder = FormDecoder(limits: limits)
        let ours = try? decoder.decode(QuerySetModel.self, from: query)
        let vapor = try? VaporPeer.decode(QuerySetModel.self, from: query)
        check(expected != nil && ours == expected, "FormDecoder read the §3 model differently")
        check(vapor == expected, "Vapor's decoder read the §3 model differently")
        let modelTimes = fastest(runs: runs, [
            { consume(try? ParameterValue(formPairs: FormPairs.parse(query, limits: limits), limits: limits)) },
            { consume(try? decoder.decode(QuerySetModel.self, from: query)) },
            { consume(try? VaporPeer.decode(QuerySetModel.self, from: query)) },
        ])
        let keys = expected?.entries.count ?? 0
        let leaves = (try? FormPairs.parse(query, limits: limits).count) ?? 0
        print("  the \(keys) keys whose names hold no brackets (\(leaves) pairs, \(query.utf8.count) bytes):")
        print("    into a ParameterValue tree     \(format(Double(leaves) / modelTimes[0] / 1e6, 2)) M pairs/s, \(format(modelTimes[2] / modelTimes[0], 2))x Vapor's URLEncodedFormDecoder into the model   (target >= 5x)")
        print("    FormDecoder into the model     \(format(Double(leaves) / modelTimes[1] / 1e6, 2)) M pairs/s, \(format(modelTimes[2] / modelTimes[1], 2))x Vapor's URLEncodedFormDecoder   (target >= 5x)")
        print("    Vapor's URLEncodedFormDecoder  \(format(Double(leaves) / modelTimes[2] / 1e6, 2)) M pairs/s")
        recordRatio("form-tree-vs-vapor", modelTimes[2] / modelTimes[0], target: 5)
        recordRatio("form-decodable-vs-vapor", modelTimes[2] / modelTimes[1], target: 5)
    }
}

extension FormDecodingBenchmarks {
    /// Vapor refuses a key with a `[` that is not closed before the next one (about one §3 key
    /// in a hundred), and so would any reader of brackets: the set without keys that hold them.
    static func readableSet(_ parameters: ParameterValue) -> ParameterValue {
        parameters.filteringTopLevelKeys { !$0.contains("[") && !$0.contains("]") }
    }
}

private extension ParameterValue {
    func filteringTopLevelKeys(_ keep: (String) -> Bool) -> ParameterValue {
        guard case .dictionary(let dictionary) = self else { return self }
        return .dictionary(ParameterDictionary(dictionary.entries.filter { keep($0.key) }))
    }
}
