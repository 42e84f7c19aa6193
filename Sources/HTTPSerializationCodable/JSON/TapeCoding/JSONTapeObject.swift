#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import HTTPSerializationCore

/// An object of a parsed JSON document, read by key: what a ``JSONTapeDecodable`` reader
/// uses where `init(from:)` uses a keyed container.
///
/// Keys are the coding keys' strings. Properties asked for in the order the document writes
/// them (the usual case: the order the model encodes them) are matched as bytes at the
/// object's next key; any other order, a key asked for again, an escaped or non-ASCII key
/// (compared as `String`s compare) or a key strategy falls back to a search that finds what a
/// keyed container would. Where a key repeats, the first is read, as `JSONDecoder` reads it.
///
/// Valid only during the reader's call, as the ``JSONTapeValue`` it came from; one kept and used
/// after its decode returned traps, in every build. Part of `@GeneratedJSONCoding`'s runtime,
/// not for hand use.
@_documentation(visibility: internal)
public struct JSONTapeObject {
    // The decoder, held strongly and checked at every use (``CheckedDecoder``): an object can
    // be kept, unlike the value it came from.
    let held: CheckedDecoder
    var decoder: JSONTapeDecoder { held.checked }
    /// The decoder's reader when the object was opened; read only after a check of the
    /// decode (``valueEntry(_:)``, ``decoder``), so never once its memory is gone.
    let tape: JSONTapeReader
    let object: Int
    /// The entry after the object's last value.
    let end: Int
    /// The length of the decoder's path when the object was opened: the object's own path.
    let prefix: Int
    /// The key entry the next lookup tries first.
    var cursor: Int
    /// Whether every key before `cursor` was matched in turn, so the key at `cursor` is the
    /// first of its name when it matches. Off under a key strategy, which looks keys up in
    /// the decoder's index of the object.
    var inOrder: Bool
    /// A bit for each key matched at the cursor (by a hash of its bytes): a key asked for again
    /// is searched for, so its first value is the one read again.
    var matched: UInt64 = 0

    /// Objects with more keys than this are indexed once read out of order, rather than searched for each key.
    static var searchLimit: Int { 32 }

    init(decoder: JSONTapeDecoder, object: Int) throws {
        let tape = decoder.tape
        guard tape.kind(object) == .object else { throw decoder.containerMismatch(at: object, path: decoder.codingPath) }
        held = CheckedDecoder(decoder)
        self.tape = tape
        self.object = object
        end = tape.offset(object)
        prefix = decoder.path.count
        cursor = object + 1
        inOrder = decoder.keysAsWritten
    }

    /// The keys a reader names, as its coding keys: `keyNotFound` errors and coding paths
    /// show them as a synthesized `CodingKeys` would show itself.
    struct CodingKeys: CodingKey {
        var stringValue: String
        var intValue: Int? { nil }
        init(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }

    /// The keys and indexes that lead to the object.
    @_documentation(visibility: internal)
    public var codingPath: [any CodingKey] { decoder.codingPath(JSONPathSite(prefix: prefix)) }

    /// Whether the object has a value, null included, for `key`.
    @_documentation(visibility: internal)
    public func contains(_ key: StaticString) -> Bool {
        held.check()
        var probe = self
        return probe.search(key) != nil
    }

    // MARK: Reading

    /// The value for `key` as `type`.
    ///
    /// - Throws: `DecodingError.keyNotFound` when the object has no such key, otherwise the
    ///   error `type`'s reader throws, as `KeyedDecodingContainer.decode(_:forKey:)` would.
    @inlinable
    @_documentation(visibility: internal)
    public mutating func decode<T: JSONTapeDecodable>(_ type: T.Type = T.self, forKey key: StaticString) throws -> T {
        // Specialized in the caller, so the common scalars skip the path and the reader's call.
        if T.self == String.self { return unsafeBitCast(try decodeString(key, ifPresent: false)!, to: T.self) }
        if T.self == Int.self { return unsafeBitCast(try decodeInt(key, ifPresent: false)!, to: T.self) }
        if T.self == Double.self { return unsafeBitCast(try decodeDouble(key, ifPresent: false)!, to: T.self) }
        if T.self == Bool.self { return unsafeBitCast(try decodeBool(key, ifPresent: false)!, to: T.self) }
        let value = try nestedValue(key)
        defer { popKey() }
        return try T(jsonTape: value)
    }

