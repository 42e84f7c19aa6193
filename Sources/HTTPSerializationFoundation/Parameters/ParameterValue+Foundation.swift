import Foundation
import HTTPSerializationCore

extension ParameterValue {
    /// Bridges a Foundation object graph, as AFNetworking took it, into a parameter tree.
    ///
    /// For code moving from `[String: Any]` parameters. Accepts strings, every integer and
    /// floating-point type, `Decimal`, `NSNumber` (booleans detected), `NSNull` and `nil`,
    /// `Date`, `Data`, `URL`, arrays, sets and dictionaries with `String` keys, in any
    /// nesting of Swift and `NS` collections. Each value is classified once by its dynamic
    /// type, never by casting a collection to a class (which would make Foundation bridge its
    /// whole subtree), so the cost is linear in the graph and any depth is a typed error.
    ///
    /// ```swift
    /// let legacy: [String: Any] = ["page": 2, "tags": NSSet(array: ["a", "b"])]
    /// let parameters = try ParameterValue(any: legacy)
    /// ```
    ///
    /// On Linux, an `NSMutableDictionary` may already have dropped one of two canonically
    /// equivalent `NSString` keys when it stored them (swift-corelibs-foundation compares
    /// them as equal but hashes them apart); that value cannot be read back, so keys that
    /// must both survive go as ordered fields rather than through a dictionary.
    ///
    /// - Throws: ``/HTTPSerializationCore/RequestSerializationError/invalidParameter(path:reason:)`` for a
    ///   value with no parameter form, a non-string key, or two canonically equivalent keys in one
    ///   `NSDictionary`, and ``/HTTPSerializationCore/RequestSerializationError/nestingTooDeep(path:limit:)``
    ///   past `maximumDepth` levels.
    public init(any value: Any, maximumDepth: Int = ParameterValue.defaultMaximumDepth) throws {
        var bridge = FoundationBridge(maximumDepth: maximumDepth)
        do {
            self = try bridge.convert(value, depth: 0)
        } catch {
            throw error.httpSerializationError(limit: maximumDepth)
        }
    }
}

/// Converts `Any` graphs. Recursion is bounded: a container is entered only below
/// `maximumDepth`, checked before its elements are touched.
private struct FoundationBridge {
    let maximumDepth: Int
    /// Kinds of the types this conversion met beyond the common ones, found once per type.
    private var kinds: [ObjectIdentifier: BridgedKind] = [:]

    init(maximumDepth: Int) {
        self.maximumDepth = maximumDepth
    }

    mutating func convert(_ value: Any, depth: Int) throws(BridgeFailure) -> ParameterValue {
        // The shapes `[String: Any]` graphs are made of, by exact type: a pointer comparison
        // each, and `as!` to the exact type is the runtime's fast path.
        let type = type(of: value)
        if type == String.self { return .string(value as! String) }
        if type == Int.self { return .int(value as! Int) }
        if type == [String: Any].self { return try dictionary(value as! [String: Any], depth: depth) }
        if type == [Any].self { return try array(value as! [Any], depth: depth) }
        if type == Double.self { return .double(value as! Double) }
        if type == Bool.self { return .bool(value as! Bool) }
        if type == [String].self { return try leaves(value as! [String], depth: depth, ParameterValue.string) }
        if type == [Int].self { return try leaves(value as! [Int], depth: depth, ParameterValue.int) }
        return try convertOther(value, of: type, depth: depth)
    }

