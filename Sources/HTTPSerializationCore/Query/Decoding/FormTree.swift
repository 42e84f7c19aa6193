/// A form's fields (and a multipart form's files) as the tree their keys spell, built one
/// field at a time. Nodes sit in flat tables and name each other by index, so building,
/// reading and freeing the tree costs no object per node; `ParameterValue(formPairs:)` and
/// `FormDecoder` both read it.
package struct FormTree: Sendable {
    /// What a field carries.
    package enum Leaf: Sendable {
        case value(ParameterValue)
        case file(MultipartFile)
    }

    /// A node, its children in one of the tables below.
    package enum Node: Sendable {
        case empty
        case leaf(Leaf)
        case dictionary(Int)
        case array(Int)
        case indexed(Int)
    }

    /// One step of a field's path.
    package enum Component {
        case key(String)
        case append
        case index(Int)
    }

    /// Node 0 is the root, a dictionary.
    package private(set) var nodes: [Node] = [.dictionary(0)]
    /// Each dictionary node's children, by key.
    package private(set) var dictionaries: [[String: Int]] = [[:]]
    /// Each dictionary's next free index for `[]`: one past its largest key that is an
    /// index (PHP's and qs's rule for a list that also has names).
    private var dictionaryNextIndex: [Int] = [0]
    /// Each `[]` or repeated-key list's elements, in order.
    package private(set) var arrays: [[Int]] = []
    /// Whether each list was made by sending one field again (`a=1&a=2`): values, not a
    /// container, so a key under it contradicts them.
    private var arrayRepeatsField: [Bool] = []
    /// Each list by index (`a[0]`), by position.
    package private(set) var indexedArrays: [[Int: Int]] = []
    /// Each indexed list's next free position for `[]`.
    private var indexedNextPosition: [Int] = []
    private var path: [Component] = []

    package init() {}

    /// The tree of `pairs`, in the order they were sent.
    package init(pairs: [QueryStringPair], style: QueryStringStyle, limits: FormDecodingLimits) throws(FormDecodingError) {
        nodes.reserveCapacity(pairs.count + 1)
        for pair in pairs {
            try insert(.value(pair.value), field: pair.field, style: style, limits: limits)
        }
    }

    /// Puts `leaf` where `field` points; a field given again makes a list.
    ///
    /// A container whose keys mix indices and names (`a[0][x]=1&a[0][0]=2`, `a[]=1&a[x]=2`)
    /// becomes a dictionary keyed by each key's text, as PHP, Rack and qs read it; only a
    /// value and a container under one name contradict each other.
    package mutating func insert(_ leaf: Leaf, field: String, style: QueryStringStyle, limits: FormDecodingLimits) throws(FormDecodingError) {
        try Self.components(of: field, style: style, limit: limits.maximumDepth, into: &path)
        var current = 0
        var index = path.startIndex
        while index < path.endIndex {
            let component = path[index]
            index += 1
            switch component {
            case .key(let key):
                current = child(of: try dictionaryTable(of: current, field), key: key)
            case .append:
                let next: Component? = index < path.endIndex ? path[index] : nil
                current = try appended(to: current, before: next, indexed: style.arrayEncoding.readsIndices, field)
            case .index(let position):
                if case .dictionary(let table) = nodes[current] {
                    current = child(of: table, key: String(position))
                    continue
                }
                let table = try become(current, .indexed(indexedArrays.count), field)
                current = element(of: table, at: position)
            }
        }
        // A container value (pairs built by hand) nests as deep as its own levels go.
        if case .value(let value) = leaf, value.isContainer, path.count + value.depth > limits.maximumDepth {
            throw .nestedTooDeep(key: field, limit: limits.maximumDepth)
        }
        try place(leaf, at: current, field: field)
    }

    /// The node a `[]` under `node` names. Under indexed arrays, and in any container that
    /// already has indices or names, it is the next free index (PHP's reading); otherwise an
    /// element of a list, where Rails' rule makes `a[][x]=1&a[][y]=2` one element and a key
    /// the last element already has start the next.
    private mutating func appended(to node: Int, before next: Component?, indexed: Bool, _ field: String) throws(FormDecodingError) -> Int {
        switch nodes[node] {
        case .dictionary(let table):
            return child(of: table, key: String(dictionaryNextIndex[table]))
        case .indexed(let table):
            return element(of: table, at: indexedNextPosition[table])
        case .empty where indexed:
            return element(of: try become(node, .indexed(indexedArrays.count), field), at: 0)
        default:
            let table = try become(node, .array(arrays.count), field)
            if case .key(let key) = next, let last = arrays[table].last, accepts(last, key: key) { return last }
            let child = addNode()
            arrays[table].append(child)
            return child
        }
    }

    /// A list or dictionary given as one pair's value (pairs built by hand): its elements as
    /// `[]` children, its entries as keyed ones, as if each had been sent as a pair of its own.
    private mutating func expand(_ value: ParameterValue, into node: Int, field: String) throws(FormDecodingError) {
        switch value {
        case .array(let elements):
            try expandElements(elements, into: node, field: field)
        case .set(let elements):
            try expandElements(elements, into: node, field: field)
        case .dictionary(let entries):
            let table = try dictionaryTable(of: node, field)
            for (key, entry) in entries {
                try place(.value(entry), at: child(of: table, key: key), field: field)
            }
        default:
            try place(.value(value), at: node, field: field)
        }
    }

    private mutating func expandElements(_ elements: some Sequence<ParameterValue>, into node: Int, field: String) throws(FormDecodingError) {
        let table = try become(node, .array(arrays.count), field)
        for element in elements {
            let child = addNode()
            arrays[table].append(child)
            try place(.value(element), at: child, field: field)
        }
    }

    /// What a field carries, put at its node: a scalar or a file as a leaf (a field given
    /// again makes a list), a container expanded.
    private mutating func place(_ leaf: Leaf, at node: Int, field: String) throws(FormDecodingError) {
        if case .value(let value) = leaf, value.isContainer {
            try expand(value, into: node, field: field)
            return
        }
        switch nodes[node] {
        case .empty:
            nodes[node] = .leaf(leaf)
        case .leaf(let earlier):
            // A repeated field: its values make a list.
            let first = addNode(.leaf(earlier))
            let second = addNode(.leaf(leaf))
            nodes[node] = .array(arrays.count)
            arrays.append([first, second])
            arrayRepeatsField.append(true)
        case .array(let table):
            arrays[table].append(addNode(.leaf(leaf)))
        case .dictionary, .indexed:
            throw .conflictingKeys(field)
        }
    }

    /// The node under `key` in dictionary `table`, made empty if the key is new.
    private mutating func child(of table: Int, key: String) -> Int {
        if let existing = dictionaries[table][key] { return existing }
        let child = addNode()
        dictionaries[table][key] = child
        if let index = Self.index(key.utf8), index >= dictionaryNextIndex[table] { dictionaryNextIndex[table] = index &+ 1 }
        return child
    }

    /// The node at `position` in indexed list `table`, made empty if the position is new.
    private mutating func element(of table: Int, at position: Int) -> Int {
        if let existing = indexedArrays[table][position] { return existing }
        let child = addNode()
        indexedArrays[table][position] = child
        if position >= indexedNextPosition[table] { indexedNextPosition[table] = position &+ 1 }
        return child
    }

    /// The dictionary table of `node`, which a key is about to name: an empty node becomes
    /// one, and a list by index or by `[]` becomes one keyed by its indices' text. A value,
    /// or a list of a field's repeated values, cannot take a key.
    private mutating func dictionaryTable(of node: Int, _ field: String) throws(FormDecodingError) -> Int {
        let keyed: [String: Int]
        let next: Int
        switch nodes[node] {
        case .dictionary(let table):
            return table
        case .indexed(let table):
            keyed = textKeys(ofIndexed: table)
            next = indexedNextPosition[table]
        case .array(let table) where !arrayRepeatsField[table]:
            keyed = Dictionary(uniqueKeysWithValues: arrays[table].enumerated().lazy.map { (String($0.offset), $0.element) })
            next = arrays[table].count
        default:
            return try become(node, .dictionary(dictionaries.count), field)
        }
        // The list's table stays behind unused: nothing names it any more.
        nodes[node] = .dictionary(dictionaries.count)
        dictionaries.append(keyed)
        dictionaryNextIndex.append(next)
        return dictionaries.count - 1
    }

    /// The value of `text` when it is an index as PHP writes one: `0`, or digits without a
    /// leading zero, at most `maximumDigits` of them.
    static func index(_ text: some Collection<UInt8>, maximumDigits: Int = 18) -> Int? {
        guard let first = text.first, first >= 0x30, first <= 0x39, text.count <= maximumDigits, first != 0x30 || text.count == 1 else { return nil }
        var value = 0
        for byte in text {
            guard byte >= 0x30, byte <= 0x39 else { return nil }
            value = value * 10 + Int(byte - 0x30)
        }
        return value
    }

    /// Indexed list `table`'s children keyed by each index's text, as a dictionary holds them.
    package func textKeys(ofIndexed table: Int) -> [String: Int] {
        Dictionary(uniqueKeysWithValues: indexedArrays[table].lazy.map { (String($0.key), $0.value) })
    }

    private mutating func addNode(_ node: Node = .empty) -> Int {
        nodes.append(node)
        return nodes.count - 1
    }

    /// The table of the node's children, making the node the kind `wanted` if it is empty;
    /// `wanted` carries the index a new table gets.
    private mutating func become(_ node: Int, _ wanted: Node, _ field: String) throws(FormDecodingError) -> Int {
        switch (nodes[node], wanted) {
        case (.dictionary(let table), .dictionary), (.array(let table), .array), (.indexed(let table), .indexed):
            return table
        case (.empty, .dictionary(let table)):
            dictionaries.append([:])
            dictionaryNextIndex.append(0)
            nodes[node] = wanted
            return table
        case (.empty, .array(let table)):
            arrays.append([])
            arrayRepeatsField.append(false)
            nodes[node] = wanted
            return table
        case (.empty, .indexed(let table)):
            indexedArrays.append([:])
            indexedNextPosition.append(0)
            nodes[node] = wanted
            return table
        default:
            throw .conflictingKeys(field)
        }
    }

    /// Whether a `[]` element may take `key` too, rather than start the next element.
    private func accepts(_ node: Int, key: String) -> Bool {
        if case .dictionary(let table) = nodes[node] { return dictionaries[table][key] == nil }
        return false
    }

    /// The node's value as a parameter tree: values as they were sent, a file as its field's
    /// metadata is not a parameter and reads as `.null`.
    package func value(at node: Int = 0) -> ParameterValue {
        switch nodes[node] {
        case .empty, .leaf(.file): return .null
        case .leaf(.value(let value)): return value
        case .dictionary(let table): return .dictionary(ParameterDictionary(dictionaries[table].mapValues { value(at: $0) }))
        case .array(let table): return .array(ParameterArray(arrays[table].map { value(at: $0) }))
        case .indexed(let table): return indexedValue(indexedArrays[table])
        }
    }

    /// A list by index: an array when its indices run 0..<count, else a dictionary keyed by
    /// each index as written (`a[9]=x` alone is `["9": "x"]`, as PHP and Rack keep it).
    private func indexedValue(_ elements: [Int: Int]) -> ParameterValue {
        if elements.keys.allSatisfy({ $0 < elements.count }) {
            var values = [ParameterValue](repeating: .null, count: elements.count)
            for (position, node) in elements { values[position] = value(at: node) }
            return .array(ParameterArray(values))
        }
        return .dictionary(ParameterDictionary(Dictionary(uniqueKeysWithValues: elements.lazy.map { (String($0.key), value(at: $0.value)) })))
    }
}
