import Foundation
import HTTPSerializationCore

extension PropertyListValue {
    /// The value in Foundation's shape, as `PropertyListSerialization` returns it: `[String: Any]`,
    /// `[Any]`, `String`, `Int` (or `Int64`, or an exact `Decimal` past 64 bits), `Double`,
    /// `Bool`, `Date`, `Data`, and `["CF$UID": n]` for archiver references.
    ///
    /// Containers shared by a binary list are converted once and shared again, so the result
    /// is as small as the file. Keys that Swift compares as equal (canonically equivalent)
    /// cannot share a `[String: Any]`: that is an error naming both, never a lost value.
    ///
    /// - Throws: ``PropertyListReadingError`` for such keys.
    public func foundationObject() throws(PropertyListReadingError) -> Any {
        var converter = FoundationConversion()
        return try converter.convert(self)
    }
}

/// Converts without recursion; containers are remembered by their storage so shared ones
/// are built once.
private struct FoundationConversion {
    private var arrays: [UInt: [Any]] = [:]
    private var dictionaries: [UInt: [String: Any]] = [:]

    private enum Work {
        case visit(PropertyListValue)
        case buildArray([PropertyListValue])
        case buildDictionary([PropertyListValue.Entry])
    }

    mutating func convert(_ root: PropertyListValue) throws(PropertyListReadingError) -> Any {
        var work: [Work] = [.visit(root)]
        var results: [Any] = []
        while let item = work.popLast() {
            switch item {
            case .visit(let value):
                switch value {
                case .array(let values):
                    if let key = Self.identity(values), let done = arrays[key] {
                        results.append(done)
                    } else {
                        work.append(.buildArray(values))
                        for child in values.reversed() { work.append(.visit(child)) }
                    }
                case .dictionary(let entries):
                    if let key = Self.identity(entries), let done = dictionaries[key] {
                        results.append(done)
                    } else {
                        work.append(.buildDictionary(entries))
                        for entry in entries.reversed() { work.append(.visit(entry.value)) }
                    }
                default:
                    results.append(Self.scalar(value))
                }
            case .buildArray(let values):
                let array = Array(results.suffix(values.count))
                results.removeLast(values.count)
                if let key = Self.identity(values) { arrays[key] = array }
                results.append(array)
            case .buildDictionary(let entries):
                let children = results.suffix(entries.count)
                var dictionary: [String: Any] = [:]
                dictionary.reserveCapacity(entries.count)
                for (entry, child) in zip(entries, children) {
                    if let index = dictionary.index(forKey: entry.key) {
                        throw PropertyListReadingError(.invalidValue(
                            "the keys \"\(dictionary[index].key)\" and \"\(entry.key)\" are canonically equivalent, so one would replace the other"))
                    }
                    dictionary[entry.key] = child
                }
                results.removeLast(entries.count)
                if let key = Self.identity(entries) { dictionaries[key] = dictionary }
                results.append(dictionary)
            }
        }
        return results[0]
    }

    /// The address of an array's storage as a number, equal for arrays that share it (nil when
    /// empty). Only compared, never turned back into a pointer; the root holds every array for
    /// the whole conversion, so no address is reused meanwhile.
    private static func identity<Element>(_ array: [Element]) -> UInt? {
        array.withUnsafeBufferPointer { $0.baseAddress.map { UInt(bitPattern: $0) } }
    }

    private static func scalar(_ value: PropertyListValue) -> Any {
        switch value {
        case .string(let string): return string
        case .integer(let integer): return Int(exactly: integer).map { $0 as Any } ?? integer
        case .largeInteger(let decimal): return decimal
        case .real(let real): return real
        case .boolean(let flag): return flag
        case .date(let date): return date
        case .data(let data): return data
        case .uid(let uid): return ["CF$UID": Int(exactly: uid).map { $0 as Any } ?? uid] as [String: Any]
        case .array, .dictionary: return [Any]()  // containers never reach here
        }
    }
}
