import HTTPSerializationCore
/// The keys of an object that need more than a scan: duplicated, escaped or not ASCII,
/// converted by a custom key strategy, or too many to scan. Maps each key (as matched) to its
/// first value.
struct JSONObjectIndex {
    var values: [String: Int] = [:]
    var keys: [String] = []

    /// Every key of `object` as the decoder's key strategy converts it, each to its first value.
    init(_ object: Int, decoder: JSONTapeDecoder, site: JSONPathSite) {
        let tape = decoder.tape
        values.reserveCapacity(tape.length(object))
        let containerPath = decoder.keysAsWritten ? [] : decoder.codingPath(site)
        var entry = object + 1
        while entry < tape.offset(object) {
            var name = tape.string(entry)
            switch decoder.options.keyDecodingStrategy {
            case .useDefaultKeys: break
            case .convertFromSnakeCase: name = decoder.camelCase(fromSnakeCase: name)
            case .custom(let convert): name = convert(containerPath + [JSONCodingKey(stringValue: name)]).stringValue
            }
            // The first of duplicate keys wins, as in `JSONDecoder`.
            if values[name] == nil {
                values[name] = entry + 1
                keys.append(name)
            }
            entry = tape.next(entry + 1)
        }
    }
}

/// An object read by coding key. Keys that are few, unique, unescaped and ASCII are matched by
/// comparing bytes on the tape, starting where the last match ended; any other object is
/// indexed once when the container is made. Under `.convertFromSnakeCase`, a key with an
/// underscore is compared as converted (conversions are kept for the decode) and any other as
/// written, since the conversion leaves it so.
struct JSONKeyedContainer<Key: CodingKey>: KeyedDecodingContainerProtocol {
    let decoder: JSONTapeDecoder
    let object: Int
    let site: JSONPathSite
    let index: JSONObjectIndex?

    /// Objects with more keys than this are indexed rather than scanned.
    static var scanLimit: Int { 64 }

    init(_ decoder: JSONTapeDecoder, object: Int, site: JSONPathSite) throws {
        let tape = decoder.tape
        guard tape.kind(object) == .object else { throw decoder.containerMismatch(at: object, path: decoder.codingPath(site)) }
        self.decoder = decoder
        self.object = object
        self.site = site
        if decoder.keysAsWritten || decoder.convertsFromSnakeCase, tape.length(object) <= Self.scanLimit,
           Self.keysAreScannable(object, in: tape, converting: decoder.convertsFromSnakeCase ? decoder : nil) {
            index = nil
        } else {
            index = JSONObjectIndex(object, decoder: decoder, site: site)
        }
    }

    var codingPath: [any CodingKey] { decoder.codingPath(site) }

    var allKeys: [Key] {
        if let index { return index.keys.compactMap { Key(stringValue: $0) } }
        let tape = decoder.tape
        var keys: [Key] = []
        var entry = object + 1
        while entry < tape.offset(object) {
            if let key = Key(stringValue: matchedName(entry)) { keys.append(key) }
            entry = tape.next(entry + 1)
        }
        return keys
    }

    func contains(_ key: Key) -> Bool { valueEntry(key) != nil }

    // MARK: Lookup

    /// The entry of the value for `key`, or nil.
    @inline(__always)
    private func valueEntry(_ key: Key) -> Int? {
        if let index { return index.values[key.stringValue] }
        return scan(for: key.stringValue)
    }

    @inline(__always)
    private func require(_ key: Key) throws -> Int {
        if let entry = valueEntry(key) { return entry }
        throw DecodingError.keyNotFound(key, DecodingError.Context(
            codingPath: codingPath, debugDescription: "No value associated with key \(key) (\"\(key.stringValue)\")."))
    }