    private mutating func convertOther(_ value: Any, of type: Any.Type, depth: Int) throws(BridgeFailure) -> ParameterValue {
        let kind: BridgedKind
        if let known = kinds[ObjectIdentifier(type)] {
            kind = known
        } else {
            kind = BridgedKind(type)
            kinds[ObjectIdentifier(type)] = kind
        }
        switch kind {
        case .parameterValue:
            let tree = value as! ParameterValue
            if tree.isContainer, depth + tree.depth > maximumDepth { throw BridgeFailure(.tooDeep) }
            return tree
        case .substring: return .string(String(value as! Substring))
        case .nsString: return .string((value as! NSString) as String)
        case .nsNull: return .null
        case .nsNumber: return Self.number(value as! NSNumber)
        case .nsBoolean: return .bool((value as! NSNumber).boolValue)
        case .nsDecimalNumber: return .decimal((value as! NSDecimalNumber).decimalValue)
        case .date: return .date(value as! Date)
        case .nsDate: return .date((value as! NSDate) as Date)
        case .data: return .data(value as! Data)
        case .nsData: return .data((value as! NSData) as Data)
        case .url: return .string((value as! URL).absoluteString)
        case .nsURL: return .string(((value as! NSURL) as URL).absoluteString)
        case .decimal: return .decimal(value as! Decimal)
        case .float: return ParameterValue(value as! Float)
        case .cgFloat:
            // A `Float` where `CGFloat` is one (32-bit platforms such as watchOS's arm64_32).
            let cgFloat = value as! CGFloat
            return CGFloat.NativeType.self == Float.self ? ParameterValue(Float(cgFloat)) : .double(Double(cgFloat))
        case .integer:
            let integer = value as! any BinaryInteger
            if let small = Int(exactly: integer) { return .int(small) }
            return .decimal(Decimal(string: String(integer))!)
        case .optional:
            guard let wrapped = (value as! any OptionalBridging).wrappedValue else { return .null }
            return try convert(wrapped, depth: depth)
        case .anyHashable:
            return try convert((value as! AnyHashable).base, depth: depth)
        case .swiftCollection:
            try enter(depth)
            return try (value as! any SwiftCollectionBridging).bridge(with: &self, depth: depth)
        case .nsDictionary: return try dictionary(value as! NSDictionary, depth: depth)
        case .nsArray: return try array(value as! NSArray, depth: depth)
        case .nsSet: return try set(value as! NSSet, depth: depth)
        case .foundationBox: return try unboxed(value, depth: depth)
        case .unsupported:
            throw BridgeFailure(.invalid("a value of type \(type) has no parameter form"))
        }
    }

    /// Refuses a container at `depth` when it would go past the limit.
    func enter(_ depth: Int) throws(BridgeFailure) {
        guard depth < maximumDepth else { throw BridgeFailure(.tooDeep) }
    }

    // MARK: Containers

    private mutating func dictionary(_ dictionary: [String: Any], depth: Int) throws(BridgeFailure) -> ParameterValue {
        try enter(depth)
        // The same keys in the same table layout: no key is hashed again. A failure names its
        // key by position (iteration order is the table's), never by converting again.
        var converted = 0
        do {
            let values = try dictionary.mapValues { element in
                let value = try convert(element, depth: depth + 1)
                converted += 1
                return value
            }
            return .dictionary(ParameterDictionary(values))
        } catch {
            let key = dictionary[dictionary.index(dictionary.startIndex, offsetBy: converted)].key
            guard let failure = error as? BridgeFailure else { throw BridgeFailure(.invalid("\(error)")).at(.key(key)) }
            throw failure.at(.key(key))
        }
    }

    private mutating func array(_ array: [Any], depth: Int) throws(BridgeFailure) -> ParameterValue {
        try enter(depth)
        return try self.array(elements: array, count: array.count, depth: depth)
    }

    /// Arrays whose elements are all one scalar type.
    private func leaves<Leaf>(_ array: [Leaf], depth: Int, _ make: (Leaf) -> ParameterValue) throws(BridgeFailure) -> ParameterValue {
        try enter(depth)
        return .array(ParameterArray(array.lazy.map(make)))
    }

    /// A dictionary whose keys are not statically `String`: each must hold a string, and two
    /// that Swift compares as equal (canonically equivalent) would merge, so they are an error.
    mutating func dictionary(
        entries: some Sequence<(key: Any, value: Any)>, count: Int, depth: Int
    ) throws(BridgeFailure) -> ParameterValue {
        var result: [String: ParameterValue] = [:]
        result.reserveCapacity(count)
        for (rawKey, element) in entries {
            guard let key = Self.string(rawKey) else {
                throw BridgeFailure(.invalid("dictionary key \(rawKey) is not a string"))
            }
            let value: ParameterValue
            do {
                value = try convert(element, depth: depth + 1)
            } catch {
                throw error.at(.key(key))
            }
            if let index = result.index(forKey: key) {
                throw BridgeFailure(.invalid(Self.equivalentKeys(result[index].key, key)))
            }
            result[key] = value
        }
        return .dictionary(ParameterDictionary(result))
    }

    /// A set's elements sit at the set's own path, as a query string writes them.
    mutating func set(elements: some Sequence<Any>, depth: Int) throws(BridgeFailure) -> ParameterValue {
        var result = Set<ParameterValue>()
        for element in elements {
            result.insert(try convert(element, depth: depth + 1))
        }
        return .set(ParameterSet(result))
    }

