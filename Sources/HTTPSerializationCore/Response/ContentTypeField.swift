/// A `Content-Type` field value taken apart (RFC 9110 §8.3.1): the media type in lower case
/// and the `charset` parameter, matched case-insensitively and unquoted.
package struct ContentTypeField: Sendable, Equatable {
    /// `type/subtype`, lower-cased, without parameters.
    package var mimeType: String
    /// The `charset` parameter's value, if any, as written (quotes removed).
    package var charset: String?

    /// Nil for an empty value, which says nothing about the body.
    init?(_ value: String) {
        var parts = Self.split(value)
        let type = Self.trimmed(parts.removeFirst())
        guard !type.isEmpty || parts.contains(where: { !Self.trimmed($0).isEmpty }) else { return nil }
        mimeType = type.lowercased()
        for parameter in parts {
            guard let equals = parameter.firstIndex(of: "=") else { continue }
            let name = Self.trimmed(parameter[..<equals])
            guard HTTPHeaderFields.namesMatch(name, "charset") else { continue }
            charset = Self.unquoted(Self.trimmed(parameter[parameter.index(after: equals)...]))
            break
        }
    }

    /// Splits at `;` outside quoted strings.
    private static func split(_ value: String) -> [Substring] {
        var parts: [Substring] = []
        var start = value.startIndex
        var inQuotes = false
        var escaped = false
        var index = value.startIndex
        while index < value.endIndex {
            let character = value[index]
            if escaped {
                escaped = false
            } else if inQuotes && character == "\\" {
                escaped = true
            } else if character == "\"" {
                inQuotes.toggle()
            } else if character == ";" && !inQuotes {
                parts.append(value[start..<index])
                start = value.index(after: index)
            }
            index = value.index(after: index)
        }
        parts.append(value[start...])
        return parts
    }

    /// Without surrounding spaces and tabs (RFC 9110 OWS).
    private static func trimmed(_ text: Substring) -> String {
        let isSpace: (Character) -> Bool = { $0 == " " || $0 == "\t" }
        guard let first = text.firstIndex(where: { !isSpace($0) }), let last = text.lastIndex(where: { !isSpace($0) }) else { return "" }
        return String(text[first...last])
    }

    /// A quoted string's content with its backslash escapes resolved; other text as it is.
    private static func unquoted(_ text: String) -> String {
        guard text.count >= 2, text.first == "\"", text.last == "\"" else { return text }
        var result = ""
        var escaped = false
        for character in text.dropFirst().dropLast() {
            if !escaped && character == "\\" {
                escaped = true
                continue
            }
            escaped = false
            result.append(character)
        }
        return result
    }
}