    private func scan(for name: String) -> Int? {
        let tape = decoder.tape
        let count = tape.length(object)
        guard count > 0 else { return nil }
        let end = tape.offset(object)
        let slot = 2 * (object & (JSONTapeDecoder.hintSlots - 1))
        var entry = decoder.keyHints[slot] == object ? decoder.keyHints[slot + 1] : object + 1
        var name = name
        let converting = decoder.convertsFromSnakeCase
        let found = name.withUTF8 { wanted -> Int? in
            for _ in 0..<count {
                if entry >= end { entry = object + 1 }
                let matches: Bool
                if converting, case let text = tape.text(entry), text.contains(UInt8(ascii: "_")) {
                    var converted = decoder.camelCase(fromSnakeCase: text)
                    matches = converted.withUTF8 { $0.elementsEqual(wanted) }
                } else {
                    matches = tape.length(entry) == wanted.count
                        && JSONTapeReader.equal(tape.base + tape.offset(entry), wanted.baseAddress, count: wanted.count)
                }
                if matches {
                    decoder.keyHints[slot] = object
                    decoder.keyHints[slot + 1] = tape.next(entry + 1)
                    return entry + 1
                }
                entry = tape.next(entry + 1)
            }
            return nil
        }
        if let found { return found }
        // Scanned keys are ASCII, yet a coding key that is not can equal one as `String`s (a
        // Kelvin sign and `K`), as `JSONDecoder` compares keys: looked for so, in order.
        guard !name.utf8.allSatisfy({ $0 < 0x80 }) else { return nil }
        var candidate = object + 1
        while candidate < end {
            if matchedName(candidate) == name { return candidate + 1 }
            candidate = tape.next(candidate + 1)
        }
        return nil
    }

    /// The key at `entry` as it is matched: converted from snake case if the decoder converts.
    private func matchedName(_ entry: Int) -> String {
        Self.matchedName(entry, in: decoder.tape, converting: decoder.convertsFromSnakeCase ? decoder : nil)
    }

    private static func matchedName(_ entry: Int, in tape: JSONTapeReader, converting decoder: JSONTapeDecoder?) -> String {
        let name = tape.string(entry)
        return decoder?.camelCase(fromSnakeCase: name) ?? name
    }

    /// Whether every key is ASCII written without escapes and no two are equal, checked with a
    /// 256-bit filter over a hash of each key (and keys compared only where it collides). With
    /// a `converting` decoder, keys are hashed and compared as converted from snake case.
    private static func keysAreScannable(_ object: Int, in tape: JSONTapeReader, converting decoder: JSONTapeDecoder?) -> Bool {
        var filter: (UInt64, UInt64, UInt64, UInt64) = (0, 0, 0, 0)
        let first = object + 1
        let end = tape.offset(object)
        var entry = first
        while entry < end {
            // Other spellings are equal as `String`s (a precomposed `é` and `e` with an accent
            // mark), as `JSONDecoder` compares keys: the index compares them so.
            guard tape.flags(entry) & (JSONTape.hasEscapes | JSONTape.hasNonASCII) == 0 else { return false }
            let text = tape.text(entry)
            let hash: UInt64
            if let decoder, text.contains(UInt8(ascii: "_")) {
                var converted = decoder.camelCase(fromSnakeCase: text)
                hash = converted.withUTF8 { JSONTapeReader.keyHash($0) }
            } else {
                hash = JSONTapeReader.keyHash(text)
            }
            let bit = hash >> 56
            let mask: UInt64 = 1 << (bit & 63)
            let seen: Bool
            switch bit >> 6 {
            case 0: seen = filter.0 & mask != 0; filter.0 |= mask
            case 1: seen = filter.1 & mask != 0; filter.1 |= mask
            case 2: seen = filter.2 & mask != 0; filter.2 |= mask
            default: seen = filter.3 & mask != 0; filter.3 |= mask
            }
            if seen, let decoder {
                let name = matchedName(entry, in: tape, converting: decoder)
                var earlier = first
                while earlier < entry {
                    if matchedName(earlier, in: tape, converting: decoder) == name { return false }
                    earlier = tape.next(earlier + 1)
                }
            } else if seen {
                var earlier = first
                while earlier < entry {
                    if tape.length(earlier) == text.count, JSONTapeReader.equal(tape.base + tape.offset(earlier), text.baseAddress, count: text.count) {
                        return false
                    }
                    earlier = tape.next(earlier + 1)
                }
            }
            entry = tape.next(entry + 1)
        }
        return true
    }

