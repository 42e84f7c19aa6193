import Foundation
import HTTPSerialization

/// `ParameterValue(any:)` and the Encodable path on arbitrary structures: a value or a typed
/// error, and the two paths agree where both apply.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzParameters(_ start: UnsafeRawPointer?, _ count: Int) -> CInt {
    var input = FuzzBytes(UnsafeRawBufferPointer(start: start, count: count))
    let node = makeNode(&input, depth: 0)
    let limit = 1 + input.below(24)
    let bridged: ParameterValue?
    do { bridged = try ParameterValue(any: node.foundation, maximumDepth: limit) } catch is any HTTPSerializationError { bridged = nil } catch {
        require(false, "an untyped error: \(error)"); return 0
    }
    let encoded: ParameterValue?
    do { encoded = try ParameterValue(encoding: node, maximumDepth: limit) } catch is any HTTPSerializationError { encoded = nil } catch {
        require(false, "an untyped error: \(error)"); return 0
    }
    if let bridged, let encoded, !node.hasOpaque { require(bridged == encoded, "bridged \(bridged) != encoded \(encoded)") }
    return 0
}

/// A value with both a Foundation form and an Encodable form.
private indirect enum Node: Encodable {
    case string(String), int(Int), bool(Bool), null, list([Node]), map([String: Node]), opaque

    var foundation: Any {
        switch self {
        case .string(let text): return text
        case .int(let number): return NSNumber(value: number)
        case .bool(let flag): return NSNumber(value: flag)
        case .null: return NSNull()
        case .list(let items): return NSArray(array: items.map(\.foundation))
        case .map(let entries): return NSDictionary(dictionary: entries.mapValues(\.foundation))
        case .opaque: return NSObject()
        }
    }

    var hasOpaque: Bool {
        switch self {
        case .opaque: return true
        case .list(let items): return items.contains(where: \.hasOpaque)
        case .map(let entries): return entries.values.contains(where: \.hasOpaque)
        default: return false
        }
    }

    func encode(to encoder: any Encoder) throws {
        switch self {
        case .string(let text): var c = encoder.singleValueContainer(); try c.encode(text)
        case .int(let number): var c = encoder.singleValueContainer(); try c.encode(number)
        case .bool(let flag): var c = encoder.singleValueContainer(); try c.encode(flag)
        case .null, .opaque: var c = encoder.singleValueContainer(); try c.encodeNil()
        case .list(let items): var c = encoder.unkeyedContainer(); for item in items { try c.encode(item) }
        case .map(let entries):
            var c = encoder.container(keyedBy: Key.self)
            for (key, value) in entries { try c.encode(value, forKey: Key(stringValue: key)) }
        }
    }

    struct Key: CodingKey {
        var stringValue: String
        var intValue: Int? { nil }
        init(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }
}

private func makeNode(_ input: inout FuzzBytes, depth: Int) -> Node {
    switch depth > 30 ? input.below(4) : input.below(7) {
    case 0: return .string(input.string(maximum: 8))
    case 1: return .int(Int(Int16(truncatingIfNeeded: Int(input.byte()) << 8 | Int(input.byte()))))
    case 2: return .bool(input.byte() & 1 == 1)
    case 3: return input.below(8) == 0 ? .opaque : .null
    case 4, 5: return .list((0..<input.below(4)).map { _ in makeNode(&input, depth: depth + 1) })
    default:
        var entries: [String: Node] = [:]
        for _ in 0..<input.below(4) { entries[input.string(maximum: 5)] = makeNode(&input, depth: depth + 1) }
        return .map(entries)
    }
}
