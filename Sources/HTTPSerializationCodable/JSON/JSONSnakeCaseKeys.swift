import HTTPSerializationCore

/// The keys written under `.convertToSnakeCase`, each converted once an encode.
///
/// A generated writer names its keys by static strings, so the text's address identifies a key
/// for the whole encode (with its length checked: two literals may share a start): the first
/// write converts it and hashes the result, later writes look it up. Keys of hand-written
/// `encode(to:)` are looked up by their text (``converted(text:)``), up to ``textLimit`` of them.
///
/// Conversion can make two keys one (`userID` and `user_id` both become `user_id`); from the
/// first such pair a generated writer writes on, ``converted(_:)`` answers nil and every key is
/// checked against the others in its object, as keys of hand-written code are.
struct JSONSnakeCaseKeys {
    /// A key as written: its converted text and that text's hash, and the length of the text
    /// it was converted from.
    struct Key {
        let text: String
        let hash: UInt64
        fileprivate let sourceCount: Int
    }

    /// How many keys of hand-written code are kept: a dictionary of many distinct keys is
    /// converted key by key past this, not held twice for the whole encode.
    static let textLimit = 512

    private var byAddress: [UnsafeRawPointer: Key] = [:]
    private var byText: [String: String] = [:]
    /// Each converted text of a generated writer's key, with the key it came from, to find two
    /// keys that convert to one.
    private var sources: [String: String] = [:]
    private(set) var collide = false

    /// `key` converted, or nil when keys must be checked one against another: two keys have
    /// converted to one, or `key` has no address (a literal of one scalar may be stored inline;
    /// its conversion is still noted, so a later key that converts to the same text is found).
    mutating func converted(_ key: StaticString) -> Key? {
        guard !collide else { return nil }
        guard key.hasPointerRepresentation else {
            _ = note(key.description)
            return nil
        }
        let address = UnsafeRawPointer(key.utf8Start)
        if let known = byAddress[address] {
            if known.sourceCount == key.utf8CodeUnitCount { return known }
            // Another literal at the same start (one ending in a NUL the other holds): checked,
            // and noted like a key without an address.
            _ = note(key.description)
            return nil
        }
        guard let text = note(key.description) else { return nil }
        let hash = text.withBorrowedUTF8 { JSONTapeReader.keyHash($0) }
        let converted = Key(text: text, hash: hash, sourceCount: key.utf8CodeUnitCount)
        byAddress[address] = converted
        return converted
    }

    /// `original` converted, noted with its source; nil (and every later key checked) when
    /// another key converted to the same text.
    private mutating func note(_ original: String) -> String? {
        let text = converted(text: original)
        if let source = sources.updateValue(original, forKey: text), source != original {
            collide = true
            return nil
        }
        return text
    }

    /// `key` converted; every key of this kind is checked against the others in its object.
    mutating func converted(text key: String) -> String {
        if let known = byText[key] { return known }
        let text = JSONKeyConversion.snakeCase(fromCamelCase: key)
        if byText.count < Self.textLimit { byText[key] = text }
        return text
    }
}
