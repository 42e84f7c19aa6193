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
        if let dictionary = value as? [String: Any] {
            var result: [String: ParameterValue] = [:]
            result.reserveCapacity(dictionary.count)
            for (key, element) in dictionary {
                result[key] = try convert(element, at: path.appending(.key(key)))
            }
            return .dictionary(result)
        }
        if let dictionary = value as? NSDictionary {
            var result: [String: ParameterValue] = [:]
            for (key, element) in dictionary {
                guard let key = Self.string(key) else {
                    throw HTTPSerializationError.invalidParameter(
                        path: path.description,
                        reason: "dictionary key \(key) is not a string")
                }
                result[key] = try convert(element, at: path.appending(.key(key)))
            }
            return .dictionary(result)
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
