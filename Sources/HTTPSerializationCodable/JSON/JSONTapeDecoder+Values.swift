#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import HTTPSerializationCore

/// Reading one value of a Swift type from a tape entry, with `JSONDecoder`'s rules and
/// error kinds. The value's coding path comes as a function, called only to build an error
/// (or to descend), so a value that decodes costs nothing for its path.
extension JSONTapeDecoder {
    // MARK: Any Decodable

    /// Decodes `type` from `entry`: dates, data, URLs, decimals, UUIDs and string-keyed
    /// dictionaries by the options, everything else through its own `init(from:)`.
    func decodeValue<T: Decodable>(_ type: T.Type, at entry: Int, site: JSONPathSite, appending last: () -> JSONPathComponent?) throws -> T {
        // A local function, not a closure value: nothing is captured (or retained) until an
        // error needs the path.
        func path() -> [any CodingKey] { codingPath(site, appending: last()) }
        // Scalars in arrays and generic code arrive here: read them directly rather than
        // through their `init(from:)` and a single-value container.
        if T.self == String.self { return Self.same(try string(at: entry, path: path), as: T.self) }
        if T.self == Int.self { return Self.same(try integer(at: entry, path: path) as Int, as: T.self) }
        if T.self == Double.self { return Self.same(try floatingPoint(at: entry, path: path) as Double, as: T.self) }
        if T.self == Bool.self { return Self.same(try bool(at: entry, path: path), as: T.self) }
        if T.self == [String].self { return Self.same(try array(at: entry, path: path) { entry, _, path in try string(at: entry, path: path) }, as: T.self) }
        if T.self == [Int].self { return Self.same(try array(at: entry, path: path) { entry, _, path in try integer(at: entry, path: path) as Int }, as: T.self) }
        if T.self == [Double].self { return Self.same(try array(at: entry, path: path) { entry, _, path in try floatingPoint(at: entry, path: path) as Double }, as: T.self) }
        if T.self == Date.self { return try date(at: entry, site: site, last: last, path: path) as! T }
        if T.self == Data.self { return try data(at: entry, site: site, last: last, path: path) as! T }
        if T.self == URL.self { return try url(at: entry, path: path) as! T }
        if T.self == Decimal.self { return try decimal(at: entry, path: path) as! T }
        if T.self == UUID.self { return try uuid(at: entry, path: path) as! T }
        // A type with a reader of its own (``JSONTapeDecodable``) reads itself from the tape.
        if let reader = tapeReader(T.self) {
            func read<Reader: JSONTapeDecodable>(_ reader: Reader.Type) throws -> T {
                try Reader(jsonTape: JSONTapeValue(decoder: self, entry: entry)) as! T
            }
            return try at(entry, site: site, appending: last()) { try read(reader) }
        }
        // An array is one word: only types of that size pay for the conformance lookup.
        if MemoryLayout<T>.size == MemoryLayout<[Int]>.size {
            if let array = T.self as? any JSONDecodableArray.Type {
                return try at(entry, site: site, appending: last()) { try array.decodeElements(from: self) } as! T
            }
            // `JSONDecoder` applies key strategies to coding keys, not to a dictionary's keys.
            if !keysAsWritten, let dictionary = T.self as? any JSONStringKeyedDictionary.Type {
                return try at(entry, site: site, appending: last()) { try dictionary.init(jsonObjectOf: self) } as! T
            }
        }
        return try at(entry, site: site, appending: last()) { try T(from: self) }
    }

    /// `value` as `T`, which the caller has checked is its own type.
    @inline(__always)
    private static func same<Value, T>(_ value: Value, as type: T.Type) -> T {
        unsafeBitCast(value, to: T.self)
    }

    /// An array read in one loop, as `Array.init(from:)` would read it through an unkeyed
    /// container: `read` gets each element's entry, index and path.
    func array<Element>(
        at entry: Int, path: () -> [any CodingKey], _ read: (Int, Int, () -> [any CodingKey]) throws -> Element
    ) throws -> [Element] {
        guard tape.kind(entry) == .array else { throw containerMismatch(at: entry, path: path(), array: true) }
        let count = tape.length(entry)
        var elements: [Element] = []
        elements.reserveCapacity(count)
        var element = entry + 1
        try withoutActuallyEscaping(path) { path in
            for index in 0..<count {
                elements.append(try read(element, index) { path() + [JSONIndexCodingKey(index)] })
                element = tape.next(element)
            }
        }
        return elements
    }