    /// The value for `key` as `type`, or nil when the key is missing or its value is null.
    @inlinable
    @_documentation(visibility: internal)
    public mutating func decodeIfPresent<T: JSONTapeDecodable>(_ type: T.Type = T.self, forKey key: StaticString) throws -> T? {
        if T.self == String.self { return unsafeBitCast(try decodeString(key, ifPresent: true), to: T?.self) }
        if T.self == Int.self { return unsafeBitCast(try decodeInt(key, ifPresent: true), to: T?.self) }
        if T.self == Double.self { return unsafeBitCast(try decodeDouble(key, ifPresent: true), to: T?.self) }
        if T.self == Bool.self { return unsafeBitCast(try decodeBool(key, ifPresent: true), to: T?.self) }
        guard let value = try presentNestedValue(key) else { return nil }
        defer { popKey() }
        return try T(jsonTape: value)
    }

    /// The value for `key` as `type`, through its `init(from:)`: for a property whose type has
    /// no reader of its own.
    @_documentation(visibility: internal)
    public mutating func decode<T: Decodable>(_ type: T.Type = T.self, forKey key: StaticString) throws -> T {
        try decodeThroughDecodable(type, key, ifPresent: false)!
    }

    /// The value for `key` as `type` through its `init(from:)`, or nil when the key is missing
    /// or its value is null.
    @_documentation(visibility: internal)
    public mutating func decodeIfPresent<T: Decodable>(_ type: T.Type = T.self, forKey key: StaticString) throws -> T? {
        try decodeThroughDecodable(type, key, ifPresent: true)
    }

    /// The value for `key` of a property whose type is an optional the macro cannot see as
    /// one (spelled through a type alias, or not written): nil when the key is missing or
    /// null, as synthesized `Codable` reads any optional. Overload resolution picks it
    /// wherever the type is an optional once aliases are resolved.
    @inlinable
    @_documentation(visibility: internal)
    public mutating func decode<Wrapped: JSONTapeDecodable>(_ type: Wrapped?.Type, forKey key: StaticString) throws -> Wrapped? {
        try decodeIfPresent(Wrapped.self, forKey: key)
    }

    /// An optional the macro cannot see as one, of a type with no reader of its own: nil when
    /// the key is missing or null.
    @_documentation(visibility: internal)
    public mutating func decode<Wrapped: Decodable>(_ type: Wrapped?.Type, forKey key: StaticString) throws -> Wrapped? {
        try decodeIfPresent(Wrapped.self, forKey: key)
    }

    // MARK: Behind the inlined calls

    /// The value's entry for `key`; nil when it is missing, or null and `ifPresent`.
    @inline(__always)
    private mutating func entry(_ key: StaticString, ifPresent: Bool) throws -> Int? {
        guard let entry = valueEntry(key) else {
            if ifPresent { return nil }
            throw keyNotFound(key)
        }
        if ifPresent, tape.kind(entry) == .null { return nil }
        return entry
    }

    private func keyNotFound(_ key: StaticString) -> DecodingError {
        let codingKey = CodingKeys(stringValue: key.description)
        return .keyNotFound(codingKey, DecodingError.Context(
            codingPath: codingPath, debugDescription: "No value associated with key \(codingKey) (\"\(key.description)\")."))
    }

    /// The coding path of the value at `key`, for errors.
    private func keyPath(_ key: StaticString) -> [any CodingKey] { decoder.codingPath(JSONPathSite(prefix: prefix), appending: .name(key)) }

    @usableFromInline mutating func decodeString(_ key: StaticString, ifPresent: Bool) throws -> String? {
        guard let entry = try entry(key, ifPresent: ifPresent) else { return nil }
        guard tape.kind(entry) == .string else { throw decoder.mismatch(String.self, at: entry, path: keyPath(key)) }
        return tape.string(entry)
    }

    @usableFromInline mutating func decodeInt(_ key: StaticString, ifPresent: Bool) throws -> Int? {
        guard let entry = try entry(key, ifPresent: ifPresent) else { return nil }
        return try decoder.integer(at: entry, path: { keyPath(key) })
    }

    @usableFromInline mutating func decodeDouble(_ key: StaticString, ifPresent: Bool) throws -> Double? {
        guard let entry = try entry(key, ifPresent: ifPresent) else { return nil }
        return try decoder.floatingPoint(at: entry, path: { keyPath(key) })
    }

    @usableFromInline mutating func decodeBool(_ key: StaticString, ifPresent: Bool) throws -> Bool? {
        guard let entry = try entry(key, ifPresent: ifPresent) else { return nil }
        switch tape.kind(entry) {
        case .true: return true
        case .false: return false
        default: throw decoder.typeMismatch(Bool.self, at: entry, path: keyPath(key))
        }
    }

