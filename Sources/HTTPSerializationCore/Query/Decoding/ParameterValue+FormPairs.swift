extension ParameterValue {
    /// The parameter tree that form pairs spell, the inverse of ``QueryStringStyle``'s
    /// flattening: `a[b][c]=1` (or `a.b.c=1` with ``QueryStringStyle/KeyEncoding/dotted``
    /// keys) a dictionary, `a[]=1&a[]=2` and repeated keys an array, `a[0]=1` an array by
    /// index under ``QueryStringStyle/ArrayEncoding/indexed``. Values stay the strings they
    /// were sent as, and a bare key is `.null`; a typed model reads them with `FormDecoder`.
    ///
    /// ```swift
    /// let pairs = try FormPairs.parse("user[name]=Ann&user[tags][]=a&user[tags][]=b")
    /// try ParameterValue(formPairs: pairs)   // ["user": ["name": "Ann", "tags": ["a", "b"]]]
    /// ```
    ///
    /// Under ``QueryStringStyle/ArrayEncoding/brackets``, `a[][x]=1&a[][y]=2` is one
    /// element with both keys and a key seen again starts the next, as Rails reads it.
    ///
    /// - Parameters:
    ///   - pairs: the pairs in the order they were sent.
    ///   - style: the key and array encodings the pairs were written with.
    ///   - limits: the deepest key accepted.
    /// - Throws: ``FormDecodingError/nestedTooDeep(key:limit:)`` or
    ///   ``FormDecodingError/conflictingKeys(_:)``.
    public init(formPairs pairs: [QueryStringPair], style: QueryStringStyle = .afNetworking, limits: FormDecodingLimits = FormDecodingLimits()) throws(FormDecodingError) {
        let root = FormNode()
        root.kind = .dictionary
        var path: [FormNode.Component] = []
        for pair in pairs {
            try FormNode.components(of: pair.field, style: style, limit: limits.maximumDepth, into: &path)
            try root.insert(pair.value, at: path[...], field: pair.field)
        }
        self = root.value
    }
}

/// A tree being built from form pairs, each node becoming what its keys say it is.
package final class FormNode {
    enum Kind {
        case empty, leaf(ParameterValue), dictionary, array, indexed
    }

    package enum Component {
        case key(String)
        case append
        case index(Int)
    }

    var kind = Kind.empty
    private var children: [String: FormNode] = [:]
    private var elements: [FormNode] = []
    private var indexed: [Int: FormNode] = [:]

    /// The path a field names: its top-level key, then bracketed (or dotted) keys, `[]`, and
    /// under indexed arrays `[N]`. A field that does not parse as a path is one key.
    package static func components(of field: String, style: QueryStringStyle, limit: Int, into path: inout [Component]) throws(FormDecodingError) {
        path.removeAll(keepingCapacity: true)
        let bytes = Array(field.utf8)
        let dotted = style.keyEncoding == .dotted
        var index = 0
        var name: [UInt8] = []
        while index < bytes.count, bytes[index] != UInt8(ascii: "["), !(dotted && bytes[index] == UInt8(ascii: ".")) {
            name.append(bytes[index])
            index += 1
        }
        guard !name.isEmpty || index == bytes.count else {
            path = [.key(field)]
            return
        }
        path.append(.key(String(decoding: name, as: UTF8.self)))
        while index < bytes.count {
            guard path.count < limit else { throw .nestedTooDeep(key: field, limit: limit) }
            if bytes[index] == UInt8(ascii: ".") {
                var end = index + 1
                while end < bytes.count, bytes[end] != UInt8(ascii: "."), bytes[end] != UInt8(ascii: "[") { end += 1 }
                guard end > index + 1 else {
                    path = [.key(field)]
                    return
                }
                path.append(.key(String(decoding: bytes[(index + 1)..<end], as: UTF8.self)))
                index = end
                continue
            }
            // `[`: read to its `]`.
            guard let close = bytes[index...].firstIndex(of: UInt8(ascii: "]")) else {
                path = [.key(field)]
                return
            }
            let content = bytes[(index + 1)..<close]
            if content.isEmpty {
                path.append(.append)
            } else if style.arrayEncoding == .indexed, content.count <= 9, content.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }) {
                path.append(.index(content.reduce(0) { $0 * 10 + Int($1 - 0x30) }))
            } else {
                path.append(.key(String(decoding: content, as: UTF8.self)))
            }
            index = close + 1
            if index < bytes.count, bytes[index] != UInt8(ascii: "["), !(dotted && bytes[index] == UInt8(ascii: ".")) {
                path = [.key(field)]
                return
            }
        }
        if path.count > limit { throw .nestedTooDeep(key: field, limit: limit) }
    }

    func insert(_ value: ParameterValue, at path: ArraySlice<Component>, field: String) throws(FormDecodingError) {
        guard let first = path.first else {
            switch kind {
            case .empty:
                kind = .leaf(value)
            case .leaf(let earlier):
                // A repeated key: its values make a list.
                kind = .array
                elements = [FormNode(leaf: earlier), FormNode(leaf: value)]
            case .array:
                elements.append(FormNode(leaf: value))
            case .dictionary, .indexed:
                throw .conflictingKeys(field)
            }
            return
        }
        let rest = path.dropFirst()
        switch first {
        case .key(let key):
            try become(.dictionary, field)
            let child = children[key] ?? FormNode()
            children[key] = child
            try child.insert(value, at: rest, field: field)
        case .append:
            try become(.array, field)
            if case .key(let next)? = rest.first, let last = elements.last, last.accepts(key: next) {
                try last.insert(value, at: rest, field: field)
            } else {
                let child = FormNode()
                elements.append(child)
                try child.insert(value, at: rest, field: field)
            }
        case .index(let position):
            try become(.indexed, field)
            let child = indexed[position] ?? FormNode()
            indexed[position] = child
            try child.insert(value, at: rest, field: field)
        }
    }

    /// Whether a `[]` element may take `key` too, rather than start the next element.
    private func accepts(key: String) -> Bool {
        if case .dictionary = kind { return children[key] == nil }
        return false
    }

    private func become(_ wanted: Kind, _ field: String) throws(FormDecodingError) {
        switch (kind, wanted) {
        case (.empty, _): kind = wanted
        case (.dictionary, .dictionary), (.array, .array), (.indexed, .indexed): break
        default: throw .conflictingKeys(field)
        }
    }

    private convenience init(leaf: ParameterValue) {
        self.init()
        kind = .leaf(leaf)
    }

    var value: ParameterValue {
        switch kind {
        case .empty: return .null
        case .leaf(let value): return value
        case .dictionary: return .dictionary(ParameterDictionary(children.mapValues(\.value)))
        case .array: return .array(elements.map(\.value))
        case .indexed: return .array(indexed.sorted { $0.key < $1.key }.map(\.value.value))
        }
    }
}