    // MARK: Scalars

    func bool(at entry: Int, path: () -> [any CodingKey]) throws -> Bool {
        switch tape.kind(entry) {
        case .true: return true
        case .false: return false
        // `JSONDecoder` calls a null where a `Bool` belongs a type mismatch.
        default: throw typeMismatch(Bool.self, at: entry, path: path())
        }
    }

    func string(at entry: Int, path: () -> [any CodingKey]) throws -> String {
        guard tape.kind(entry) == .string else { throw mismatch(String.self, at: entry, path: path()) }
        return tape.string(entry)
    }

    func integer<T: FixedWidthInteger>(at entry: Int, path: () -> [any CodingKey]) throws -> T {
        guard tape.kind(entry) == .number else { throw mismatch(T.self, at: entry, path: path()) }
        if let exact: T = JSONNumberText.integer(tape.text(entry), flags: tape.flags(entry)) { return exact }
        throw doesNotFit(T.self, at: entry, path: path())
    }

    func floatingPoint<T: BinaryFloatingPoint & LosslessStringConvertible>(at entry: Int, path: () -> [any CodingKey]) throws -> T {
        let kind = tape.kind(entry)
        if kind == .number {
            if let value: T = JSONNumberText.floatingPoint(tape.text(entry), flags: tape.flags(entry)) { return value }
            throw doesNotFit(T.self, at: entry, path: path())
        }
        if kind == .string, case .convertFromString = options.nonConformingFloatDecodingStrategy,
           let value: T = options.nonConformingFloatDecodingStrategy.value(named: tape.string(entry)) {
            return value
        }
        throw mismatch(T.self, at: entry, path: path())
    }

    // MARK: Foundation value types

    private func date(at entry: Int, site: JSONPathSite, last: () -> JSONPathComponent?, path: () -> [any CodingKey]) throws -> Date {
        guard tape.kind(entry) != .null else { throw valueNotFound(Date.self, path: path()) }
        switch options.dateDecodingStrategy {
        case .deferredToDate:
            return try at(entry, site: site, appending: last()) { try Date(from: self) }
        case .secondsSince1970:
            return Date(timeIntervalSince1970: try floatingPoint(at: entry, path: path) as Double)
        case .millisecondsSince1970:
            return Date(timeIntervalSince1970: try floatingPoint(at: entry, path: path) as Double / 1000)
        case .iso8601:
            let text = try string(at: entry, path: path)
            if let date = ISO8601Timestamp.parseInternetDateTime(text) ?? (try? Date.ISO8601FormatStyle().parse(text)) { return date }
            throw corrupted("Expected date string to be ISO8601-formatted.", path: path())
        case .formatted(let style):
            let text = try string(at: entry, path: path)
            if let date = try? style.parse(text) { return date }
            throw corrupted("Date string does not match the expected ISO 8601 format.", path: path())
        case .custom(let read):
            return try at(entry, site: site, appending: last()) { try read(self) }
        }
    }

    private func data(at entry: Int, site: JSONPathSite, last: () -> JSONPathComponent?, path: () -> [any CodingKey]) throws -> Data {
        guard tape.kind(entry) != .null else { throw valueNotFound(Data.self, path: path()) }
        switch options.dataDecodingStrategy {
        case .deferredToData:
            return try at(entry, site: site, appending: last()) { try Data(from: self) }
        case .base64:
            guard tape.kind(entry) == .string else { throw typeMismatch(String.self, at: entry, path: path()) }
            if let data = Data(base64Encoded: tape.string(entry)) { return data }
            throw corrupted("Encountered Data is not valid Base64.", path: path())
        case .custom(let read):
            return try at(entry, site: site, appending: last()) { try read(self) }
        }
    }

    private func url(at entry: Int, path: () -> [any CodingKey]) throws -> URL {
        guard tape.kind(entry) != .null else { throw valueNotFound(URL.self, path: path()) }
        let text = try string(at: entry, path: path)
        if let url = URL(string: text) { return url }
        throw corrupted("Invalid URL string.", path: path())
    }