    // MARK: Values

    func decodeNil(forKey key: Key) throws -> Bool { decoder.tape.kind(try require(key)) == .null }

    func decode(_ type: Bool.Type, forKey key: Key) throws -> Bool { try decoder.bool(at: try require(key), path: { keyPath(key) }) }
    func decode(_ type: String.Type, forKey key: Key) throws -> String { try decoder.string(at: try require(key), path: { keyPath(key) }) }
    func decode(_ type: Double.Type, forKey key: Key) throws -> Double { try decoder.floatingPoint(at: try require(key), path: { keyPath(key) }) }
    func decode(_ type: Float.Type, forKey key: Key) throws -> Float { try decoder.floatingPoint(at: try require(key), path: { keyPath(key) }) }
    func decode(_ type: Int.Type, forKey key: Key) throws -> Int { try decoder.integer(at: try require(key), path: { keyPath(key) }) }
    func decode(_ type: Int8.Type, forKey key: Key) throws -> Int8 { try decoder.integer(at: try require(key), path: { keyPath(key) }) }
    func decode(_ type: Int16.Type, forKey key: Key) throws -> Int16 { try decoder.integer(at: try require(key), path: { keyPath(key) }) }
    func decode(_ type: Int32.Type, forKey key: Key) throws -> Int32 { try decoder.integer(at: try require(key), path: { keyPath(key) }) }
    func decode(_ type: Int64.Type, forKey key: Key) throws -> Int64 { try decoder.integer(at: try require(key), path: { keyPath(key) }) }
    func decode(_ type: UInt.Type, forKey key: Key) throws -> UInt { try decoder.integer(at: try require(key), path: { keyPath(key) }) }
    func decode(_ type: UInt8.Type, forKey key: Key) throws -> UInt8 { try decoder.integer(at: try require(key), path: { keyPath(key) }) }
    func decode(_ type: UInt16.Type, forKey key: Key) throws -> UInt16 { try decoder.integer(at: try require(key), path: { keyPath(key) }) }
    func decode(_ type: UInt32.Type, forKey key: Key) throws -> UInt32 { try decoder.integer(at: try require(key), path: { keyPath(key) }) }
    func decode(_ type: UInt64.Type, forKey key: Key) throws -> UInt64 { try decoder.integer(at: try require(key), path: { keyPath(key) }) }
    @available(macOS 15.0, iOS 18.0, watchOS 11.0, tvOS 18.0, visionOS 2.0, *)
    func decode(_ type: Int128.Type, forKey key: Key) throws -> Int128 { try decoder.integer(at: try require(key), path: { keyPath(key) }) }
    @available(macOS 15.0, iOS 18.0, watchOS 11.0, tvOS 18.0, visionOS 2.0, *)
    func decode(_ type: UInt128.Type, forKey key: Key) throws -> UInt128 { try decoder.integer(at: try require(key), path: { keyPath(key) }) }

    func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T {
        try decoder.decodeValue(type, at: try require(key), site: site, appending: { .key(key) })
    }

    /// The coding path of the value at `key`, for errors.
    private func keyPath(_ key: Key) -> [any CodingKey] { decoder.codingPath(site, appending: .key(key)) }

    // One lookup each (the protocol's defaults would look the key up three times).
    @inline(__always)
    private func present(_ key: Key) -> Int? {
        guard let entry = valueEntry(key), decoder.tape.kind(entry) != .null else { return nil }
        return entry
    }

