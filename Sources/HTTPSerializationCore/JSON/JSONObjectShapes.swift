/// The object shapes of one document: when an object has the same keys, in the same order,
/// as one met before, it is built from a template instead of key by key.
///
/// Arrays of records are the common JSON document, and each record's keys cost a `String`
/// and a hash per key to insert. A template (the builder's ``JSONTapeBuilding/ObjectShape``)
/// holds the keys already placed, so a record copies it and sets its values by position,
/// with no key made and none hashed. This is JavaScript engines' technique for `JSON.parse`
/// (an object's "shape" or "hidden class"), kept to one document.
///
/// A shape is made on the second sighting of a key sequence, so a document of unlike
/// objects pays only the signature pass over each object's keys. Keys are compared as raw
/// text: text that differs but decodes the same (an escaped key) only misses the template.
@usableFromInline package struct JSONObjectShapes<Template, Slot> {
    /// One line of the table: the last object seen with a signature, and its shape if made.
    @usableFromInline struct Line {
        @usableFromInline var signature: UInt64
        /// The object's tape entry, or -1 for an empty line.
        @usableFromInline var exemplar: Int
        /// An index into `templates`, or -1 before the shape is made.
        @usableFromInline var shape: Int

        @inlinable init(signature: UInt64, exemplar: Int, shape: Int) {
            self.signature = signature
            self.exemplar = exemplar
            self.shape = shape
        }
    }

    @usableFromInline var lines: [Line] = []
    @usableFromInline var templates: [Template] = []
    /// Each template's object (whose keys it has), key count, and first slot in `slots`.
    @usableFromInline var made: [(exemplar: Int, count: Int, firstSlot: Int)] = []
    /// The shape last used at each depth: the next object at that depth is tried against it
    /// first, which in an array of records skips the signature pass.
    @usableFromInline var lastAtDepth: [Int] = []
    /// Every template's slots, one after another, so a shaped object's next slot is one index on.
    @usableFromInline package private(set) var slots: [Slot] = []
    /// Set when the builder made no shape: it keeps none, so it is not asked again.
    @usableFromInline var declined = false

    /// Lines in the table (a power of two); made at the first object that could use one.
    @inlinable static var lineCount: Int { 64 }
    /// Larger objects are built key by key: records this wide are rare, and they seldom repeat.
    @inlinable static var maximumKeys: Int { 64 }

    @inlinable package init() {}

    /// The template to build the object at `entry`, of `count` keys and `depth` containers
    /// deep, from, and the index in ``slots`` of its first key's slot; nil to build it key by
    /// key.
    ///
    /// With `removingNulls`, an object with a null value is built key by key, so a shaped
    /// object sets every one of its slots.
    @inlinable package mutating func shape(
        ofObject entry: Int, count: Int, depth: Int, in tape: JSONTapeReader, removingNulls: Bool,
        make: ([String]) -> (template: Template, slots: [Slot])?
    ) -> (template: Template, firstSlot: Int)? {
        guard count <= Self.maximumKeys, !declined else { return nil }
        if depth < lastAtDepth.count, case let last = lastAtDepth[depth], last >= 0, made[last].count == count,
           tape.sameKeys(entry, made[last].exemplar, count: count, refusingNulls: removingNulls) {
            return (templates[last], made[last].firstSlot)
        }
        guard let shape = lookUp(entry, count: count, in: tape, removingNulls: removingNulls, make: make) else { return nil }
        if depth >= lastAtDepth.count { lastAtDepth += repeatElement(-1, count: depth + 1 - lastAtDepth.count) }
        lastAtDepth[depth] = shape
        return (templates[shape], made[shape].firstSlot)
    }

    /// The shape of the object at `entry` by its signature, made on the second sighting.
    @inlinable mutating func lookUp(
        _ entry: Int, count: Int, in tape: JSONTapeReader, removingNulls: Bool, make: ([String]) -> (template: Template, slots: [Slot])?
    ) -> Int? {
        let multiplier: UInt64 = 0x9E37_79B9_7F4A_7C15
        var signature = UInt64(truncatingIfNeeded: count) &* multiplier
        var key = entry + 1
        for _ in 0..<count {
            if removingNulls && tape.kind(key + 1) == .null { return nil }
            signature = (signature ^ JSONTapeReader.keyHash(tape.text(key))) &* multiplier
            key = tape.next(key + 1)
        }
        signature ^= signature >> 29
        if lines.isEmpty { lines = Array(repeating: Line(signature: 0, exemplar: -1, shape: -1), count: Self.lineCount) }
        let index = Int(truncatingIfNeeded: signature >> 32) & (Self.lineCount - 1)
        let line = lines[index]
        guard line.exemplar >= 0, line.signature == signature, tape.sameKeys(entry, line.exemplar, count: count) else {
            lines[index] = Line(signature: signature, exemplar: entry, shape: -1)
            return nil
        }
        if line.shape >= 0 { return line.shape }
        // The second object with these keys: make the template.
        var names: [String] = []
        names.reserveCapacity(count)
        key = entry + 1
        for _ in 0..<count {
            names.append(tape.string(key))
            key = tape.next(key + 1)
        }
        guard let template = make(names) else {
            declined = true
            return nil
        }
        let shape = templates.count
        lines[index].shape = shape
        templates.append(template.template)
        made.append((entry, count, slots.count))
        slots.append(contentsOf: template.slots)
        return shape
    }
}

extension JSONTapeReader {
    /// Whether the objects at `a` and `b`, of `count` keys each, have the same keys in the
    /// same order, as raw text; with `refusingNulls`, also whether no value of `a` is null.
    @inlinable package func sameKeys(_ a: Int, _ b: Int, count: Int, refusingNulls: Bool = false) -> Bool {
        var left = a + 1, right = b + 1
        for _ in 0..<count {
            if refusingNulls && kind(left + 1) == .null { return false }
            // Kind, flags and length in one compare, then the text.
            guard words[2 * left] == words[2 * right],
                  Self.equal(base + offset(left), base + offset(right), count: length(left)) else { return false }
            left = next(left + 1)
            right = next(right + 1)
        }
        return true
    }
}

/// Dictionary templates for ``JSONObjectShapes``: the keys with placeholder values, and
/// where each key sits.
///
/// A dictionary copied from its template keeps the template's layout, so a key's index in the
/// template is its index in the copy, and a value is set through `values[index]` without
/// hashing.
@usableFromInline package enum JSONDictionaryShape {
    /// A template of `keys`. A repeated key has one index for all its slots, so the last value
    /// set wins, as the last of duplicate keys does when they are inserted.
    @inlinable package static func make<Value>(keys: [String], placeholder: Value)
        -> (template: [String: Value], slots: [Dictionary<String, Value>.Index]) {
        var template = [String: Value](minimumCapacity: keys.count)
        for key in keys { template[key] = placeholder }
        return (template, keys.map { template.index(forKey: $0)! })
    }
}
