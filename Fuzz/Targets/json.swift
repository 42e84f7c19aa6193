import Foundation
import HTTPSerialization

/// The JSON reader on arbitrary bytes: a value or a typed error, never a crash or a hang;
/// and whatever it accepts, JSONSerialization accepts too and reads as the same value
/// (numbers by value; U+FEFF aside, which Foundation drops at the start of a string and
/// after an escape while we keep it). What it reads, the writer writes back to the same
/// value; and the decoder, asked for any shape, gives a value or a `DecodingError`.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzJSON(_ start: UnsafeRawPointer?, _ count: Int) -> CInt {
    let data = Data(UnsafeRawBufferPointer(start: start, count: count))
    let ours: ParameterValue
    do {
        ours = try ParameterValue(json: data)
    } catch {
        return 0
    }
    do {
        let written = try ours.jsonData(options: .fragmentsAllowed)
        // Numbers by value: an integral double is written without its ".0", as JSONSerialization does.
        require(sameJSONValue(try ParameterValue(json: written), ours), "written and read back differently: \(String(decoding: written, as: UTF8.self).debugDescription)")
    } catch {
        require(false, "a value read could not be written: \(error)")
    }
    decodeEveryWay(data)
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

/// Any JSON value through `Decodable`, trying each type in turn, so every path of the
/// decoder (scalars, arrays, keyed lookups, dictionaries, mismatches) meets the input.
private indirect enum AnyValue: Decodable {
    case null, bool(Bool), int(Int), double(Double), string(String), array([AnyValue]), object([String: AnyValue]), probe(Probe)

    struct Probe: Decodable {
        var a: AnyValue?
        var b: [Int]?
        var c: Date?
        var d: Data?
    }

    init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if container.decodeNil() {
            self = .null
        } else if let value = try? container.decode(Bool.self) {
            self = .bool(value)
        } else if let value = try? container.decode(Int.self) {
            self = .int(value)
        } else if let value = try? container.decode(Double.self) {
            self = .double(value)
        } else if let value = try? container.decode(String.self) {
            self = .string(value)
        } else if let value = try? container.decode([AnyValue].self) {
            self = .array(value)
        } else if let value = try? container.decode(Probe.self) {
            self = .probe(value)
        } else {
            self = .object(try container.decode([String: AnyValue].self))
        }
    }
}

private func decodeEveryWay(_ data: Data) {
    var decoder = JSONBodyDecoder()
    _ = try? decoder.decode(AnyValue.self, from: data)
    decoder.keyDecodingStrategy = .convertFromSnakeCase
    decoder.dateDecodingStrategy = .iso8601
    decoder.nonConformingFloatDecodingStrategy = .convertFromString(positiveInfinity: "inf", negativeInfinity: "-inf", nan: "nan")
    _ = try? decoder.decode(AnyValue.self, from: data)
}
