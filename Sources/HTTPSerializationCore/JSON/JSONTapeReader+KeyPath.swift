extension JSONTapeReader {
    /// Which value of a key an object repeats a key path takes: the one the output reading the
    /// whole document would keep (`Decodable`, as `JSONDecoder`: the first; a tree or `Any`
    /// graph, as `JSONSerialization`: the last).
    package enum RepeatedKey: Sendable {
        case first, last
    }

    /// The entry of the value at `keyPath`, reached by skipping every other value whole (one
    /// step per key or element passed, none inside them).
    package func entry(at keyPath: JSONKeyPath, repeatedKey: RepeatedKey) throws(JSONKeyPathError) -> Int {
        try resolve(keyPath, repeatedKey: repeatedKey).entry
    }

    /// ``entry(at:repeatedKey:)``, and the path with each key that indexed an array as the index it is.
    package func resolve(_ keyPath: JSONKeyPath, repeatedKey: RepeatedKey) throws(JSONKeyPathError) -> (entry: Int, path: JSONKeyPath) {
        var entry = 0
        var resolved = keyPath
        for (position, component) in keyPath.components.enumerated() {
            let reason: JSONKeyPathError.Reason
            switch kind(entry) {
            case .object:
                guard case .key(let key) = component else {
                    reason = .notAContainer(found: "an object")
                    break
                }
                if let value = valueEntry(ofKey: key, inObject: entry, repeatedKey: repeatedKey) {
                    entry = value
                    continue
                }
                reason = .keyNotFound(key)
            case .array:
                let count = length(entry)
                guard let index = JSONKeyPath.arrayIndex(component) else {
                    reason = .notAContainer(found: "an array")
                    break
                }
                guard index >= 0, index < count else {
                    reason = .indexOutOfRange(index, count: count)
                    break
                }
                var element = entry + 1
                for _ in 0..<index { element = next(element) }
                entry = element
                resolved.components[position] = .index(index)
                continue
            case .string: reason = .notAContainer(found: "a string")
            case .number: reason = .notAContainer(found: "a number")
            case .true, .false: reason = .notAContainer(found: "a boolean")
            case .null: reason = .notAContainer(found: "null")
            }
            throw JSONKeyPathError(keyPath: keyPath, found: position, reason: reason)
        }
        return (entry, resolved)
    }

    /// The entry of the value under `key` in the object at `object`, nil when it has none.
    private func valueEntry(ofKey key: String, inObject object: Int, repeatedKey: RepeatedKey) -> Int? {
        var bytes = key
        let isASCII = key.utf8.allSatisfy { $0 < 0x80 }
        return bytes.withUTF8 { wanted -> Int? in
            var found: Int?
            var entry = object + 1
            let end = offset(object)
            while entry < end {
                let flags = flags(entry)
                let matches: Bool
                if flags & JSONTape.hasEscapes == 0 && length(entry) == wanted.count
                    && Self.equal(base + offset(entry), wanted.baseAddress, count: wanted.count) {
                    matches = true
                } else if !isASCII || flags & (JSONTape.hasEscapes | JSONTape.hasNonASCII) != 0 {
                    // Escapes decoded, and Unicode's canonical equivalence as Swift (and so
                    // `JSONDecoder`'s key lookup) compares strings.
                    matches = string(entry) == key
                } else {
                    matches = false
                }
                if matches {
                    found = entry + 1
                    if repeatedKey == .first { break }
                }
                entry = next(entry + 1)
            }
            return found
        }
    }
}
