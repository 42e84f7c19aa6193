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
    /// One line of the table: the last object seen with a signature and no shape yet.
    @usableFromInline struct Line {
        @usableFromInline var signature: UInt64
        /// The object's tape entry, or -1 for an empty line.
        @usableFromInline var exemplar: Int

        @inlinable init(signature: UInt64, exemplar: Int) {
            self.signature = signature
            self.exemplar = exemplar
        }
    }

    /// Key sequences seen once, awaiting a second sighting.
    @usableFromInline var lines: [Line] = []
    @usableFromInline var templates: [Template] = []
    /// Each template's object (whose keys it has) and first slot in `slots`.
    @usableFromInline var made: [(exemplar: Int, firstSlot: Int)] = []
    /// Every shape made, by signature.
    @usableFromInline var madeBySignature: [UInt64: Int] = [:]
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
    /// Templates a document may make; later key sequences are built key by key. A bound on
    /// the memory a hostile document of ever-new key sequences can make templates take.
    @inlinable static var maximumShapes: Int { 1024 }

    @inlinable package init() {}

    /// The template to build the object at `entry`, `depth` containers deep, from, and the
    /// index in ``slots`` of its first key's slot; nil to build it key by key.
    ///
    /// With `removingNulls`, an object with a null value is built key by key, so a shaped
    /// object sets every one of its slots.
    @inlinable package mutating func shape(
        ofObject entry: Int, depth: Int, in tape: JSONTapeReader, removingNulls: Bool,
        make: ([String]) -> (template: Template, slots: [Slot])?
    ) -> (template: Template, firstSlot: Int)? {
        guard tape.length(entry) <= Self.maximumKeys, !declined else { return nil }
        if depth < lastAtDepth.count, case let last = lastAtDepth[depth], last >= 0,
           tape.sameKeys(entry, made[last].exemplar, refusingNulls: removingNulls) {
            return (templates[last], made[last].firstSlot)
        }
        guard let shape = lookUp(entry, in: tape, removingNulls: removingNulls, make: make) else { return nil }
        if depth >= lastAtDepth.count { lastAtDepth += repeatElement(-1, count: depth + 1 - lastAtDepth.count) }
        lastAtDepth[depth] = shape
        return (templates[shape], made[shape].firstSlot)
    }

    /// The shape of the object at `entry` by its signature, made on the second sighting.
    @inlinable mutating func lookUp(
        _ entry: Int, in tape: JSONTapeReader, removingNulls: Bool, make: ([String]) -> (template: Template, slots: [Slot])?
    ) -> Int? {
        guard let signature = Self.signature(ofObject: entry, in: tape, refusingNulls: removingNulls) else { return nil }
        if let shape = madeBySignature[signature] {
            return tape.sameKeys(entry, made[shape].exemplar) ? shape : nil
        }
        if lines.isEmpty { lines = Array(repeating: Line(signature: 0, exemplar: -1), count: Self.lineCount) }
        let index = Self.line(of: signature)
        let line = lines[index]
        guard line.exemplar >= 0, line.signature == signature, tape.sameKeys(entry, line.exemplar) else {
            lines[index] = Line(signature: signature, exemplar: entry)
            return nil
        }
        guard templates.count < Self.maximumShapes else { return nil }
        // The second object with these keys: make the template.
        let count = tape.length(entry)
        var names: [String] = []
        names.reserveCapacity(count)
        var key = entry + 1
        for _ in 0..<count {
            names.append(tape.string(key))
            key = tape.next(key + 1)
        }
        guard let template = make(names) else {
            declined = true
            return nil
        }
        let shape = templates.count
        lines[index] = Line(signature: signature, exemplar: -1)
        madeBySignature[signature] = shape
        templates.append(template.template)
        made.append((entry, slots.count))
        slots.append(contentsOf: template.slots)
        return shape
    }
}

extension JSONObjectShapes {
    /// The object's key count and a hash of each key's raw bytes, mixed; nil with
    /// `refusingNulls` when a value is null.
    @inlinable package static func signature(ofObject entry: Int, in tape: JSONTapeReader, refusingNulls: Bool) -> UInt64? {
        let multiplier: UInt64 = 0x9E37_79B9_7F4A_7C15
        let count = tape.length(entry)
        var signature = UInt64(truncatingIfNeeded: count) &* multiplier
        var key = entry + 1
        for _ in 0..<count {
            if refusingNulls && tape.kind(key + 1) == .null { return nil }
            signature = (signature ^ JSONTapeReader.keyHash(tape.text(key))) &* multiplier
            key = tape.next(key + 1)
        }
        return signature ^ signature >> 29
    }

    /// The table line a signature goes in.
    @inlinable package static func line(of signature: UInt64) -> Int {
        Int(truncatingIfNeeded: signature >> 32) & (lineCount - 1)
    }

    /// How many templates this document has made.
    package var templateCount: Int { templates.count }
}

extension JSONTapeReader {
    /// Whether the objects at `a` and `b` have the same keys in the same order, as raw text;
    /// with `refusingNulls`, also whether no value of `a` is null.
    @inlinable package func sameKeys(_ a: Int, _ b: Int, refusingNulls: Bool = false) -> Bool {
        // The counts first: a signature can match across counts, and the walk below must not
        // run past the shorter object.
        let count = length(a)
        guard length(b) == count else { return false }
        var left = a + 1, right = b + 1
        for _ in 0..<count {
            if refusingNulls && kind(left + 1) == .null { return false }
            // Kind and flags, the length (narrow or wide), then the text.
            let length = length(left)
            guard words[left] & JSONTape.kindAndFlagsMask == words[right] & JSONTape.kindAndFlagsMask, self.length(right) == length,
                  Self.equal(base + offset(left), base + offset(right), count: length) else { return false }
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