    mutating func array(elements: some Sequence<Any>, count: Int, depth: Int) throws(BridgeFailure) -> ParameterValue {
        var result = ParameterArray()
        result.reserveCapacity(count)
        for (index, element) in elements.enumerated() {
            do {
                result.append(try convert(element, depth: depth + 1))
            } catch {
                throw error.at(.index(index))
            }
        }
        return .array(result)
    }

    // Foundation's own readers of NS collections (iteration, `object(at:)`, `allObjects`)
    // bridge every element that is itself a collection into a Swift one, recursively and
    // eagerly: O(size × depth) and unbounded recursion. The stored objects are read
    // unbridged instead (`allKeys`/`allValues`, and the collections' own mirrors, which
    // reflect their storage), for the concrete classes whose storage those are; subclasses
    // keep their own enumeration.

    // An NSDictionary is read as itself: bridged to [String: Any] first, keys that Swift
    // compares as equal would merge and lose a value.
    private mutating func dictionary(_ dictionary: NSDictionary, depth: Int) throws(BridgeFailure) -> ParameterValue {
        try enter(depth)
        let type = type(of: dictionary)
        if type == NSDictionary.self || type == NSMutableDictionary.self {
            let keys = dictionary.allKeys
            let values = dictionary.allValues
            if keys.count == values.count {
                return try self.dictionary(
                    entries: zip(keys, values).lazy.map { (key: $0, value: $1) }, count: keys.count, depth: depth)
            }
        }
        // A subclass is read through its primitives; Foundation's own iterator traps when
        // `object(forKey:)` has nothing for a key the enumerator gave.
        var entries: [(key: Any, value: Any)] = []
        let enumerator = dictionary.keyEnumerator()
        while let key = enumerator.nextObject() {
            guard let value = dictionary.object(forKey: key) else {
                throw BridgeFailure(.invalid("the dictionary has no value for its own key \(key)"))
            }
            entries.append((key: key, value: value))
        }
        return try self.dictionary(entries: entries, count: entries.count, depth: depth)
    }

    private mutating func array(_ array: NSArray, depth: Int) throws(BridgeFailure) -> ParameterValue {
        try enter(depth)
        let type = type(of: array)
        if type == NSArray.self || type == NSMutableArray.self {
            let stored = Mirror(reflecting: array).children
            if stored.count == array.count {
                return try self.array(elements: stored.lazy.map(\.value), count: array.count, depth: depth)
            }
        }
        return try self.array(elements: array, count: array.count, depth: depth)
    }

    private mutating func set(_ set: NSSet, depth: Int) throws(BridgeFailure) -> ParameterValue {
        try enter(depth)
        let type = type(of: set)
        if type == NSSet.self || type == NSMutableSet.self {
            let stored = Mirror(reflecting: set).children
            if stored.count == set.count { return try self.set(elements: stored.lazy.map(\.value), depth: depth) }
        }
        return try self.set(elements: set, depth: depth)
    }

    /// A Swift value Foundation stored in an NS collection inside its private box: an array
    /// holding the box hands the value back out.
    private mutating func unboxed(_ box: Any, depth: Int) throws(BridgeFailure) -> ParameterValue {
        let value = NSArray(array: [box]).object(at: 0)
        if Swift.type(of: value) == Swift.type(of: box) {
            throw BridgeFailure(.invalid("a value of type \(Swift.type(of: box)) has no parameter form"))
        }
        return try convert(value, depth: depth)
    }

    // MARK: Scalars

