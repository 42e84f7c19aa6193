/// How one kind of value is built from a tape: scalars, and containers from their values.
///
/// ``JSONTapeReader/build(with:)`` does the walking, so every output of the reader shares one
/// traversal, iterative at any depth.
@usableFromInline package protocol JSONTapeBuilding {
    associatedtype Value
    associatedtype ArrayBuffer
    associatedtype ObjectBuffer

    /// Whether nulls inside containers are left out (AFNetworking's null removal).
    var removesNulls: Bool { get }

    /// The value of a string, number, boolean or null entry.
    func scalar(_ entry: Int, in tape: JSONTapeReader) -> Value
    func makeArray(capacity: Int) -> ArrayBuffer
    func makeObject(capacity: Int) -> ObjectBuffer
    /// Adds `value` to `array`; it is handed over, so storing it costs no copy.
    func append(_ value: consuming Value, to array: inout ArrayBuffer)
    func insert(_ value: consuming Value, forKey key: String, into object: inout ObjectBuffer)
    func finish(_ array: ArrayBuffer) -> Value
    func finish(_ object: ObjectBuffer) -> Value
}

extension JSONTapeReader {
    /// Builds the document's value with a stack of open containers: no recursion.
    @inlinable package func build<Builder: JSONTapeBuilding>(with builder: Builder) -> Builder.Value {
        // Open containers, innermost last. Arrays and objects keep their buffers on stacks of
        // their own (mutated in place), and `frames` says which is which and how many values
        // each still expects.
        var frames: [(isObject: Bool, remaining: Int)] = []
        var arrays: [Builder.ArrayBuffer] = []
        var objects: [Builder.ObjectBuffer] = []
        var keys: [String] = []

        /// Removes the innermost container, which is full, and returns it as a value.
        func close() -> Builder.Value {
            if frames.removeLast().isObject {
                keys.removeLast()
                return builder.finish(objects.removeLast())
            }
            return builder.finish(arrays.removeLast())
        }

        var entry = 0
        while true {
            // An object's next value follows its key.
            if let top = frames.last, top.isObject {
                keys[keys.count - 1] = string(entry)
                entry += 1
            }
            var value: Builder.Value
            let kind = kind(entry)
            switch kind {
            case .object, .array:
                let count = length(entry)
                entry += 1
                if count > 0 {
                    if kind == .object {
                        objects.append(builder.makeObject(capacity: count))
                        keys.append("")
                    } else {
                        arrays.append(builder.makeArray(capacity: count))
                    }
                    frames.append((kind == .object, count))
                    continue
                }
                value = kind == .object ? builder.finish(builder.makeObject(capacity: 0)) : builder.finish(builder.makeArray(capacity: 0))
            case .null where builder.removesNulls && !frames.isEmpty:
                entry += 1
                // Left out of its container, which still counts it.
                frames[frames.count - 1].remaining -= 1
                guard frames[frames.count - 1].remaining == 0 else { continue }
                value = close()
            default:
                value = builder.scalar(entry, in: self)
                entry += 1
            }
            // Hand the value over to its container; a container that is now full is a value too.
            while true {
                guard let top = frames.indices.last else { return value }
                if frames[top].isObject {
                    builder.insert(consume value, forKey: keys[keys.count - 1], into: &objects[objects.count - 1])
                } else {
                    builder.append(consume value, to: &arrays[arrays.count - 1])
                }
                frames[top].remaining -= 1
                if frames[top].remaining > 0 { break }
                value = close()
            }
        }
    }
}
