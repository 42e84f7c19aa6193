import Foundation

extension ParameterValue {
    /// Bridges a Foundation object graph, as AFNetworking took it, into a parameter tree.
    ///
    /// For code moving from `[String: Any]` parameters. Accepts strings, every integer and
    /// floating-point type, `Decimal`, `NSNumber` (booleans detected), `NSNull` and `nil`,
    /// `Date`, `Data`, `URL`, arrays, sets and dictionaries with `String` keys, in any
    /// nesting of Swift and `NS` collections.
    ///
    /// ```swift
    /// let legacy: [String: Any] = ["page": 2, "tags": NSSet(array: ["a", "b"])]
    /// let parameters = try ParameterValue(any: legacy)
    /// ```
    ///
    /// - Throws: ``HTTPSerializationError/invalidParameter(path:reason:)`` for a value with no
    ///   parameter form or a non-string key, and
    ///   ``HTTPSerializationError/nestingTooDeep(path:limit:)`` past `maximumDepth` levels.
    public init(any value: Any, maximumDepth: Int = ParameterValue.defaultMaximumDepth) throws {
        self = try FoundationBridge(maximumDepth: maximumDepth).convert(value, at: ParameterPath())
    }
}

/// Converts `Any` graphs; recursion is bounded by `maximumDepth` before it can run deep.
private struct FoundationBridge {
    let maximumDepth: Int

    func convert(_ value: Any, at path: ParameterPath) throws -> ParameterValue {
        if let scalar = try scalar(value, at: path) { return scalar }
        guard path.count < maximumDepth else {
            throw HTTPSerializationError.nestingTooDeep(path: path.description, limit: maximumDepth)
        }
        // An NSDictionary is read as itself: bridged to [String: Any] first, keys that Swift
        // compares as equal (canonically equivalent) would merge and lose a value.
        if type(of: value) is NSDictionary.Type, let dictionary = value as? NSDictionary {
            return try convert(dictionary, at: path)
        }
        if let dictionary = value as? [String: Any] {
            var result: [String: ParameterValue] = [:]
            result.reserveCapacity(dictionary.count)
            for (key, element) in dictionary {
                result[key] = try convert(element, at: path.appending(.key(key)))
            }
            return .dictionary(result)
        }
        // Swift dictionaries with other key types: every key must still be a string.
        if let dictionary = value as? NSDictionary {
            return try convert(dictionary, at: path)
        }
        if let array = value as? [Any] {
            var result: [ParameterValue] = []
            result.reserveCapacity(array.count)
            for (index, element) in array.enumerated() {
                result.append(try convert(element, at: path.appending(.index(index))))
            }
            return .array(result)
        }
        if let set = value as? NSSet {
            var result = Set<ParameterValue>()
            for element in set {
                result.insert(try convert(element, at: path))
            }
            return .set(result)
        }
        if let set = value as? Set<AnyHashable> {
            var result = Set<ParameterValue>()
            for element in set {
                result.insert(try convert(element.base, at: path))
            }
            return .set(result)
        }
        throw HTTPSerializationError.invalidParameter(
            path: path.description, reason: "a value of type \(type(of: value)) has no parameter form")
    }

    private func convert(_ dictionary: NSDictionary, at path: ParameterPath) throws -> ParameterValue {
        var result: [String: ParameterValue] = [:]
        for (key, element) in dictionary {
            guard let key = Self.string(key) else {
                throw HTTPSerializationError.invalidParameter(path: path.description, reason: "dictionary key \(key) is not a string")
            }
            try Self.insert(try convert(element, at: path.appending(.key(key))), forKey: key, into: &result, at: path)
        }
        return .dictionary(result)
    }