    /// A UUID string, as `UUID.init(from:)` reads it (its errors are a string's, then this one).
    private func uuid(at entry: Int, path: () -> [any CodingKey]) throws -> UUID {
        let text = try string(at: entry, path: path)
        if let uuid = UUID(uuidString: text) { return uuid }
        throw corrupted("Attempted to decode UUID from invalid UUID string.", path: path())
    }

    private func decimal(at entry: Int, path: () -> [any CodingKey]) throws -> Decimal {
        guard tape.kind(entry) == .number else { throw mismatch(Decimal.self, at: entry, path: path()) }
        if let decimal = Decimal(string: String(decoding: tape.text(entry), as: UTF8.self)), !decimal.isNaN { return decimal }
        throw doesNotFit(Decimal.self, at: entry, path: path())
    }

    // MARK: Errors

    /// `valueNotFound` for a null, `typeMismatch` for anything else.
    /// Why the value at `entry` cannot be opened as an object or an array, as `JSONDecoder` says it.
    func containerMismatch(at entry: Int, path: [any CodingKey], array: Bool = false) -> DecodingError {
        let type: Any.Type = array ? [Any].self : [String: Any].self
        guard tape.kind(entry) == .null else { return typeMismatch(type, at: entry, path: path) }
        return .valueNotFound(type, DecodingError.Context(
            codingPath: path, debugDescription: "Cannot get \(array ? "unkeyed" : "keyed") decoding container -- found null value instead"))
    }

    func mismatch(_ type: Any.Type, at entry: Int, path: [any CodingKey]) -> DecodingError {
        tape.kind(entry) == .null ? valueNotFound(type, path: path) : typeMismatch(type, at: entry, path: path)
    }

    func typeMismatch(_ type: Any.Type, at entry: Int, path: [any CodingKey]) -> DecodingError {
        .typeMismatch(type, DecodingError.Context(
            codingPath: path,
            debugDescription: "Expected to decode \(type) but found \(describe(entry)) instead."))
    }

    func valueNotFound(_ type: Any.Type, path: [any CodingKey]) -> DecodingError {
        .valueNotFound(type, DecodingError.Context(
            codingPath: path,
            debugDescription: "Cannot get value of type \(type) -- found null value instead"))
    }

    func corrupted(_ description: String, path: [any CodingKey]) -> DecodingError {
        .dataCorrupted(DecodingError.Context(codingPath: path, debugDescription: description))
    }

    private func doesNotFit(_ type: Any.Type, at entry: Int, path: [any CodingKey]) -> DecodingError {
        corrupted("Parsed JSON number <\(String(decoding: tape.text(entry), as: UTF8.self))> does not fit in \(type).", path: path)
    }

    /// How `JSONDecoder` names what it found.
    func describe(_ entry: Int) -> String {
        switch tape.kind(entry) {
        case .object: return "a dictionary"
        case .array: return "an array"
        case .string: return "a string"
        case .number: return "number"
        case .true, .false: return "bool"
        case .null: return "null"
        }
    }
}

/// `[String: Value]` decodes from an object directly, keys as written, when a key strategy
/// is set (which `JSONDecoder` applies to coding keys only).
protocol JSONStringKeyedDictionary {
    init(jsonObjectOf decoder: JSONTapeDecoder) throws
}

extension Dictionary: JSONStringKeyedDictionary where Key == String, Value: Decodable {
    init(jsonObjectOf decoder: JSONTapeDecoder) throws {
        let object = decoder.entry
        let site = JSONPathSite(prefix: decoder.path.count)
        let tape = decoder.tape
        guard tape.kind(object) == .object else { throw decoder.containerMismatch(at: object, path: decoder.codingPath) }
        self.init(minimumCapacity: tape.length(object))
        var key = object + 1
        let end = tape.offset(object)
        while key < end {
            let name = tape.string(key)
            // `JSONDecoder` decodes every member here, a repeated key's too, and keeps the first.
            let value = try decoder.decodeValue(Value.self, at: key + 1, site: site, appending: { .key(JSONCodingKey(stringValue: name)) })
            if self[name] == nil { self[name] = value }
            key = tape.next(key + 1)
        }
    }
}
