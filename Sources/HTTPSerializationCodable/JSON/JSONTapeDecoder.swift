#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import HTTPSerializationCore

/// One step of a coding path: an object key, a generated reader's key name, or an array index.
enum JSONPathComponent {
    case key(any CodingKey)
    /// A key a generated reader names (its coding key's string), kept unconverted until an
    /// error asks for the path.
    case name(StaticString)
    case index(Int)

    var codingKey: any CodingKey {
        switch self {
        case .key(let key): return key
        case .name(let name): return JSONTapeObject.CodingKeys(stringValue: name.description)
        case .index(let index): return JSONIndexCodingKey(index)
        }
    }
}

/// The keys the decoder makes itself: array positions, dictionary keys, `super`.
struct JSONCodingKey: CodingKey, Sendable {
    var stringValue: String
    var intValue: Int?

    init(stringValue: String) {
        self.stringValue = stringValue
        intValue = nil
    }

    init(intValue: Int) {
        stringValue = "\(intValue)"
        self.intValue = intValue
    }

    /// A dictionary's key as `Dictionary.init(from:)` names it: also an `Int` when it reads as one.
    init(dictionaryKey: String) {
        stringValue = dictionaryKey
        intValue = Int(dictionaryKey)
    }

    static let `super` = JSONCodingKey(stringValue: "super")
}

/// Where a container's values sit: the first `prefix` components of the decoder's path
/// stack, then `tail` (the keys of containers reached with `nestedContainer`, which are not
/// on the stack). Containers made inside an `init(from:)` have none (nil, so copying a site
/// retains nothing).
struct JSONPathSite {
    var prefix: Int
    var tail: [JSONPathComponent]? = nil

    func appending(_ component: JSONPathComponent) -> JSONPathSite {
        JSONPathSite(prefix: prefix, tail: (tail ?? []) + [component])
    }
}

/// The `Decoder` over a parsed tape. One instance serves a whole decode: it moves to the
/// value being decoded and back, and keeps the coding path as a stack that containers
/// share by length, so decoding a nested value allocates nothing for its path. Generated
/// readers (``JSONTapeDecodable``) run on the same instance, so the two paths nest freely.
final class JSONTapeDecoder: Decoder {
    let document: JSONTapeDocument
    /// Read through the document every time, because a kept decoder's document may move.
    var tape: JSONTapeReader { document.reader }
    let options: JSONBodyDecoder
    let userInfo: [CodingUserInfoKey: Any]
    let keysAsWritten: Bool
    /// The key strategy is `.convertFromSnakeCase`, which leaves a key with no underscore as it is.
    let convertsFromSnakeCase: Bool
    // The state below is touched only by the decode running on this decoder, one call at a
    // time (a Decoder is not shared across threads), so the runtime's exclusivity checks on
    // every access are skipped.
    /// The tape entry of the value this decoder stands for.
    @exclusivity(unchecked) var entry: Int
    @exclusivity(unchecked) var path: [JSONPathComponent]
    /// Direct-mapped by object entry: the key entry after the last one matched in that object,
    /// where the next lookup starts (coding keys are usually asked for in document order).
    /// `2 * hintSlots` words (object, then key entry), owned by this decoder.
    let keyHints: UnsafeMutablePointer<Int>

    init(_ document: JSONTapeDocument, options: JSONBodyDecoder, entry: Int = 0, path: [JSONPathComponent] = []) {
        self.document = document
        self.options = options
        userInfo = options.userInfo.isEmpty ? [:] : options.userInfo.mapValues { $0 as Any }
        if case .useDefaultKeys = options.keyDecodingStrategy { keysAsWritten = true } else { keysAsWritten = false }
        if case .convertFromSnakeCase = options.keyDecodingStrategy { convertsFromSnakeCase = true } else { convertsFromSnakeCase = false }
        self.entry = entry
        self.path = path
        keyHints = .allocate(capacity: 2 * JSONTapeDecoder.hintSlots)
        keyHints.initialize(repeating: -1, count: 2 * JSONTapeDecoder.hintSlots)
    }

    deinit {
        keyHints.deallocate()
    }

