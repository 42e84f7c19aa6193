/// An ordered, case-insensitive list of HTTP header fields that cannot carry an injection.
///
/// Order is kept as fields are first set, so requests and snapshots are reproducible;
/// names compare case-insensitively, as RFC 9110 requires; setting a field that exists
/// replaces its value in place.
///
/// ```swift
/// var headers = HTTPHeaderFields()
/// try headers.setValue("application/json", forHTTPHeaderField: "Accept")
/// headers.value(forHTTPHeaderField: "accept")  // "application/json"
/// ```
public struct HTTPHeaderFields: Sendable, Hashable, Sequence {
    /// One header field as set, with the name's original spelling.
    public struct Field: Sendable, Hashable, Codable {
        /// The field name, spelled as it was set.
        public var name: String
        /// The field value.
        public var value: String

        /// A field with this name and value; it is checked only when set on a list.
        public init(name: String, value: String) {
            self.name = name
            self.value = value
        }
    }

    private var fields: [Field] = []

    /// An empty list.
    public init() {}

    /// Builds the list from fields in order; a later field replaces an earlier one with the same name.
    ///
    /// - Throws: ``RequestSerializationError/invalidHeaderField(name:reason:)`` for an unsafe field.
    public init(_ fields: some Sequence<Field>) throws {
        for field in fields { try setValue(field.value, forHTTPHeaderField: field.name) }
    }

    /// Builds the list from a literal's names and values in order: `try HTTPHeaderFields(["Content-ID": "<a>"])`.
    ///
    /// - Throws: ``RequestSerializationError/invalidHeaderField(name:reason:)`` for an unsafe field.
    public init(_ fields: KeyValuePairs<String, String>) throws {
        for (name, value) in fields { try setValue(value, forHTTPHeaderField: name) }
    }

    /// The value of a field, matched case-insensitively, or nil; a repeated field's values
    /// joined with `", "`, as `URLRequest` and `HTTPFields` read them.
    public func value(forHTTPHeaderField name: String) -> String? {
        var joined: String?
        for field in fields where Self.namesMatch(field.name, name) {
            joined = joined.map { $0 + ", " + field.value } ?? field.value
        }
        return joined
    }

    /// Sets, replaces or, with `nil`, removes a field. A repeated field keeps its first
    /// position and loses its other occurrences.
    ///
    /// - Throws: ``RequestSerializationError/invalidHeaderField(name:reason:)`` when the name is
    ///   not an RFC 9110 token or the value holds CR, LF, NUL or another control character.
    public mutating func setValue(_ value: String?, forHTTPHeaderField name: String) throws {
        try Self.validate(name: name, value: value)
        guard let first = index(of: name) else {
            if let value { fields.append(Field(name: name, value: value)) }
            return
        }
        if let value {
            fields[first].value = value
            var index = fields.index(after: first)
            while index < fields.endIndex {
                if Self.namesMatch(fields[index].name, name) { fields.remove(at: index) } else { index += 1 }
            }
        } else {
            fields.removeAll { Self.namesMatch($0.name, name) }
        }
    }

    /// Adds a field after the others, keeping any with the same name: `Set-Cookie` and other
    /// fields that are sent once per value.
    ///
    /// - Throws: ``RequestSerializationError/invalidHeaderField(name:reason:)`` for an unsafe field.
    public mutating func addValue(_ value: String, forHTTPHeaderField name: String) throws {
        try Self.validate(name: name, value: value)
        fields.append(Field(name: name, value: value))
    }

    /// Fields already checked as `validate(name:value:)` checks them, in order, repeats kept.
    package init(validated fields: [Field]) {
        self.fields = fields
    }

    /// The fields as a dictionary, AFNetworking's `HTTPRequestHeaders`; a repeated field's
    /// values are joined with `", "`.
    public var dictionary: [String: String] {
        var result: [String: String] = [:]
        for field in fields where result.keys.allSatisfy({ !Self.namesMatch($0, field.name) }) {
            result[field.name] = value(forHTTPHeaderField: field.name)
        }
        return result
    }

    /// The number of fields, counting each occurrence of a repeated name.
    public var count: Int { fields.count }
    /// Whether the list holds no fields.
    public var isEmpty: Bool { fields.isEmpty }