    /// The value at `key`, its key put on the decoder's path (``popKey()`` takes it off).
    @usableFromInline mutating func nestedValue(_ key: StaticString) throws -> JSONTapeValue {
        let entry = try entry(key, ifPresent: false)!
        decoder.path.append(.name(key))
        return JSONTapeValue(decoder: decoder, entry: entry)
    }

    /// ``nestedValue(_:)``, or nil (and nothing on the path) when the key is missing or null.
    @usableFromInline mutating func presentNestedValue(_ key: StaticString) throws -> JSONTapeValue? {
        guard let entry = try entry(key, ifPresent: true) else { return nil }
        decoder.path.append(.name(key))
        return JSONTapeValue(decoder: decoder, entry: entry)
    }

    @usableFromInline func popKey() { decoder.path.removeLast() }

    mutating func decodeThroughDecodable<T: Decodable>(_ type: T.Type, _ key: StaticString, ifPresent: Bool) throws -> T? {
        guard let entry = try entry(key, ifPresent: ifPresent) else { return nil }
        return try decoder.decodeValue(type, at: entry, site: JSONPathSite(prefix: prefix), appending: { .name(key) })
    }

    // MARK: Lookup

    /// The entry of the value for `key`, or nil.
    @inline(__always)
    mutating func valueEntry(_ key: StaticString) -> Int? {
        held.check()
        if inOrder, cursor < end {
            let word = tape.words[cursor]
            // Narrow, unescaped and of the key's length: then compare the bytes.
            let count = key.utf8CodeUnitCount
            if word & (JSONTape.wideBit | UInt64(JSONTape.hasEscapes) << JSONTape.flagsShift) == 0,
               Int(word >> JSONTape.lengthShift & JSONTape.lengthMask) == count,
               key.withUTF8Buffer({ JSONTapeReader.equal(tape.base + Int(word >> 32), $0.baseAddress, count: count) }) {
                // A key asked for again would take a repeated key's later value here: the bit
                // says it may have been matched before, and then the keys passed are checked.
                let bit = Self.bit(key)
                if matched & bit == 0 || firstKey(key, from: object + 1, to: cursor) == nil {
                    matched |= bit
                    let value = cursor + 1
                    cursor = tape.next(value)
                    return value
                }
            }
        }
        return search(key)
    }

    /// The bit of ``matched`` that stands for `key`.
    @inline(__always)
    static func bit(_ key: StaticString) -> UInt64 {
        let hash = key.withUTF8Buffer { JSONTapeReader.keyHash($0) }
        return 1 << (hash >> 58)
    }

    /// The first value for `key` anywhere in the object: from the decoder's index of it under
    /// a key strategy or when it is large, otherwise by a search from its first key.
    private mutating func search(_ key: StaticString) -> Int? {
        let found: Int?
        if !decoder.keysAsWritten || tape.length(object) > Self.searchLimit {
            found = decoder.objectIndex(object, site: JSONPathSite(prefix: prefix)).values[key.description].map { $0 - 1 }
        } else {
            found = firstKey(key, from: object + 1, to: end)
        }
        guard let found else { return nil }
        // The first of its name at the cursor (escaped, say): still in turn. Anywhere else,
        // and the keys before the cursor are no longer all matched ones.
        if inOrder, found == cursor {
            matched |= Self.bit(key)
            cursor = tape.next(found + 1)
        } else {
            inOrder = false
        }
        return found + 1
    }

    /// The first key entry from `first` up to `limit` that is `key`.
    private func firstKey(_ key: StaticString, from first: Int, to limit: Int) -> Int? {
        key.withUTF8Buffer { wanted in
            // A non-ASCII key can equal an ASCII one as `String`s (a Kelvin sign and `K`).
            let asStrings = !wanted.allSatisfy { $0 < 0x80 }
            var entry = first
            while entry < limit {
                let flags = tape.flags(entry)
                if flags & JSONTape.hasEscapes == 0,
                   tape.length(entry) == wanted.count, JSONTapeReader.equal(tape.base + tape.offset(entry), wanted.baseAddress, count: wanted.count) {
                    return entry
                }
                // Escaped or non-ASCII: compared as `String`s, which also match canonically
                // equivalent spellings, as `JSONDecoder`'s keys do.
                if asStrings || flags & (JSONTape.hasEscapes | JSONTape.hasNonASCII) != 0, tape.string(entry) == key.description {
                    return entry
                }
                entry = tape.next(entry + 1)
            }
            return nil
        }
    }
}
