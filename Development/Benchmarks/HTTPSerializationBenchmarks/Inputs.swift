import HTTPSerialization
import SeededGenerators

/// The standard inputs of Docs/Benchmarks.md §3–4, generated in-process.
enum Inputs {
    /// §4: tokens from seed 2 until the UTF-8 length reaches `minimumBytes`.
    static func text(minimumBytes: Int = 10_000_000) -> String {
        var generator = SplitMix64(seed: 2)
        var text = ""
        text.reserveCapacity(minimumBytes + 32)
        while text.utf8.count < minimumBytes { text += generator.token() }
        return text
    }

    /// §3: the query parameter set from seed 1, as our tree, as `[String: Any]` for the
    /// Foundation reference, and as the canonical leaf listing whose digest checks the generator.
    struct QuerySet {
        var parameters: ParameterValue
        var foundation: [String: Any]
        var leafListing: [UInt8]
        var pairCount: Int
    }

    static func querySet(keys: Int) -> QuerySet {
        var generator = SplitMix64(seed: 1)
        var parameters: [String: ParameterValue] = [:]
        var foundation: [String: Any] = [:]
        var listing: [UInt8] = []
        var pairs = 0
        func leaf(_ path: [String], _ value: String, isString: Bool) {
            listing.append(contentsOf: path.joined(separator: "\u{1F}").utf8)
            listing.append(0x09)
            listing.append(contentsOf: (isString ? "s:" : "i:").utf8)
            listing.append(contentsOf: value.utf8)
            listing.append(0x0A)
            pairs += 1
        }
        for i in 0..<keys {
            var key = "key" + String(repeating: "0", count: max(0, 5 - String(i).count)) + String(i)
            if i % 10 == 9 { key += "_" + generator.str(3, 6) }
            switch i % 10 {
            case 0...5:
                let value = generator.str(8, 40)
                leaf([key], value, isString: true)
                parameters[key] = .string(value)
                foundation[key] = value
            case 6:
                let values = (0..<20).map { _ in generator.str(4, 16) }
                for (index, value) in values.enumerated() { leaf([key, "#\(index)"], value, isString: true) }
                parameters[key] = .array(values.map(ParameterValue.string))
                foundation[key] = values
            case 7:
                let values = (0..<20).map { _ in Int(generator.below(1_000_000)) }
                for (index, value) in values.enumerated() { leaf([key, "#\(index)"], String(value), isString: false) }
                parameters[key] = .array(values.map(ParameterValue.int))
                foundation[key] = values
            case 8:
                var tree: [String: ParameterValue] = [:]
                var plain: [String: Any] = [:]
                for a in 0..<3 {
                    var middle: [String: ParameterValue] = [:]
                    var plainMiddle: [String: Any] = [:]
                    for b in 0..<3 {
                        var inner: [String: ParameterValue] = [:]
                        var plainInner: [String: Any] = [:]
                        for c in 0..<3 {
                            let value = generator.str(4, 16)
                            leaf([key, "a\(a)", "b\(b)", "c\(c)"], value, isString: true)
                            inner["c\(c)"] = .string(value)
                            plainInner["c\(c)"] = value
                        }
                        middle["b\(b)"] = .dictionary(inner)
                        plainMiddle["b\(b)"] = plainInner
                    }
                    tree["a\(a)"] = .dictionary(middle)
                    plain["a\(a)"] = plainMiddle
                }
                parameters[key] = .dictionary(tree)
                foundation[key] = plain
            default:
                let id = Int(generator.below(1_000_000))
                leaf([key, "id"], String(id), isString: false)
                let name = generator.str(4, 16)
                leaf([key, "name"], name, isString: true)
                let tags = (0..<20).map { _ in generator.str(2, 8) }
                for (index, tag) in tags.enumerated() { leaf([key, "tags", "#\(index)"], tag, isString: true) }
                parameters[key] = ["id": .int(id), "name": .string(name), "tags": .array(tags.map(ParameterValue.string))]
                foundation[key] = ["id": id, "name": name, "tags": tags] as [String: Any]
            }
        }
        return QuerySet(parameters: .dictionary(parameters), foundation: foundation, leafListing: listing, pairCount: pairs)
    }
}
