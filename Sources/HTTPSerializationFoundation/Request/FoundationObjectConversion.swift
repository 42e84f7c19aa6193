import Foundation
import HTTPSerializationCore

/// Turns a parameter tree into the object graph `JSONSerialization` or
/// `PropertyListSerialization` expects, refusing up front what would make them fail or crash.
enum FoundationObjectConversion {
    enum Target {
        case json
        case propertyList
    }

    /// The typed error for a value the target format cannot hold.
    static func refusal(_ target: Target, path: ParameterPath, reason: String) -> RequestSerializationError {
        .refusedValue(inJSON: target == .json, path: path, reason: reason)
    }

    /// Depth is checked first, so the recursion below is bounded by `maximumDepth`.
    static func object(from value: ParameterValue, for target: Target, maximumDepth: Int) throws -> Any {
        try value.checkDepth(limit: maximumDepth)
        return try convert(value, for: target, at: ParameterPath())
    }

    private static func convert(_ value: ParameterValue, for target: Target, at path: ParameterPath) throws -> Any {
        switch value {
        case .string(let string):
            return string
        case .int(let int):
            return int
        case .double(let double):
            if target == .json, !double.isFinite {
                throw refusal(target, path: path, reason: "\(double) is not a JSON number")
            }
            return double
        case .decimal(let decimal):
            if target == .json, decimal.isNaN {
                throw refusal(target, path: path, reason: "NaN is not a JSON number")
            }
            return target == .json ? NSDecimalNumber(decimal: decimal) : NSDecimalNumber(decimal: decimal).doubleValue
        case .bool(let flag):
            return flag
        case .null:
            if target == .propertyList {
                throw refusal(target, path: path, reason: "property lists have no null")
            }
            return NSNull()
        case .data(let data):
            if target == .json {
                throw refusal(target, path: path, reason: "binary data has no JSON form; encode it as a string first")
            }
            return data
        case .date(let date):
            if target == .json {
                throw refusal(target, path: path, reason: "a date has no JSON form; encode it as a string or number first")
            }
            return date
        case .set:
            throw refusal(target, path: path, reason: "a set has no \(target == .json ? "JSON" : "property list") form; use an array")
        case .array(let elements):
            var result: [Any] = []
            result.reserveCapacity(elements.count)
            for (index, element) in elements.enumerated() {
                result.append(try convert(element, for: target, at: path.appending(.index(index))))
            }
            return result
        case .dictionary(let entries):
            var result: [String: Any] = [:]
            result.reserveCapacity(entries.count)
            for (key, element) in entries {
                result[key] = try convert(element, for: target, at: path.appending(.key(key)))
            }
            return result
        }
    }
}