    /// Scalars, checked by exact dynamic type first: `as? Bool` would also match the
    /// `NSNumber` 1, and `as? NSNumber` would also match a Swift `Int`.
    private func scalar(_ value: Any, at path: ParameterPath) throws -> ParameterValue? {
        switch value {
        case let value as ParameterValue: return value
        case let value as String: return .string(value)
        case let value as Substring: return .string(String(value))
        case is NSNull: return .null
        case let value as Date: return .date(value)
        case let value as Data: return .data(value)
        case let value as URL: return .string(value.absoluteString)
        default: break
        }
        let dynamicType = type(of: value)
        if dynamicType is NSNumber.Type, let number = value as? NSNumber {
            return Self.number(number)
        }
        if dynamicType == Bool.self, let flag = value as? Bool { return .bool(flag) }
        if let integer = value as? any BinaryInteger, !(dynamicType is NSNumber.Type) {
            if let small = Int(exactly: integer) { return .int(small) }
            return .decimal(Decimal(string: String(integer))!)
        }
        if let decimal = value as? Decimal, dynamicType == Decimal.self { return .decimal(decimal) }
        if let double = value as? Double, dynamicType == Double.self { return .double(double) }
        if let float = value as? Float, dynamicType == Float.self { return .double(Double(float)) }
        if let float = value as? CGFloat, dynamicType == CGFloat.self { return .double(Double(float)) }
        if let optional = value as? any OptionalProtocol {
            guard let wrapped = optional.wrappedValue else { return .null }
            return try convert(wrapped, at: path)
        }
        return nil
    }

    private static func number(_ number: NSNumber) -> ParameterValue {
        if number is NSDecimalNumber { return .decimal(number.decimalValue) }
        // Booleans are the one NSNumber class both Foundations distinguish by name.
        if String(describing: type(of: number)) == "__NSCFBoolean" { return .bool(number.boolValue) }
        switch UInt8(bitPattern: number.objCType.pointee) {
        case UInt8(ascii: "f"), UInt8(ascii: "d"):
            return .double(number.doubleValue)
        case UInt8(ascii: "Q"), UInt8(ascii: "L"), UInt8(ascii: "I"):
            let unsigned = number.uint64Value
            if let small = Int(exactly: unsigned) { return .int(small) }
            return .decimal(Decimal(unsigned))
        default:
            return .int(number.intValue)
        }
    }

    /// Adds a key that must not merge with a different but canonically equivalent one
    /// ("\u{E9}" and "e\u{301}"): `String` keys compare by canonical equivalence, so one
    /// value would vanish. Such keys are an error naming both, by their scalars.
    private static func insert(
        _ value: ParameterValue, forKey key: String, into result: inout [String: ParameterValue], at path: ParameterPath
    ) throws {
        if let index = result.index(forKey: key) {
            // Named in scalar order, so the message does not depend on the dictionary's order.
            let pair = [result[index].key, key].sorted { $0.unicodeScalars.lexicographicallyPrecedes($1.unicodeScalars) { $0.value < $1.value } }
            throw HTTPSerializationError.invalidParameter(
                path: path.description,
                reason: "the keys \(scalarDescription(pair[0])) and \(scalarDescription(pair[1])) are canonically equivalent, so one would replace the other")
        }
        result[key] = value
    }

    private static func scalarDescription(_ key: String) -> String {
        let scalars = key.unicodeScalars.map { "U+" + String($0.value, radix: 16, uppercase: true).leftPadded(to: 4) }
        return "\"\(key)\" (\(scalars.joined(separator: " ")))"
    }

    private static func string(_ key: Any) -> String? {
        switch key {
        case let key as String: return key
        case let key as NSString: return key as String
        case let key as AnyHashable: return key.base as? String
        default: return nil
        }
    }
}

/// Lets `Any` values that hold an `Optional` be unwrapped without knowing the wrapped type.
private protocol OptionalProtocol {
    var wrappedValue: Any? { get }
}

extension Optional: OptionalProtocol {
    var wrappedValue: Any? {
        switch self {
        case .some(let wrapped): return wrapped
        case .none: return nil
        }
    }
}

extension String {
    fileprivate func leftPadded(to width: Int) -> String {
        count >= width ? self : String(repeating: "0", count: width - count) + self
    }
}
