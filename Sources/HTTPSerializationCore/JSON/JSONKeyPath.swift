/// Where a value sits inside a JSON document: object keys and array indices from the top.
///
/// Read a response's payload out of its envelope without a wrapper model, as Moya's
/// `map(_:atKeyPath:)` does, and without building the rest of the document. Written as text,
/// components are separated by dots and an index may follow a key in brackets; a component
/// made only of digits is an array index when its container is an array and a key when it is
/// an object (so `"items.0"` and `"items[0]"` read the same array):
///
/// ```swift
/// let items: JSONKeyPath = "data.items"
/// let first: JSONKeyPath = "data.items[0].name"
/// let dotted = JSONKeyPath([.key("a.b"), .index(2)])  // a key holding a dot
/// ```
///
/// Keys match the document's keys as written, before any key decoding strategy. An empty
/// path is the whole document.
public struct JSONKeyPath: Sendable, Hashable, CustomStringConvertible, ExpressibleByStringLiteral {
    /// One step into a container.
    public enum Component: Sendable, Hashable {
        /// The value under this key of an object; a key of ASCII digits also indexes an array.
        case key(String)
        /// The element at this zero-based position of an array.
        case index(Int)
    }

    /// The steps from the top of the document, outermost first.
    public var components: [Component]

    /// A path of the given steps, for keys that hold a `.` or `[`.
    public init(_ components: [Component]) {
        self.components = components
    }

    /// A path written as `"data.items[0].name"`.
    ///
    /// Text that is not a path (an empty key, `[` without a closing `]` or with something
    /// other than digits inside) is read as far as it can be: the bracket and what follows
    /// stay part of the key, so no text is refused and none is lost.
    public init(_ text: String) {
        components = Self.parse(text)
    }

    /// A path from a string literal: `"data.items"`.
    public init(stringLiteral value: String) {
        self.init(value)
    }

    /// The path as text: keys joined by dots, indices in brackets; it reads back to the same
    /// path unless a key holds a `.` or ends in `[digits]`, or the path is one empty key.
    public var description: String {
        var text = ""
        for (position, component) in components.enumerated() {
            switch component {
            case .key(let key):
                if position > 0 { text += "." }
                text += key
            case .index(let index):
                text += "[\(index)]"
            }
        }
        return text
    }

    /// The index a component gives in an array: an index, or a key of ASCII digits (`Int.max`
    /// past it, so it is out of range rather than not an index).
    package static func arrayIndex(_ component: Component) -> Int? {
        switch component {
        case .index(let index): return index
        case .key(let key): return digits(Substring(key))
        }
    }

    /// The number ASCII digits spell, `Int.max` when it does not fit; nil for anything else.
    private static func digits(_ text: Substring) -> Int? {
        guard !text.isEmpty, text.utf8.allSatisfy({ $0 &- UInt8(ascii: "0") < 10 }) else { return nil }
        return Int(text) ?? Int.max
    }

    private static func parse(_ text: String) -> [Component] {
        var components: [Component] = []
        for segment in text.split(separator: ".", omittingEmptySubsequences: false) where !(segment.isEmpty && text.isEmpty) {
            // Trailing `[n]` groups are indices; anything else stays in the key.
            var key = Substring(segment)
            var indices: [Int] = []
            while key.hasSuffix("]"), let open = key.lastIndex(of: "[") {
                let digits = key[key.index(after: open)..<key.index(before: key.endIndex)]
                guard let index = Self.digits(digits) else { break }
                indices.insert(index, at: 0)
                key = key[..<open]
            }
            if !key.isEmpty || indices.isEmpty { components.append(.key(String(key))) }
            components.append(contentsOf: indices.map(Component.index))
        }
        return components
    }
}