    static let hintSlots = 64

    /// Snake-case keys already converted in this decode, as an API repeats its keys in every
    /// object; at most ``convertedKeyLimit`` (then emptied), so distinct keys cannot grow it
    /// without end.
    @exclusivity(unchecked) private var convertedKeys: [String: String] = [:]
    static let convertedKeyLimit = 512

    /// `key` converted from snake case, as `JSONDecoder` converts it.
    func camelCase(fromSnakeCase key: String) -> String {
        guard key.utf8.contains(UInt8(ascii: "_")) else { return key }
        return convertedKey(key)
    }

    /// The key written as `bytes` (no escapes, an underscore in it) converted from snake case.
    func camelCase(fromSnakeCase bytes: UnsafeBufferPointer<UInt8>) -> String {
        convertedKey(String(decoding: bytes, as: UTF8.self))
    }

    private func convertedKey(_ key: String) -> String {
        if let known = convertedKeys[key] { return known }
        let converted = JSONKeyConversion.camelCase(fromSnakeCase: key)
        // Full: start again, so the keys in use now are the ones kept.
        if convertedKeys.count == Self.convertedKeyLimit { convertedKeys.removeAll(keepingCapacity: true) }
        convertedKeys[key] = converted
        return converted
    }

    /// The last two types asked whether they have a reader of their own, and the answers:
    /// a model's values come in runs of a few types, and the runtime's lookup costs more than
    /// the comparison.
    @exclusivity(unchecked) private var readerCache: (ObjectIdentifier?, (any JSONTapeDecodable.Type)?, ObjectIdentifier?, (any JSONTapeDecodable.Type)?)
        = (nil, nil, nil, nil)

    /// The last few indexes of objects that generated readers looked keys up in (under a key
    /// strategy, or large and read out of order), by the object's entry: a reader asks for its
    /// object's keys between its nested values' own, and the decoder keeps no more than this.
    @exclusivity(unchecked) private var objectIndexes: [(object: Int, index: JSONObjectIndex)] = []
    @exclusivity(unchecked) private var nextIndexSlot = 0
    static let indexSlots = 8

    /// The index of `object`, made when it is not among the last few.
    func objectIndex(_ object: Int, site: JSONPathSite) -> JSONObjectIndex {
        if let kept = objectIndexes.first(where: { $0.object == object }) { return kept.index }
        let index = JSONObjectIndex(object, decoder: self, site: site)
        if objectIndexes.count < Self.indexSlots {
            objectIndexes.append((object, index))
        } else {
            objectIndexes[nextIndexSlot] = (object, index)
            nextIndexSlot = (nextIndexSlot + 1) % Self.indexSlots
        }
        return index
    }

    /// `type`'s own reader, if it has one.
    @inline(__always)
    func tapeReader(_ type: Any.Type) -> (any JSONTapeDecodable.Type)? {
        let id = ObjectIdentifier(type)
        if readerCache.0 == id { return readerCache.1 }
        if readerCache.2 == id { return readerCache.3 }
        let reader = type as? any JSONTapeDecodable.Type
        readerCache = (id, reader, readerCache.0, readerCache.1)
        return reader
    }

    var codingPath: [any CodingKey] { path.map(\.codingKey) }

    /// The full path of a value at `site`, followed by `last`.
    func components(_ site: JSONPathSite, appending last: JSONPathComponent? = nil) -> [JSONPathComponent] {
        var components = Array(path.prefix(min(site.prefix, path.count)))
        if let tail = site.tail { components.append(contentsOf: tail) }
        if let last { components.append(last) }
        return components
    }

    func codingPath(_ site: JSONPathSite, appending last: JSONPathComponent? = nil) -> [any CodingKey] {
        components(site, appending: last).map(\.codingKey)
    }

