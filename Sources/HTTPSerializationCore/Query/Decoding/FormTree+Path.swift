extension FormTree {
    /// The path a field names: its top-level key, then bracketed (or dotted) keys, `[]`, and
    /// under indexed arrays (and brackets that index containers) `[N]`. A field that does not parse as a path is one key.
    package static func components(of field: String, style: QueryStringStyle, limit: Int, into path: inout [Component]) throws(FormDecodingError) {
        path.removeAll(keepingCapacity: true)
        let dotted = style.keyEncoding == .dotted
        var text = field
        let whole = try text.withUTF8 { bytes in
            Result { () throws(FormDecodingError) in try split(bytes, field: field, dotted: dotted, style: style, limit: limit, into: &path) }
        }.get()
        if whole {
            path.removeAll(keepingCapacity: true)
            path.append(.key(field))
        }
        if path.count > limit { throw .nestedTooDeep(key: field, limit: limit) }
    }

    /// Splits `bytes` into `path`; true when the field is one key as a whole.
    private static func split(
        _ bytes: UnsafeBufferPointer<UInt8>, field: String, dotted: Bool, style: QueryStringStyle, limit: Int, into path: inout [Component]
    ) throws(FormDecodingError) -> Bool {
        let count = bytes.count
        var index = 0
        while index < count, bytes[index] != UInt8(ascii: "["), !(dotted && bytes[index] == UInt8(ascii: ".")) { index += 1 }
        // A plain key, or one that starts with a bracket, is one key: the field itself.
        guard index < count, index > 0 else { return true }
        path.append(.key(String(decoding: UnsafeBufferPointer(rebasing: bytes[..<index]), as: UTF8.self)))
        while index < count {
            guard path.count < limit else { throw .nestedTooDeep(key: field, limit: limit) }
            if bytes[index] == UInt8(ascii: ".") {
                var end = index + 1
                while end < count, bytes[end] != UInt8(ascii: "."), bytes[end] != UInt8(ascii: "[") { end += 1 }
                guard end > index + 1 else { return true }
                path.append(.key(String(decoding: UnsafeBufferPointer(rebasing: bytes[(index + 1)..<end]), as: UTF8.self)))
                index = end
                continue
            }
            // `[`: read to its `]`.
            var close = index + 1
            while close < count, bytes[close] != UInt8(ascii: "]") { close += 1 }
            guard close < count else { return true }
            let content = UnsafeBufferPointer(rebasing: bytes[(index + 1)..<close])
            if content.isEmpty {
                path.append(.append)
            } else if style.arrayEncoding.readsIndices, let position = Self.index(content, maximumDigits: 9) {
                // An index as PHP writes one; `007` stays a name, as PHP keeps it.
                path.append(.index(position))
            } else {
                path.append(.key(String(decoding: content, as: UTF8.self)))
            }
            index = close + 1
            if index < count, bytes[index] != UInt8(ascii: "["), !(dotted && bytes[index] == UInt8(ascii: ".")) { return true }
        }
        return false
    }
}

extension QueryStringStyle.ArrayEncoding {
    /// Whether `[N]` is an index and `[]` the next one, as PHP reads both: the encodings that
    /// write indices.
    package var readsIndices: Bool { self == .indexed || self == .bracketsIndexingContainers }
}