    /// An iterator over the fields, in order.
    public func makeIterator() -> IndexingIterator<[Field]> {
        fields.makeIterator()
    }

    private func index(of name: String) -> Int? {
        fields.firstIndex { Self.namesMatch($0.name, name) }
    }

    /// ASCII case-insensitive comparison; header names are tokens, so ASCII is all there is.
    package static func namesMatch(_ lhs: String, _ rhs: String) -> Bool {
        guard lhs.utf8.count == rhs.utf8.count else { return false }
        // Native strings are contiguous: compare their bytes directly, not through iterators.
        let matched = lhs.utf8.withContiguousStorageIfAvailable { left in
            rhs.utf8.withContiguousStorageIfAvailable { right in namesMatch(left, right) }
        }
        if let matched, let matched { return matched }
        return zip(lhs.utf8, rhs.utf8).allSatisfy { Self.lowercased($0) == Self.lowercased($1) }
    }

    /// ASCII case-insensitive comparison of two names' bytes.
    package static func namesMatch(_ lhs: UnsafeBufferPointer<UInt8>, _ rhs: UnsafeBufferPointer<UInt8>) -> Bool {
        guard lhs.count == rhs.count else { return false }
        for index in 0..<lhs.count where lhs[index] != rhs[index] {
            guard lowercased(lhs[index]) == lowercased(rhs[index]) else { return false }
        }
        return true
    }

    package static func lowercased(_ byte: UInt8) -> UInt8 {
        (byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z")) ? byte | 0x20 : byte
    }

    /// RFC 9110 §5.1 field names are tokens; §5.5 values are visible characters, spaces and
    /// tabs (and obs-text), so CR/LF/NUL and other controls are refused rather than sent.
    package static func validate(name: String, value: String?) throws {
        guard isToken(name) else {
            throw RequestSerializationError.invalidHeaderField(
                name: name, reason: name.isEmpty ? "the name is empty" : "the name is not an RFC 9110 token")
        }
        guard let value else { return }
        try validate(value: value, name: name)
    }

    /// Refuses a value with CR, LF, NUL or another control character other than tab, naming
    /// the field `name` in the error.
    package static func validate(value: String, name: String) throws {
        if let bad = value.utf8.first(where: { ($0 < 0x20 && $0 != 0x09) || $0 == 0x7F }) {
            let what: String
            switch bad {
            case 0x0D: what = "carriage return (CR)"
            case 0x0A: what = "line feed (LF)"
            case 0x00: what = "NUL"
            default: what = "control character 0x\(String(bad, radix: 16, uppercase: true))"
            }
            throw RequestSerializationError.invalidHeaderField(name: name, reason: "the value contains a \(what)")
        }
    }

    /// Whether `text` is an RFC 9110 token (`tchar`s, §5.6.2): what header names and
    /// methods must be.
    public static func isToken(_ text: String) -> Bool {
        !text.isEmpty && text.utf8.allSatisfy(isTokenByte)
    }

    /// Whether `byte` is an RFC 9110 `tchar`.
    package static func isTokenByte(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"): return true
        case UInt8(ascii: "!"), UInt8(ascii: "#"), UInt8(ascii: "$"), UInt8(ascii: "%"), UInt8(ascii: "&"), UInt8(ascii: "'"), UInt8(ascii: "*"),
             UInt8(ascii: "+"), UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "^"), UInt8(ascii: "_"), UInt8(ascii: "`"), UInt8(ascii: "|"),
             UInt8(ascii: "~"):
            return true
        default: return false
        }
    }

    /// Whether `byte` may stand in a field value: not a control character other than tab.
    package static func isValueByte(_ byte: UInt8) -> Bool {
        (byte >= 0x20 || byte == 0x09) && byte != 0x7F
    }
}

extension HTTPHeaderFields: Codable {
    /// Encoded as an ordered list of `{name, value}` objects, since order matters.
    public init(from decoder: any Decoder) throws {
        self.init()
        for field in try decoder.singleValueContainer().decode([Field].self) {
            try addValue(field.value, forHTTPHeaderField: field.name)
        }
    }

    /// Encodes the fields, in order, as a list of `{name, value}` objects.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(fields)
    }
}
