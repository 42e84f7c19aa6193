#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import HTTPSerializationCore

/// Key spellings converted the way `JSONDecoder` and `JSONEncoder` convert them.
enum JSONKeyConversion {
    /// `first_name` → `firstName`: underscores between words are dropped, the first word is
    /// lower-cased and the others capitalized; leading and trailing underscores stay, and a key
    /// with no inner underscore is left as it is.
    static func camelCase(fromSnakeCase key: String) -> String {
        guard let first = key.firstIndex(where: { $0 != "_" }) else { return key }
        var last = key.index(before: key.endIndex)
        while last > first, key[last] == "_" { key.formIndex(before: &last) }
        let words = key[first...last].split(separator: "_")
        guard words.count > 1 else { return key }
        var result = String(key[..<first])
        result += words[0].lowercased()
        for word in words.dropFirst() { result += word.capitalized }
        result += key[key.index(after: last)...]
        return result
    }
}
