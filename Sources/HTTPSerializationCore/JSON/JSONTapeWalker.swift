/// How one kind of value is built from a tape: scalars, and containers from their values.
///
/// ``JSONTapeReader/build(with:)`` does the walking, so every output of the reader shares one
/// traversal, iterative at any depth.
@usableFromInline package protocol JSONTapeBuilding {
    associatedtype Value
    associatedtype ArrayBuffer
    associatedtype ObjectBuffer
    /// A template for objects that have the same keys in the same order (see
    /// ``JSONObjectShapes``); `Never` where the builder keeps none.
    associatedtype ObjectShape = Never
    /// Where one of a template's keys sits; plain data, so reading one retains nothing.
    associatedtype ObjectSlot = Never

    /// Whether nulls inside containers are left out (AFNetworking's null removal).
    var removesNulls: Bool { get }

    /// The value of a string, number, boolean or null entry.
    func scalar(_ entry: Int, in tape: JSONTapeReader) -> Value
    func makeArray(capacity: Int) -> ArrayBuffer
    func makeObject(capacity: Int) -> ObjectBuffer
    /// Adds `value` to `array`; it is handed over, so storing it costs no copy.
    func append(_ value: consuming Value, to array: inout ArrayBuffer)
    func insert(_ value: consuming Value, forKey key: String, into object: inout ObjectBuffer)
    /// Removes the value of `key`, as a null that comes later under the same key does when
    /// ``removesNulls`` is on: the last of duplicate keys wins, and a null that wins is removed.
    func removeValue(forKey key: String, from object: inout ObjectBuffer)
    func finish(_ array: ArrayBuffer) -> Value
    func finish(_ object: ObjectBuffer) -> Value

    /// A template for objects with exactly `keys`, in this order (a key may repeat), and the
    /// slot of each key, or nil where the builder keeps none.
    func makeShape(keys: [String]) -> (template: ObjectShape, slots: [ObjectSlot])?
    /// An object with the template's keys; the walker then sets each of its slots once (a key
    /// that repeats has one index for all its slots, so the last value set stays).
    func makeObject(shape: ObjectShape) -> ObjectBuffer
    /// Sets the value in `slot` of an object made from a template.
    func set(_ value: consuming Value, at slot: ObjectSlot, in object: inout ObjectBuffer)
}

extension JSONTapeBuilding where ObjectShape == Never, ObjectSlot == Never {
    @inlinable package func makeShape(keys: [String]) -> (template: Never, slots: [Never])? { nil }
    @inlinable package func makeObject(shape: Never) -> ObjectBuffer {}
    @inlinable package func set(_ value: consuming Value, at slot: Never, in object: inout ObjectBuffer) {}
}

extension JSONTapeReader {
    /// Builds the value at `root` (the whole document by default) with a stack of open
    /// containers: no recursion.
    @inlinable package func build<Builder: JSONTapeBuilding>(with builder: Builder, from root: Int = 0) -> Builder.Value {
        // Open containers, innermost last. Arrays and objects keep their buffers on stacks of
        // their own (mutated in place), and `frames` says which is which and how many values
        // each still expects. An object built from a shape sets its values through the shape's
        // slots (`slot` counts up from its first) and makes no key; any other (`slot < 0`)
        // collects its keys in `keys`.
        var frames: [(isObject: Bool, remaining: Int)] = []
        var arrays: [Builder.ArrayBuffer] = []
        var objects: [(buffer: Builder.ObjectBuffer, slot: Int)] = []
        var keys: [String] = []
        var shapes = JSONObjectShapes<Builder.ObjectShape, Builder.ObjectSlot>()

        /// Removes the innermost container, which is full, and returns it as a value.
        func close() -> Builder.Value {
            if frames.removeLast().isObject {
                keys.removeLast()
                return builder.finish(objects.removeLast().buffer)
            }
            return builder.finish(arrays.removeLast())
        }

        var entry = root
        while true {
            // An object's next value follows its key.
            if let top = frames.last, top.isObject {
                if objects[objects.count - 1].slot < 0 { keys[keys.count - 1] = string(entry) }
                entry += 1
            }
            var value: Builder.Value
            let kind = kind(entry)
            switch kind {
            case .object, .array:
                let count = length(entry)
                if count > 0 {
                    if kind == .object {
                        let shape = shapes.shape(ofObject: entry, depth: frames.count, in: self, removingNulls: builder.removesNulls) {
                            builder.makeShape(keys: $0)
                        }
                        if let shape {
                            objects.append((builder.makeObject(shape: shape.template), shape.firstSlot))
                        } else {
                            objects.append((builder.makeObject(capacity: count), -1))
                        }
                        keys.append("")
                    } else {
                        arrays.append(builder.makeArray(capacity: count))
                    }
                    entry += 1
                    frames.append((kind == .object, count))
                    continue
                }
                entry += 1
                value = kind == .object ? builder.finish(builder.makeObject(capacity: 0)) : builder.finish(builder.makeArray(capacity: 0))
            case .null where builder.removesNulls && !frames.isEmpty:
                entry += 1
                // Shaped objects hold no nulls under null removal, so this one has its key.
                if frames[frames.count - 1].isObject {
                    builder.removeValue(forKey: keys[keys.count - 1], from: &objects[objects.count - 1].buffer)
                }
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
                    let last = objects.count - 1
                    let slot = objects[last].slot
                    if slot >= 0 {
                        builder.set(consume value, at: shapes.slots[slot], in: &objects[last].buffer)
                        objects[last].slot = slot + 1
                    } else {
                        builder.insert(consume value, forKey: keys[keys.count - 1], into: &objects[last].buffer)
                    }
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
