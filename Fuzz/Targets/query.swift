import Foundation
import HTTPSerialization

/// Query strings of arbitrary trees: every pair is recoverable from the string by splitting
/// on `&` and `=` and percent-decoding, in the order `queryStringPairs` gives.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzQuery(_ start: UnsafeRawPointer?, _ count: Int) -> CInt {
    var input = FuzzBytes(UnsafeRawBufferPointer(start: start, count: count))
    let tree = makeTree(&input, depth: 0)
    var style = QueryStringStyle.afNetworking
    style.arrayEncoding = [.brackets, .indexed, .repeatedKeys][input.below(3)]
    style.keyEncoding = input.below(2) == 0 ? .brackets : .dotted
    style.nullEncoding = [.bareKey, .emptyValue, .dropKey][input.below(3)]
    let query = queryString(from: tree, style: style)
    let pairs = queryStringPairs(from: tree, style: style).filter { !($0.value == .null && style.nullEncoding == .dropKey) }
    let decoded = query.isEmpty ? [] : query.split(separator: "&", omittingEmptySubsequences: false).map { item -> (String, String?) in
        let parts = item.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
        return (String(parts[0]).removingPercentEncoding ?? "\u{FFFD}", parts.count > 1 ? String(parts[1]).removingPercentEncoding : nil)
    }
    // A query made of one nameless bare key is the empty string: nothing to split.
    if query.isEmpty {
        require(pairs.allSatisfy { $0.field.isEmpty && $0.value == .null } && pairs.count <= 1, "pairs \(pairs) wrote nothing")
        return 0
    }
    require(decoded.count == pairs.count, "\(decoded.count) pairs in \(query), \(pairs.count) expected")
    for ((field, value), pair) in zip(decoded, pairs) {
        require(field == pair.field, "field \(field) != \(pair.field)")
        if case .string(let text) = pair.value { require(value == text, "value \(String(describing: value)) != \(text)") }
        if case .null = pair.value { require(value == nil || value == "", "null came back as \(String(describing: value))") }
    }
    return 0
}

private func makeTree(_ input: inout FuzzBytes, depth: Int) -> ParameterValue {
    switch depth > 6 ? input.below(5) : input.below(8) {
    case 0: return .string(input.string(maximum: 12))
    case 1: return .int(Int(Int8(bitPattern: input.byte())))
    case 2: return .bool(input.byte() & 1 == 1)
    case 3: return .null
    case 4: return .double(Double(input.byte()) / 4)
    case 5: return .array((0..<input.below(4)).map { _ in makeTree(&input, depth: depth + 1) })
    case 6: return .set(Set((0..<input.below(4)).map { _ in makeTree(&input, depth: depth + 1) }))
    default:
        var entries: [String: ParameterValue] = [:]
        for _ in 0..<input.below(4) { entries[input.string(maximum: 6)] = makeTree(&input, depth: depth + 1) }
        return .dictionary(entries)
    }
}
