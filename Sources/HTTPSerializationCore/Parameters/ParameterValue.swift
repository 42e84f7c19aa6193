#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// The one parameter tree that every encoder in the package reads.
///
/// Build it with literals, from a Foundation object graph with `init(any:maximumDepth:)` (the
/// Foundation layer), or from a `Codable` model with `init(encoding:maximumDepth:)` (the Codable
/// layer); then hand it to a query string, form, JSON, property-list or multipart encoder.
///
/// ```swift
/// let parameters: ParameterValue = [
///     "name": "bang",
///     "phone": ["mobile": "xx", "home": "xx"],
///     "families": ["father", "mother"],
///     "nums": .set([1, 2]),
/// ]
/// ```
///
/// Containers hold their values in ``ParameterArray``, ``ParameterSet`` and
/// ``ParameterDictionary``, which read like Swift's collections; a tree of any depth is
/// freed, compared, hashed and printed without recursion.
public enum ParameterValue: Sendable {
    /// Text, escaped as each body format requires.
    case string(String)
    /// A signed integer.
    case int(Int)
    /// A floating-point number; NaN and infinity have no JSON form.
    case double(Double)
    /// An exact decimal number: `Decimal` model fields and unsigned integers above `Int.max`.
    case decimal(Decimal)
    /// A boolean: `1` or `0` in AFNetworking's query style, `true` or `false` in JSON.
    case bool(Bool)
    /// An explicit null: a bare key in a query string, `null` in JSON.
    case null
    /// Bytes: Base64 in a query string, raw in a multipart field; JSON cannot hold them.
    case data(Data)
    /// A point in time, written as ``QueryStringStyle/dateEncoding`` says; JSON cannot hold it.
    case date(Date)
    /// An ordered list: `a[]=1&a[]=2` in AFNetworking's query style.
    case array(ParameterArray)
    /// An unordered collection: repeated keys `a=1&a=2`, sorted, in AFNetworking's query style.
    case set(ParameterSet)
    /// Keyed values: `a[b]=1` in AFNetworking's query style, an object in JSON.
    case dictionary(ParameterDictionary)

    // Disfavoured so that a literal such as `.set([1, 2])` builds the container directly
    // instead of being ambiguous between it and the Swift collection.

    /// An ordered list of the given values.
    @_disfavoredOverload
    public static func array(_ elements: [ParameterValue]) -> ParameterValue { .array(ParameterArray(elements)) }

    /// An unordered collection of the given values.
    @_disfavoredOverload
    public static func set(_ elements: Set<ParameterValue>) -> ParameterValue { .set(ParameterSet(elements)) }

    /// Keyed values.
    @_disfavoredOverload
    public static func dictionary(_ entries: [String: ParameterValue]) -> ParameterValue {
        .dictionary(ParameterDictionary(entries))
    }
}

extension ParameterValue {
    /// The nesting limit that the package's parsers and encoders apply unless told otherwise.
    ///
    /// Deep enough for any real form or model, shallow enough that recursion over it cannot
    /// exhaust a thread's stack.
    public static let defaultMaximumDepth = 512

    /// The number of container levels: 0 for a scalar, 1 for `[1]`, 2 for `[[1]]`.
    ///
    /// Computed without recursion, so it is safe on any tree.
    public var depth: Int {
        var deepest = 0
        var pending: [(ParameterValue, Int)] = [(self, 0)]
        while let (value, level) = pending.popLast() {
            switch value {
            case .array(let elements):
                deepest = max(deepest, level + 1)
                for element in elements where element.isContainer { pending.append((element, level + 1)) }
            case .set(let elements):
                deepest = max(deepest, level + 1)
                for element in elements where element.isContainer { pending.append((element, level + 1)) }
            case .dictionary(let entries):
                deepest = max(deepest, level + 1)
                for element in entries.values where element.isContainer { pending.append((element, level + 1)) }
            default:
                continue
            }
        }
        return deepest
    }

    /// Whether this value holds other values (array, set or dictionary).
    public var isContainer: Bool {
        switch self {
        case .array, .set, .dictionary: return true
        default: return false
        }
    }

    /// Throws ``RequestSerializationError/nestingTooDeep(path:limit:)`` when deeper than `limit`.
    package func checkDepth(limit: Int) throws {
        guard limit >= 0 else { throw RequestSerializationError.nestingTooDeep(path: "", limit: limit) }
        // The stored height bounds the depth from above, so a short tree needs no walk.
        if storageHeight > limit, depth > limit { throw RequestSerializationError.nestingTooDeep(path: "", limit: limit) }
    }
}

// MARK: - Literals

extension ParameterValue: ExpressibleByStringLiteral, ExpressibleByStringInterpolation {
    /// Creates a `.string` value from a string literal.
    public init(stringLiteral value: String) { self = .string(value) }
}

extension ParameterValue: ExpressibleByIntegerLiteral {
    /// Creates an `.int` value from an integer literal.
    public init(integerLiteral value: Int) { self = .int(value) }
}

extension ParameterValue: ExpressibleByFloatLiteral {
    /// Creates a `.double` value from a floating-point literal.
    public init(floatLiteral value: Double) { self = .double(value) }
}

extension ParameterValue: ExpressibleByBooleanLiteral {
    /// Creates a `.bool` value from `true` or `false`.
    public init(booleanLiteral value: Bool) { self = .bool(value) }
}

extension ParameterValue: ExpressibleByNilLiteral {
    /// Creates `.null` from `nil`.
    public init(nilLiteral: ()) { self = .null }
}

extension ParameterValue: ExpressibleByArrayLiteral {
    /// Creates an `.array` value from an array literal.
    public init(arrayLiteral elements: ParameterValue...) { self = .array(ParameterArray(elements)) }
}

extension ParameterValue: ExpressibleByDictionaryLiteral {
    /// Later duplicates of a key replace earlier ones, as in a Foundation dictionary.
    public init(dictionaryLiteral elements: (String, ParameterValue)...) {
        self = .dictionary(ParameterDictionary(Dictionary(elements, uniquingKeysWith: { _, last in last })))
    }
}
