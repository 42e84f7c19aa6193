import HTTPSerialization

/// A nested field name as HTTPie's JSON items write it: `a[b][]` is key `a`, key `b`, append;
/// `[0]` at the start makes the body an array; `\[` is a literal bracket. Other body styles
/// take names as written.
enum FieldPath {
    enum Segment: Equatable {
        case key(String)
        case index(Int)
        case append
    }

    /// Deeper names are refused: the tree is built recursively, and the serializers refuse
    /// deeper parameters anyway.
    static let maximumDepth = ParameterValue.defaultMaximumDepth
    /// The largest array index a name may use, so one short item cannot allocate millions of
    /// elements.
    static let maximumIndex = 10_000

    static func parse(_ name: String) throws -> [Segment] {
        var segments: [Segment] = []
        var characters = Substring(name)
        // The part before the first unescaped bracket is a key, unless it is empty and a
        // bracket follows (a top-level array).
        let head = takeKey(&characters)
        if !head.isEmpty || characters.isEmpty { segments.append(.key(head)) }
        while let first = characters.first {
            guard first == "[", let close = closingBracket(in: characters) else {
                throw RequestItemError(description: "\"\(name)\" has an unbalanced bracket")
            }
            let inner = unescape(characters[characters.index(after: characters.startIndex)..<close])
            if inner.isEmpty {
                segments.append(.append)
            } else if inner.allSatisfy(\.isASCII), inner.allSatisfy(\.isNumber), let index = Int(inner) {
                guard index <= maximumIndex else {
                    throw RequestItemError(description: "\"\(name)\": index \(index) is larger than \(maximumIndex)")
                }
                segments.append(.index(index))
            } else {
                segments.append(.key(inner))
            }
            characters = characters[characters.index(after: close)...]
            guard segments.count <= maximumDepth else {
                throw RequestItemError(description: "\"\(name.prefix(40))…\" nests deeper than \(maximumDepth) levels")
            }
        }
        return segments
    }

    private static func takeKey(_ characters: inout Substring) -> String {
        var key = ""
        while let character = characters.first {
            if character == "\\", let next = characters.dropFirst().first, next == "[" || next == "]" {
                key.append(next)
                characters = characters.dropFirst(2)
                continue
            }
            if character == "[" { break }
            key.append(character)
            characters = characters.dropFirst()
        }
        return key
    }

    private static func closingBracket(in characters: Substring) -> Substring.Index? {
        var index = characters.index(after: characters.startIndex)
        while index < characters.endIndex {
            switch characters[index] {
            case "\\":
                index = characters.index(after: index)
                if index < characters.endIndex { index = characters.index(after: index) }
                continue
            case "]":
                return index
            case "[":
                return nil
            default:
                break
            }
            index = characters.index(after: index)
        }
        return nil
    }

    private static func unescape(_ text: Substring) -> String {
        var result = ""
        var rest = text
        while let character = rest.first {
            if character == "\\", let next = rest.dropFirst().first, next == "[" || next == "]" {
                result.append(next)
                rest = rest.dropFirst(2)
            } else {
                result.append(character)
                rest = rest.dropFirst()
            }
        }
        return result
    }
}

/// The body of JSON (and property-list) items: values placed at their nested names, in item
/// order, a repeated plain name keeping its last value as HTTPie does.
struct ParameterTree {
    private(set) var root: ParameterValue?

    mutating func insert(_ value: ParameterValue, at name: String) throws {
        let path = try FieldPath.parse(name)
        root = try Self.insert(value, at: path[...], into: root ?? Self.emptyContainer(for: path.first), name: name)
    }

    private static func insert(
        _ value: ParameterValue, at path: ArraySlice<FieldPath.Segment>, into container: ParameterValue, name: String
    ) throws -> ParameterValue {
        guard let segment = path.first else { return value }
        let rest = path.dropFirst()
        switch (segment, container) {
        case (.key(let key), .dictionary(var entries)):
            entries[key] = try insert(value, at: rest, into: entries[key] ?? emptyContainer(for: rest.first), name: name)
            return .dictionary(entries)
        case (.append, .array(var elements)):
            elements.append(try insert(value, at: rest, into: emptyContainer(for: rest.first), name: name))
            return .array(elements)
        case (.index(let index), .array(var elements)):
            while elements.count <= index { elements.append(.null) }
            let current = elements[index] == .null ? emptyContainer(for: rest.first) : elements[index]
            elements[index] = try insert(value, at: rest, into: current, name: name)
            return .array(elements)
        default:
            throw RequestItemError(description: "\"\(name)\" uses as \(segment.kind) a place that already holds \(container.kind)")
        }
    }

    private static func emptyContainer(for next: FieldPath.Segment?) -> ParameterValue {
        switch next {
        case .append?, .index?: return .array([])
        default: return .dictionary([:])
        }
    }
}

private extension FieldPath.Segment {
    var kind: String {
        switch self {
        case .key: return "an object"
        case .index, .append: return "an array"
        }
    }
}

private extension ParameterValue {
    var kind: String {
        switch self {
        case .dictionary: return "an object"
        case .array, .set: return "an array"
        default: return "a value"
        }
    }
}
