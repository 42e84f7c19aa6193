import HTTPTypes

/// The media ranges of an `Accept` field with their weights, judged as RFC 9110 §12.5.1 says:
/// a type takes the weight of the most specific range that matches it (`text/html` over
/// `text/*` over `*/*`), and a weight of 0 means "not acceptable".
package struct AcceptedMediaRanges: Sendable {
    struct Range: Sendable {
        var type: Substring
        var subtype: Substring
        var weight: Double
    }

    var ranges: [Range]

    /// The ranges of `field`; nil when it lists none (an empty or unreadable field accepts any type).
    init?(field: String) {
        ranges = []
        for element in Self.elements(of: field) {
            let parameters = Self.split(element, at: ";")
            let range = parameters[0].trimmed.lowercased()
            guard let slash = range.firstIndex(of: "/") else { continue }
            let type = range[..<slash], subtype = range[range.index(after: slash)...]
            guard !type.isEmpty, !subtype.isEmpty, type != "*" || subtype == "*" else { continue }
            var weight = 1.0
            for parameter in parameters.dropFirst() {
                let pair = parameter.split(separator: "=", maxSplits: 1)
                guard pair.count == 2, pair[0].trimmed.lowercased() == "q" else { continue }
                // A malformed weight leaves the range out rather than guessing.
                guard let value = Self.qvalue(pair[1].trimmed) else { weight = -1; break }
                weight = value
            }
            if weight >= 0 { ranges.append(Range(type: Substring(type), subtype: Substring(subtype), weight: weight)) }
        }
        if ranges.isEmpty { return nil }
    }

    /// Whether `mimeType` (without parameters) is acceptable: the most specific range that
    /// matches it has a weight above 0.
    func accepts(_ mimeType: String) -> Bool {
        let lowered = mimeType.lowercased()
        guard let slash = lowered.firstIndex(of: "/") else { return false }
        let type = lowered[..<slash], subtype = lowered[lowered.index(after: slash)...]
        var best: (specificity: Int, weight: Double)?
        for range in ranges {
            let specificity: Int
            if range.type == type && range.subtype == subtype {
                specificity = 2
            } else if range.type == type && range.subtype == "*" {
                specificity = 1
            } else if range.type == "*" {
                specificity = 0
            } else {
                continue
            }
            // Among equally specific ranges the highest weight counts.
            if best == nil || specificity > best!.specificity || (specificity == best!.specificity && range.weight > best!.weight) {
                best = (specificity, range.weight)
            }
        }
        return (best?.weight ?? 0) > 0
    }

    /// RFC 9110's `qvalue`: `0` to `1` with at most three decimals.
    static func qvalue(_ text: Substring) -> Double? {
        let bytes = Array(text.utf8)
        guard let first = bytes.first, first == UInt8(ascii: "0") || first == UInt8(ascii: "1"), bytes.count <= 5 else { return nil }
        if bytes.count > 1 {
            guard bytes[1] == UInt8(ascii: "."), bytes.dropFirst(2).allSatisfy({ (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }) else { return nil }
            if first == UInt8(ascii: "1"), bytes.dropFirst(2).contains(where: { $0 != UInt8(ascii: "0") }) { return nil }
        }
        return Double(String(decoding: bytes, as: UTF8.self))
    }

    /// The field's comma-separated elements, commas inside quoted strings kept.
    static func elements(of field: String) -> [Substring] {
        split(Substring(field), at: ",").filter { !$0.trimmed.isEmpty }
    }

    /// `text` cut at each `separator` outside a quoted string (with `\` escapes inside).
    static func split(_ text: Substring, at separator: Character) -> [Substring] {
        var pieces: [Substring] = []
        var start = text.startIndex, index = text.startIndex
        var quoted = false
        while index < text.endIndex {
            let character = text[index]
            if quoted && character == "\\" {
                index = text.index(after: index)
                if index < text.endIndex { index = text.index(after: index) }
                continue
            }
            if character == "\"" { quoted.toggle() }
            if !quoted && character == separator {
                pieces.append(text[start..<index])
                start = text.index(after: index)
            }
            index = text.index(after: index)
        }
        pieces.append(text[start...])
        return pieces
    }
}

extension ResponseContext {
    /// The `Accept` field of the request, parsed; nil (any type) when there is no request, no
    /// `Accept`, or one that lists no range.
    package var acceptedMediaRanges: AcceptedMediaRanges? {
        request?.headerFields[.accept].flatMap(AcceptedMediaRanges.init(field:))
    }
}

extension Substring {
    /// Without the spaces and tabs HTTP allows around list elements and parameters.
    fileprivate var trimmed: Substring {
        let isSpace: (Character) -> Bool = { $0 == " " || $0 == "\t" }
        guard let start = firstIndex(where: { !isSpace($0) }), let end = lastIndex(where: { !isSpace($0) }) else { return "" }
        return self[start...end]
    }
}
