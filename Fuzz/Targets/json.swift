import Foundation
import HTTPSerialization

/// The JSON reader on arbitrary bytes: a value or a typed error, never a crash or a hang;
/// and whatever it accepts, JSONSerialization accepts too and reads as the same value
/// (numbers by value; U+FEFF aside, which Foundation drops at the start of a string and
/// after an escape while we keep it).
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzJSON(_ start: UnsafeRawPointer?, _ count: Int) -> CInt {
    let data = Data(UnsafeRawBufferPointer(start: start, count: count))
    let ours: ParameterValue
    do {
        ours = try ParameterValue(json: data)
    } catch {
        return 0
    }
    guard let object = try? JSONSerialization.jsonObject(with: data, options: .fragmentsAllowed) else {
        require(false, "accepted, but JSONSerialization refuses: \(String(decoding: data, as: UTF8.self).debugDescription)")
        return 0
    }
    guard let theirs = try? ParameterValue(any: object) else {
        require(false, "JSONSerialization's value does not bridge")
        return 0
    }
    require(sameJSONValue(ours, theirs), "read differently: \(String(decoding: data, as: UTF8.self).debugDescription)")
    return 0
}

private func sameJSONValue(_ lhs: ParameterValue, _ rhs: ParameterValue) -> Bool {
    switch (lhs, rhs) {
    case (.array(let a), .array(let b)):
        return a.count == b.count && zip(a, b).allSatisfy { sameJSONValue($0, $1) }
    case (.dictionary(let a), .dictionary(let b)):
        // Keys that differ only by U+FEFF cannot be paired once Foundation has dropped some.
        let strippedKeys = Set(a.keys.map(withoutByteOrderMarks))
        if strippedKeys.count != a.count { return true }
        let left = Dictionary(a.map { (withoutByteOrderMarks($0.key), $0.value) }, uniquingKeysWith: { _, last in last })
        let right = Dictionary(b.map { (withoutByteOrderMarks($0.key), $0.value) }, uniquingKeysWith: { _, last in last })
        return left.count == right.count && left.allSatisfy { key, value in right[key].map { sameJSONValue(value, $0) } ?? false }
    case (.string(let a), .string(let b)):
        return withoutByteOrderMarks(a) == withoutByteOrderMarks(b)
    case (.int, _), (.double, _), (.decimal, _):
        guard let left = number(lhs), let right = number(rhs) else { return false }
        return left == right || abs(left - right) <= abs(left) * 1e-15
    default:
        return lhs == rhs
    }
}

private func withoutByteOrderMarks(_ text: String) -> String {
    String(String.UnicodeScalarView(text.unicodeScalars.filter { $0 != "\u{FEFF}" }))
}

private func number(_ value: ParameterValue) -> Double? {
    switch value {
    case .int(let int): return Double(int)
    case .double(let double): return double
    case .decimal(let decimal): return Double(decimal.description)
    default: return nil
    }
}