    /// Runs `body` with this decoder at `entry` and its path at `site` + `last`, then restores both.
    @inline(__always)
    func at<Result>(_ entry: Int, site: JSONPathSite, appending last: JSONPathComponent?, _ body: () throws -> Result) rethrows -> Result {
        let savedEntry = self.entry
        self.entry = entry
        defer { self.entry = savedEntry }
        // The usual case: a container made in the running `init(from:)`, whose path is the stack.
        guard path.count == site.prefix, site.tail == nil else {
            return try atMovedPath(site: site, appending: last, body)
        }
        guard let last else { return try body() }
        path.append(last)
        defer { path.removeLast() }
        return try body()
    }

    /// `at` for a container reached by `nestedContainer`, or used after its `init(from:)` returned.
    private func atMovedPath<Result>(site: JSONPathSite, appending last: JSONPathComponent?, _ body: () throws -> Result) rethrows -> Result {
        let saved = path
        path = components(site, appending: last)
        defer { path = saved }
        return try body()
    }

    // MARK: Decoder

    func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
        KeyedDecodingContainer(try JSONKeyedContainer<Key>(self, object: entry, site: JSONPathSite(prefix: path.count)))
    }

    func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
        try JSONUnkeyedContainer(self, array: entry, site: JSONPathSite(prefix: path.count))
    }

    func singleValueContainer() throws -> any SingleValueDecodingContainer { self }

    /// A separate decoder at `entry` (or at a null value), for `superDecoder()`.
    func detachedDecoder(at entry: Int?, path: [JSONPathComponent]) -> JSONTapeDecoder {
        guard let entry else {
            let null = JSONTapeDocument(owning: try! JSONTape.parse(Data("null".utf8), maximumDepth: 1))
            return JSONTapeDecoder(null, options: options, path: path)
        }
        return JSONTapeDecoder(document, options: options, entry: entry, path: path)
    }
}

extension JSONTapeDecoder: SingleValueDecodingContainer {
    private var here: JSONPathSite { JSONPathSite(prefix: path.count) }

    func decodeNil() -> Bool { tape.kind(entry) == .null }
    func decode(_ type: Bool.Type) throws -> Bool { try bool(at: entry, path: { self.codingPath }) }
    func decode(_ type: String.Type) throws -> String { try string(at: entry, path: { self.codingPath }) }
    func decode(_ type: Double.Type) throws -> Double { try floatingPoint(at: entry, path: { self.codingPath }) }
    func decode(_ type: Float.Type) throws -> Float { try floatingPoint(at: entry, path: { self.codingPath }) }
    func decode(_ type: Int.Type) throws -> Int { try integer(at: entry, path: { self.codingPath }) }
    func decode(_ type: Int8.Type) throws -> Int8 { try integer(at: entry, path: { self.codingPath }) }
    func decode(_ type: Int16.Type) throws -> Int16 { try integer(at: entry, path: { self.codingPath }) }
    func decode(_ type: Int32.Type) throws -> Int32 { try integer(at: entry, path: { self.codingPath }) }
    func decode(_ type: Int64.Type) throws -> Int64 { try integer(at: entry, path: { self.codingPath }) }
    func decode(_ type: UInt.Type) throws -> UInt { try integer(at: entry, path: { self.codingPath }) }
    func decode(_ type: UInt8.Type) throws -> UInt8 { try integer(at: entry, path: { self.codingPath }) }
    func decode(_ type: UInt16.Type) throws -> UInt16 { try integer(at: entry, path: { self.codingPath }) }
    func decode(_ type: UInt32.Type) throws -> UInt32 { try integer(at: entry, path: { self.codingPath }) }
    func decode(_ type: UInt64.Type) throws -> UInt64 { try integer(at: entry, path: { self.codingPath }) }
    @available(macOS 15.0, iOS 18.0, watchOS 11.0, tvOS 18.0, visionOS 2.0, *)
    func decode(_ type: Int128.Type) throws -> Int128 { try integer(at: entry, path: { self.codingPath }) }
    @available(macOS 15.0, iOS 18.0, watchOS 11.0, tvOS 18.0, visionOS 2.0, *)
    func decode(_ type: UInt128.Type) throws -> UInt128 { try integer(at: entry, path: { self.codingPath }) }
    func decode<T: Decodable>(_ type: T.Type) throws -> T { try decodeValue(type, at: entry, site: here, appending: { nil }) }
}
