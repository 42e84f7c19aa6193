/// Settings a layer above the core keeps on a serializer (`URLRequest`'s timeout, cache
/// policy and the rest), stored by name so the core holds none of their types or meaning.
///
/// The Foundation layer reads and writes them through typed properties on
/// ``HTTPRequestSerializer``; the archive form writes each under its own name, as before.
package struct LayerSettings: Sendable, Equatable {
    package enum Value: Sendable, Equatable, Codable {
        case bool(Bool)
        case unsigned(UInt)
        case double(Double)

        package init(from decoder: any Decoder) throws {
            let container = try decoder.singleValueContainer()
            if let bool = try? container.decode(Bool.self) {
                self = .bool(bool)
            } else if let unsigned = try? container.decode(UInt.self) {
                self = .unsigned(unsigned)
            } else {
                self = .double(try container.decode(Double.self))
            }
        }

        package func encode(to encoder: any Encoder) throws {
            var container = encoder.singleValueContainer()
            switch self {
            case .bool(let value): try container.encode(value)
            case .unsigned(let value): try container.encode(value)
            case .double(let value): try container.encode(value)
            }
        }
    }

    package var values: [String: Value] = [:]

    package init() {}

    /// A flag, or nil when unset.
    package subscript(bool name: String) -> Bool? {
        get {
            if case .bool(let value)? = values[name] { return value }
            return nil
        }
        set { values[name] = newValue.map(Value.bool) }
    }

    /// A raw value, or nil when unset or not a whole number.
    package subscript(unsigned name: String) -> UInt? {
        get {
            switch values[name] {
            case .unsigned(let value)?: return value
            case .double(let value)?: return UInt(exactly: value)
            default: return nil
            }
        }
        set { values[name] = newValue.map(Value.unsigned) }
    }

    /// A number of any kind (an archive may hold `5` for `5.0`), or nil when unset.
    package subscript(double name: String) -> Double? {
        get {
            switch values[name] {
            case .double(let value)?: return value
            case .unsigned(let value)?: return Double(value)
            default: return nil
            }
        }
        set { values[name] = newValue.map(Value.double) }
    }
}