    private static func number(_ number: NSNumber) -> ParameterValue {
        switch UInt8(bitPattern: number.objCType.pointee) {
        case UInt8(ascii: "f"):
            // A float's own shortest round-trip digits (at most nine), not the double's.
            return ParameterValue(number.floatValue)
        case UInt8(ascii: "d"):
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

    /// Names both keys by their scalars, in scalar order so the message does not depend on
    /// the dictionary's order.
    private static func equivalentKeys(_ first: String, _ second: String) -> String {
        let pair = [first, second].sorted {
            $0.unicodeScalars.lexicographicallyPrecedes($1.unicodeScalars) { $0.value < $1.value }
        }
        func scalars(_ key: String) -> String {
            let codes = key.unicodeScalars.map { scalar -> String in
                let hex = String(scalar.value, radix: 16, uppercase: true)
                return "U+" + String(repeating: "0", count: max(0, 4 - hex.count)) + hex
            }
            return "\"\(key)\" (\(codes.joined(separator: " ")))"
        }
        return "the keys \(scalars(pair[0])) and \(scalars(pair[1])) are canonically equivalent, so one would replace the other"
    }
}

/// What a dynamic type bridges as, decided from the metatype alone (never by casting the
/// value, which for a Swift collection and a class type would bridge the whole subtree).
private enum BridgedKind {
    case parameterValue, substring, nsString, nsNull, nsNumber, nsBoolean, nsDecimalNumber
    case date, nsDate, data, nsData, url, nsURL, decimal, float, cgFloat, integer
    case optional, anyHashable, swiftCollection, nsDictionary, nsArray, nsSet, foundationBox, unsupported

    init(_ type: Any.Type) {
        // Exact Swift types first: `Bool` and the integers would also match `NSNumber` casts.
        switch type {
        case is ParameterValue.Type: self = .parameterValue
        case is Substring.Type: self = .substring
        case is Date.Type: self = .date
        case is Data.Type: self = .data
        case is URL.Type: self = .url
        case is Decimal.Type: self = .decimal
        case is Float.Type: self = .float
        case is CGFloat.Type: self = .cgFloat
        case is any BinaryInteger.Type: self = .integer
        case is any OptionalBridging.Type: self = .optional
        case is AnyHashable.Type: self = .anyHashable
        case is any SwiftCollectionBridging.Type: self = .swiftCollection
        // Class types, by class: every subclass (mutable, Linux's private ones) is included.
        case is NSDecimalNumber.Type: self = .nsDecimalNumber
        // Booleans are the one NSNumber class both Foundations distinguish by name.
        case is NSNumber.Type: self = String(describing: type) == "__NSCFBoolean" ? .nsBoolean : .nsNumber
        case is NSString.Type: self = .nsString
        case is NSNull.Type: self = .nsNull
        case is NSDate.Type: self = .nsDate
        case is NSData.Type: self = .nsData
        case is NSURL.Type: self = .nsURL
        case is NSDictionary.Type: self = .nsDictionary
        case is NSArray.Type: self = .nsArray
        case is NSSet.Type: self = .nsSet
        // Swift values without an NS class of their own, as Foundation stores them.
        case is NSObject.Type where String(describing: type) == "__SwiftValue": self = .foundationBox
        default: self = .unsupported
        }
    }
}

/// Swift arrays, dictionaries and sets of any element type, walked without casting them to
/// `[Any]` or a class (one generic conformance each instead of a cast per element type).
private protocol SwiftCollectionBridging {
    func bridge(with bridge: inout FoundationBridge, depth: Int) throws(BridgeFailure) -> ParameterValue
}

extension Array: SwiftCollectionBridging {
    fileprivate func bridge(with bridge: inout FoundationBridge, depth: Int) throws(BridgeFailure) -> ParameterValue {
        try bridge.array(elements: lazy.map { $0 as Any }, count: count, depth: depth)
    }
}

extension Dictionary: SwiftCollectionBridging {
    fileprivate func bridge(with bridge: inout FoundationBridge, depth: Int) throws(BridgeFailure) -> ParameterValue {
        try bridge.dictionary(entries: lazy.map { (key: $0.key as Any, value: $0.value as Any) }, count: count, depth: depth)
    }
}

extension Set: SwiftCollectionBridging {
    fileprivate func bridge(with bridge: inout FoundationBridge, depth: Int) throws(BridgeFailure) -> ParameterValue {
        try bridge.set(elements: lazy.map { $0 as Any }, depth: depth)
    }
}

/// Lets `Any` values that hold an `Optional` be unwrapped without knowing the wrapped type.
private protocol OptionalBridging {
    var wrappedValue: Any? { get }
}

extension Optional: OptionalBridging {
    fileprivate var wrappedValue: Any? {
        switch self {
        case .some(let wrapped): return wrapped
        case .none: return nil
        }
    }
}

/// A conversion failure on its way up: each container it passes adds where it was.
private struct BridgeFailure: Error {
    enum Reason {
        case invalid(String)
        case tooDeep
    }

    let reason: Reason
    /// Innermost first.
    private var components: [ParameterPath.Component] = []

    init(_ reason: Reason) {
        self.reason = reason
    }

    func at(_ component: ParameterPath.Component) -> BridgeFailure {
        var copy = self
        copy.components.append(component)
        return copy
    }

    func httpSerializationError(limit: Int) -> RequestSerializationError {
        var path = ParameterPath()
        for component in components.reversed() { path = path.appending(component) }
        switch reason {
        case .invalid(let reason): return .invalidParameter(path: path.description, reason: reason)
        case .tooDeep: return .nestingTooDeep(path: path.description, limit: limit)
        }
    }
}
