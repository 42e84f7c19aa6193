import HTTPSerializationCore

/// The keys written under `.convertToSnakeCase`, each converted once an encode.
///
/// A generated writer names its keys by static strings, so the text's address identifies a key
/// for the whole encode: the first write converts it and hashes the result, later writes look
/// it up. Keys of hand-written `encode(to:)` are looked up by their text (``converted(text:)``). Conversion can make two keys one (`userID` and `user_id` both become `user_id`); from
/// the first such pair on, ``converted(_:)`` answers nil and every key is checked against the
/// others in its object, as keys of hand-written code are.
struct JSONSnakeCaseKeys {
    /// A key as written: its converted text and that text's hash.
    struct Key {
        let text: String
        let hash: UInt64
    }

    private var byAddress: [UnsafeRawPointer: Key] = [:]
    private var byText: [String: String] = [:]
    /// Each converted text, with the key it came from, to find two keys that convert to one.
    private var sources: [String: String] = [:]
    private(set) var collide = false

    /// `key` converted, or nil when keys must be checked one against another: two keys have
    /// converted to one, or `key` has no address (a literal of one scalar may be stored inline).
    mutating func converted(_ key: StaticString) -> Key? {
        guard !collide, key.hasPointerRepresentation else { return nil }
        let address = UnsafeRawPointer(key.utf8Start)
        if let known = byAddress[address] { return known }
        let original = key.description
        let text = JSONKeyConversion.snakeCase(fromCamelCase: original)
        if let source = sources.updateValue(original, forKey: text), source != original {
            collide = true
            return nil
        }
        let converted = Key(text: text, hash: text.withBorrowedUTF8 { JSONTapeReader.keyHash($0) })
        byAddress[address] = converted
        return converted
    }

    /// `key` converted; every key of this kind is checked against the others in its object.
    mutating func converted(text key: String) -> String {
        if let known = byText[key] { return known }
        let text = JSONKeyConversion.snakeCase(fromCamelCase: key)
        byText[key] = text
        return text
    }
}
