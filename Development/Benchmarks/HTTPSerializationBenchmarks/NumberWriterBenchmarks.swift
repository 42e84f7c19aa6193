import Checksums
import Foundation
import HTTPSerialization

/// Docs/Benchmarks.md §9: the JSON writer on a coordinate-heavy tree (canada.json's shape),
/// where writing numbers is nearly all the work, against `JSONSerialization.data` on the same tree.
enum NumberWriterBenchmarks {
    @MainActor
    static func run(quick: Bool, runs: Int) {
        let data = JSONShapes.coordinateDocument(rings: quick ? 10 : 240)
        if !quick {
            check(data.count == 2_060_831, "§9 document is \(data.count) bytes, not 2,060,831")
            check(SHA256.hex(data) == "1bd57cbdfbb23ecf1f94dd91f7636202cd3be3e71f140040b18455887ded26c9", "§9 document digest differs: \(SHA256.hex(data))")
        }
        // As JSONSerialization reads it (on Linux, numbers longer than 17 characters become NSDecimalNumbers),
        // and as the package reads it (every fraction a Double).
        guard let foundation = try? JSONSerialization.jsonObject(with: data),
              let decimals = try? ParameterValue(any: foundation),
              let doubles = try? ParameterValue(json: data) else {
            return check(false, "the §9 document did not read")
        }
        let foundationDoubles = anyValue(doubles)
        // Sorted, our bytes must be the peer's; a side that throws fails the check.
        func same(_ ours: Data?, _ peer: Data?) -> Bool { ours != nil && ours == peer }
        check(same(try? decimals.jsonData(options: .sortedKeys), try? JSONSerialization.data(withJSONObject: foundation, options: .sortedKeys)),
              "§9 as JSONSerialization reads it: our bytes differ from JSONSerialization's")
        let written = try? doubles.jsonData(options: .sortedKeys)
        check(same(written, try? JSONSerialization.data(withJSONObject: foundationDoubles, options: .sortedKeys)),
              "§9 as doubles: our bytes differ from JSONSerialization's")
        check(written != nil && written.flatMap { try? ParameterValue(json: $0) } == doubles, "§9 as doubles does not read back to the same doubles")
        let times = fastest(runs: runs, [
            { consume(try? JSONSerialization.data(withJSONObject: foundation)) },
            { consume(try? decimals.jsonData()) },
            { consume(try? JSONSerialization.data(withJSONObject: foundationDoubles)) },
            { consume(try? doubles.jsonData()) },
            { consume(try? ParameterValue(any: foundation).jsonData()) },
        ])
        let counts = numberCounts(decimals)
        print("")
        print("JSON writer on numbers, §9 (\(data.count) bytes, canada.json's shape)")
        print("  as JSONSerialization reads it (\(counts.decimals) Decimal, \(counts.doubles) Double): JSONSerialization.data "
            + "\(format(times[0] * 1e3)) ms, ParameterValue.jsonData \(format(times[1] * 1e3)) ms, \(format(times[0] / times[1], 2))x   (target >= 4x)")
        print("  … from the [String: Any] (converted in the timing): \(format(times[4] * 1e3)) ms, \(format(times[0] / times[4], 2))x   (target >= 4x)")
        print("  as doubles: JSONSerialization.data \(format(times[2] * 1e3)) ms, ParameterValue.jsonData \(format(times[3] * 1e3)) ms, "
            + "\(format(times[2] / times[3], 2))x   (target >= 4x)")
        recordRatio("json-number-writer-vs-jsonserialization", times[0] / times[1], target: 4)
        recordRatio("json-number-writer-from-any-vs-jsonserialization", times[0] / times[4], target: 4)
        recordRatio("json-number-writer-doubles-vs-jsonserialization", times[2] / times[3], target: 4)
    }

    /// The tree as `JSONSerialization` takes it, numbers as `Double`s.
    static func anyValue(_ value: ParameterValue) -> Any {
        switch value {
        case .dictionary(let dictionary): return dictionary.entries.mapValues(anyValue)
        case .array(let array): return array.elements.map(anyValue)
        case .double(let double): return double
        case .decimal(let decimal): return decimal
        case .int(let int): return int
        case .string(let string): return string
        case .bool(let flag): return flag
        default: return NSNull()
        }
    }

    static func numberCounts(_ value: ParameterValue) -> (decimals: Int, doubles: Int) {
        switch value {
        case .dictionary(let dictionary):
            return dictionary.entries.values.map(numberCounts).reduce((0, 0)) { ($0.0 + $1.0, $0.1 + $1.1) }
        case .array(let array):
            return array.elements.map(numberCounts).reduce((0, 0)) { ($0.0 + $1.0, $0.1 + $1.1) }
        case .decimal: return (1, 0)
        case .double: return (0, 1)
        default: return (0, 0)
        }
    }
}
