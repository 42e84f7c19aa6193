/// A `Content-Range` field of a byte range (RFC 9110 §14.4): the range a `206` carries, or
/// the whole length a `416` reports.
struct ContentRange: Equatable, Sendable {
    /// The first and last byte positions the body holds, both included; nil for `bytes */L`.
    var range: ClosedRange<Int64>?
    /// The whole representation's length, nil when the server wrote `*`.
    var completeLength: Int64?

    init(range: ClosedRange<Int64>?, completeLength: Int64?) {
        self.range = range
        self.completeLength = completeLength
    }

    /// Reads `bytes F-L/C`, `bytes F-L/*` or `bytes */C`; nil for anything else, another
    /// unit, a last position before the first, or one at or past the complete length.
    init?(_ field: String) {
        var rest = Substring(field).drop { $0 == " " || $0 == "\t" }
        while let last = rest.last, last == " " || last == "\t" { rest = rest.dropLast() }
        guard rest.count > 6, rest.prefix(5).lowercased() == "bytes", rest.dropFirst(5).first == " " else { return nil }
        rest = rest.dropFirst(6).drop { $0 == " " }
        guard let slash = rest.firstIndex(of: "/") else { return nil }
        let (positions, complete) = (rest[..<slash], rest[rest.index(after: slash)...])
        if complete == "*" {
            completeLength = nil
        } else {
            guard let length = Self.number(complete) else { return nil }
            completeLength = length
        }
        if positions == "*" {
            guard completeLength != nil else { return nil }
            range = nil
            return
        }
        guard let dash = positions.firstIndex(of: "-"),
              let first = Self.number(positions[..<dash]), let last = Self.number(positions[positions.index(after: dash)...]),
              first <= last, completeLength.map({ last < $0 }) ?? true
        else { return nil }
        range = first...last
    }

    /// Decimal digits only, within `Int64`.
    private static func number(_ text: Substring) -> Int64? {
        guard !text.isEmpty, text.utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }) else { return nil }
        return Int64(text)
    }
}