    func decodeIfPresent(_ type: Bool.Type, forKey key: Key) throws -> Bool? { try present(key).map { try decoder.bool(at: $0, path: { keyPath(key) }) } }
    func decodeIfPresent(_ type: String.Type, forKey key: Key) throws -> String? { try present(key).map { try decoder.string(at: $0, path: { keyPath(key) }) } }
    func decodeIfPresent(_ type: Double.Type, forKey key: Key) throws -> Double? { try present(key).map { try decoder.floatingPoint(at: $0, path: { keyPath(key) }) } }
    func decodeIfPresent(_ type: Float.Type, forKey key: Key) throws -> Float? { try present(key).map { try decoder.floatingPoint(at: $0, path: { keyPath(key) }) } }
    func decodeIfPresent(_ type: Int.Type, forKey key: Key) throws -> Int? { try present(key).map { try decoder.integer(at: $0, path: { keyPath(key) }) } }
    func decodeIfPresent(_ type: Int8.Type, forKey key: Key) throws -> Int8? { try present(key).map { try decoder.integer(at: $0, path: { keyPath(key) }) } }
    func decodeIfPresent(_ type: Int16.Type, forKey key: Key) throws -> Int16? { try present(key).map { try decoder.integer(at: $0, path: { keyPath(key) }) } }
    func decodeIfPresent(_ type: Int32.Type, forKey key: Key) throws -> Int32? { try present(key).map { try decoder.integer(at: $0, path: { keyPath(key) }) } }
    func decodeIfPresent(_ type: Int64.Type, forKey key: Key) throws -> Int64? { try present(key).map { try decoder.integer(at: $0, path: { keyPath(key) }) } }
    func decodeIfPresent(_ type: UInt.Type, forKey key: Key) throws -> UInt? { try present(key).map { try decoder.integer(at: $0, path: { keyPath(key) }) } }
    func decodeIfPresent(_ type: UInt8.Type, forKey key: Key) throws -> UInt8? { try present(key).map { try decoder.integer(at: $0, path: { keyPath(key) }) } }
    func decodeIfPresent(_ type: UInt16.Type, forKey key: Key) throws -> UInt16? { try present(key).map { try decoder.integer(at: $0, path: { keyPath(key) }) } }
    func decodeIfPresent(_ type: UInt32.Type, forKey key: Key) throws -> UInt32? { try present(key).map { try decoder.integer(at: $0, path: { keyPath(key) }) } }
    func decodeIfPresent(_ type: UInt64.Type, forKey key: Key) throws -> UInt64? { try present(key).map { try decoder.integer(at: $0, path: { keyPath(key) }) } }
    @available(macOS 15.0, iOS 18.0, watchOS 11.0, tvOS 18.0, visionOS 2.0, *)
    func decodeIfPresent(_ type: Int128.Type, forKey key: Key) throws -> Int128? { try present(key).map { try decoder.integer(at: $0, path: { keyPath(key) }) } }
    @available(macOS 15.0, iOS 18.0, watchOS 11.0, tvOS 18.0, visionOS 2.0, *)
    func decodeIfPresent(_ type: UInt128.Type, forKey key: Key) throws -> UInt128? { try present(key).map { try decoder.integer(at: $0, path: { keyPath(key) }) } }

    func decodeIfPresent<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T? {
        try present(key).map { try decoder.decodeValue(type, at: $0, site: site, appending: { .key(key) }) }
    }

    // MARK: Nesting

    func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type, forKey key: Key) throws -> KeyedDecodingContainer<NestedKey> {
        KeyedDecodingContainer(try JSONKeyedContainer<NestedKey>(decoder, object: try require(key), site: site.appending(.key(key))))
    }

    func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer {
        try JSONUnkeyedContainer(decoder, array: try require(key), site: site.appending(.key(key)))
    }

    func superDecoder() throws -> any Decoder { superDecoder(named: JSONCodingKey.super) }

    func superDecoder(forKey key: Key) throws -> any Decoder { superDecoder(named: key) }

    /// A decoder of its own for the value at `key` (or a null when it is missing), as `JSONDecoder` gives.
    private func superDecoder(named key: some CodingKey) -> any Decoder {
        let entry = if let index { index.values[key.stringValue] } else { scan(for: key.stringValue) }
        return decoder.detachedDecoder(at: entry, path: decoder.components(site, appending: .key(key)))
    }
}
