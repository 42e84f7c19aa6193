import Foundation
import HTTPSerialization

/// One HTTPie-style request item from the command line.
enum RequestItem: Equatable {
    /// `Header:value`
    case header(name: String, value: String)
    /// `name==value`: appended to the URL query.
    case query(name: String, value: String)
    /// `name=value`: a string field.
    case field(path: [FieldPathSegment], value: String)
    /// `name:=json`: a raw JSON value.
    case jsonField(path: [FieldPathSegment], json: String)
    /// `field@path[;type=mime]`: a file to upload.
    case file(name: String, path: String, mimeType: String?)
}

/// A step of a nested field name: `a[b][]` is key `a`, key `b`, append.
enum FieldPathSegment: Equatable {
    case key(String)
    case index(Int)
    case append
}

struct RequestItemError: Error, CustomStringConvertible {
    var description: String
}

enum RequestItems {
    /// Separators, longest first so `:=` wins over `:` and `==` over `=`.
    private static let separators = [":=", "==", "=", "@", ":"]

    /// Parses one item, choosing the separator that appears first (the longest at a tie).
    static func parse(_ text: String) throws -> RequestItem {
        var best: (range: Range<String.Index>, separator: String)?
        for separator in separators {
            guard let range = text.range(of: separator) else { continue }
            if best == nil || range.lowerBound < best!.range.lowerBound {
                best = (range, separator)
            }
        }
        guard let (range, separator) = best, range.lowerBound != text.startIndex else {
            throw RequestItemError(description: "\"\(text)\" is not a request item (name=value, name:=json, name==query, Header:value or field@file)")
        }
        let name = String(text[..<range.lowerBound])
        let value = String(text[range.upperBound...])
        switch separator {
        case ":":
            guard HTTPHeaderFields.isToken(name) else { throw RequestItemError(description: "\"\(name)\" is not a valid header name") }
            return .header(name: name, value: value.hasPrefix(" ") ? String(value.dropFirst()) : value)
        case "==":
            return .query(name: name, value: value)
        case "=":
            return .field(path: try fieldPath(name), value: value)
        case ":=":
            return .jsonField(path: try fieldPath(name), json: value)
        default:
            var path = value
            var mimeType: String?
            if let typeRange = value.range(of: ";type=") {
                path = String(value[..<typeRange.lowerBound])
                mimeType = String(value[typeRange.upperBound...])
            }
            return .file(name: name, path: path, mimeType: mimeType)
        }
    }

    /// `a[b][]` ⇒ [.key("a"), .key("b"), .append]; `a[0]` ⇒ [.key("a"), .index(0)].
    static func fieldPath(_ name: String) throws -> [FieldPathSegment] {
        guard let open = name.firstIndex(of: "[") else { return [.key(name)] }
        var segments: [FieldPathSegment] = [.key(String(name[..<open]))]
        var rest = name[open...]
        while !rest.isEmpty {
            guard rest.first == "[", let close = rest.firstIndex(of: "]") else {
                throw RequestItemError(description: "\"\(name)\" has an unbalanced bracket")
            }
            let inner = String(rest[rest.index(after: rest.startIndex)..<close])
            if inner.isEmpty {
                segments.append(.append)
            } else if let index = Int(inner), index >= 0 {
                segments.append(.index(index))
            } else {
                segments.append(.key(inner))
            }
            rest = rest[rest.index(after: close)...]
        }
        return segments
    }

    /// Builds the parameter tree the data items describe.
    static func parameters(from items: [RequestItem]) throws -> ParameterValue? {
        var root: ParameterValue?
        for item in items {
            let (path, value): ([FieldPathSegment], ParameterValue)
            switch item {
            case .field(let itemPath, let text):
                (path, value) = (itemPath, .string(text))
            case .jsonField(let itemPath, let json):
                guard let object = try? JSONSerialization.jsonObject(with: Data(json.utf8), options: .fragmentsAllowed) else {
                    throw RequestItemError(description: "\(json) is not valid JSON")
                }
                (path, value) = (itemPath, try ParameterValue(any: object))
            default:
                continue
            }
            root = try insert(value, at: path[...], into: root ?? .dictionary([:]))
        }
        return root
    }

    private static func insert(_ value: ParameterValue, at path: ArraySlice<FieldPathSegment>, into container: ParameterValue) throws -> ParameterValue {
        guard let segment = path.first else { return value }
        let rest = path.dropFirst()
        switch (segment, container) {
        case (.key(let key), .dictionary(var entries)):
            entries[key] = try insert(value, at: rest, into: entries[key] ?? emptyContainer(for: rest.first))
            return .dictionary(entries)
        case (.append, .array(var elements)):
            elements.append(try insert(value, at: rest, into: emptyContainer(for: rest.first)))
            return .array(elements)
        case (.index(let index), .array(var elements)):
            while elements.count <= index { elements.append(.null) }
            let current = elements[index] == .null ? emptyContainer(for: rest.first) : elements[index]
            elements[index] = try insert(value, at: rest, into: current)
            return .array(elements)
        default:
            throw RequestItemError(description: "a field name mixes an object and an array at the same place")
        }
    }

    private static func emptyContainer(for next: FieldPathSegment?) -> ParameterValue {
        switch next {
        case .append?, .index?: return .array([])
        default: return .dictionary([:])
        }
    }
}
