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

extension JSONTapeReader {
    /// The value at `root` as compact JSON text: every key (repeats too) in document order,
    /// strings and numbers exactly as written, whitespace left out. What another decoder
    /// reads the value from, so it sees what it would see in the whole document.
    package func jsonText(at root: Int) -> [UInt8] {
        var output: [UInt8] = []
        // Open containers: whether an object, how many items are left, whether one was written.
        var open: [(isObject: Bool, remaining: Int, wrote: Bool)] = []
        var entry = root
        func quoted(_ entry: Int) {
            output.append(UInt8(ascii: "\""))
            output.append(contentsOf: text(entry))
            output.append(UInt8(ascii: "\""))
        }
        while true {
            if let top = open.indices.last {
                if open[top].wrote { output.append(UInt8(ascii: ",")) }
                open[top].wrote = true
                open[top].remaining -= 1
                if open[top].isObject {
                    quoted(entry)
                    output.append(UInt8(ascii: ":"))
                    entry += 1
                }
            }
            switch kind(entry) {
            case .object, .array:
                let isObject = kind(entry) == .object
                output.append(isObject ? UInt8(ascii: "{") : UInt8(ascii: "["))
                open.append((isObject, length(entry), false))
            case .string: quoted(entry)
            case .number: output.append(contentsOf: text(entry))
            case .true: output.append(contentsOf: "true".utf8)
            case .false: output.append(contentsOf: "false".utf8)
            case .null: output.append(contentsOf: "null".utf8)
            }
            entry += 1
            while let top = open.last, top.remaining == 0 {
                output.append(top.isObject ? UInt8(ascii: "}") : UInt8(ascii: "]"))
                open.removeLast()
            }
            if open.isEmpty { return output }
        }
    }
}
