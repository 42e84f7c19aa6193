#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import HTTPSerializationCore

/// A form's values as the decoder reads them: text, null, lists, keyed values, and files.
indirect enum FormDecodingNode {
    case text(String)
    case null
    case list([FormDecodingNode])
    case keyed([String: FormDecodingNode])
    case file(MultipartFile)

    init(_ value: ParameterValue) {
        switch value {
        case .null: self = .null
        case .array(let elements): self = .list(elements.map(FormDecodingNode.init))
        case .set(let elements): self = .list(elements.map(FormDecodingNode.init))
        case .dictionary(let entries): self = .keyed(Dictionary(uniqueKeysWithValues: entries.map { ($0.key, FormDecodingNode($0.value)) }))
        case .string(let text): self = .text(text)
        case .int(let value): self = .text(String(value))
        case .double(let value): self = .text(String(value))
        case .decimal(let value): self = .text(value.description)
        case .bool(let value): self = .text(value ? "true" : "false")
        case .date(let date): self = .text(String(date.timeIntervalSince1970))
        case .data(let data): self = .text(data.base64EncodedString())
        }
    }

    /// Puts a file where its field name points (`photo`, `photos[]`, `album[cover]`); a name
    /// given twice makes a list.
    mutating func insert(_ file: MultipartFile, named name: String, style: QueryStringStyle, limits: FormDecodingLimits) throws(FormDecodingError) {
        var path: [FormNode.Component] = []
        try FormNode.components(of: name, style: style, limit: limits.maximumDepth, into: &path)
        try insert(file, at: path[...], name: name)
    }

    private mutating func insert(_ file: MultipartFile, at path: ArraySlice<FormNode.Component>, name: String) throws(FormDecodingError) {
        guard let first = path.first else {
            switch self {
            case .null: self = .file(file)
            case .file, .text: self = .list([self, .file(file)])
            case .list(var elements):
                elements.append(.file(file))
                self = .list(elements)
            case .keyed: throw .conflictingKeys(name)
            }
            return
        }
        switch (first, self) {
        case (.key(let key), .keyed(var entries)):
            var child = entries[key] ?? .null
            try child.insert(file, at: path.dropFirst(), name: name)
            entries[key] = child
            self = .keyed(entries)
        case (.key, .null):
            self = .keyed([:])
            try insert(file, at: path, name: name)
        case (.append, .null), (.index, .null):
            self = .list([])
            try insert(file, at: path, name: name)
        case (.append, .list(var elements)):
            var child = FormDecodingNode.null
            try child.insert(file, at: path.dropFirst(), name: name)
            elements.append(child)
            self = .list(elements)
        case (.index(let position), .list(var elements)):
            if position < elements.count {
                try elements[position].insert(file, at: path.dropFirst(), name: name)
            } else {
                var child = FormDecodingNode.null
                try child.insert(file, at: path.dropFirst(), name: name)
                elements.append(child)
            }
            self = .list(elements)
        default:
            throw .conflictingKeys(name)
        }
    }
}
