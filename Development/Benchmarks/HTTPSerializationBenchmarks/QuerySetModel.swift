import Foundation
import HTTPSerialization

/// The §3 query set as a typed model, for the form decoders: each key's value type follows
/// from its index, as §3 generates it, so one `init(from:)` reads the 10,000 keys through
/// any `Decoder` (ours and Vapor's alike).
struct QuerySetModel: Decodable, Equatable {
    struct Record: Decodable, Equatable {
        var id: Int
        var name: String
        var tags: [String]
    }

    enum Entry: Equatable {
        case text(String)
        case texts([String])
        case numbers([Int])
        case nested([String: [String: [String: String]]])
        case record(Record)
    }

    struct Key: CodingKey {
        var stringValue: String
        var intValue: Int? { nil }
        init(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }

    var entries: [String: Entry]

    init(entries: [String: Entry]) {
        self.entries = entries
    }

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: Key.self)
        var entries: [String: Entry] = [:]
        let keys = container.allKeys
        entries.reserveCapacity(keys.count)
        for key in keys {
            guard let index = Self.index(of: key.stringValue) else {
                throw DecodingError.dataCorruptedError(forKey: key, in: container, debugDescription: "not a §3 key")
            }
            switch index % 10 {
            case 6: entries[key.stringValue] = .texts(try container.decode([String].self, forKey: key))
            case 7: entries[key.stringValue] = .numbers(try container.decode([Int].self, forKey: key))
            case 8: entries[key.stringValue] = .nested(try container.decode([String: [String: [String: String]]].self, forKey: key))
            case 9: entries[key.stringValue] = .record(try container.decode(Record.self, forKey: key))
            default: entries[key.stringValue] = .text(try container.decode(String.self, forKey: key))
            }
        }
        self.entries = entries
    }

    /// The model the set's own tree describes, to check what the decoders read.
    init?(_ parameters: ParameterValue) {
        guard case .dictionary(let top) = parameters else { return nil }
        var entries: [String: Entry] = [:]
        for (key, value) in top {
            guard let index = Self.index(of: key), let entry = Self.entry(value, index: index) else { return nil }
            entries[key] = entry
        }
        self.entries = entries
    }

    /// `key01234…` → 1234.
    static func index(of key: String) -> Int? {
        let digits = key.utf8.dropFirst(3).prefix(5)
        guard key.utf8.starts(with: "key".utf8), digits.count == 5 else { return nil }
        return Int(String(decoding: digits, as: UTF8.self))
    }

    private static func entry(_ value: ParameterValue, index: Int) -> Entry? {
        func text(_ value: ParameterValue) -> String? {
            if case .string(let string) = value { return string }
            return nil
        }
        func texts(_ value: ParameterValue) -> [String]? {
            guard case .array(let array) = value else { return nil }
            let strings = array.compactMap(text)
            return strings.count == array.count ? strings : nil
        }
        func dictionary(_ value: ParameterValue) -> [String: ParameterValue]? {
            if case .dictionary(let dictionary) = value { return dictionary.entries }
            return nil
        }
        switch index % 10 {
        case 6:
            return texts(value).map(Entry.texts)
        case 7:
            guard case .array(let array) = value else { return nil }
            let numbers = array.compactMap { element -> Int? in
                if case .int(let number) = element { return number }
                return nil
            }
            return numbers.count == array.count ? .numbers(numbers) : nil
        case 8:
            guard let outer = dictionary(value) else { return nil }
            var nested: [String: [String: [String: String]]] = [:]
            for (a, middle) in outer {
                guard let middle = dictionary(middle) else { return nil }
                var level: [String: [String: String]] = [:]
                for (b, inner) in middle {
                    guard let inner = dictionary(inner) else { return nil }
                    let leaves = inner.compactMapValues(text)
                    guard leaves.count == inner.count else { return nil }
                    level[b] = leaves
                }
                nested[a] = level
            }
            return .nested(nested)
        case 9:
            guard let record = dictionary(value), case .int(let id)? = record["id"],
                  let name = record["name"].flatMap(text), let tags = record["tags"].flatMap(texts) else { return nil }
            return .record(Record(id: id, name: name, tags: tags))
        default:
            return text(value).map(Entry.text)
        }
    }
}
