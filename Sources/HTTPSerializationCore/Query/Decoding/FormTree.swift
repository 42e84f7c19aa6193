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
    /// Each `[]` or repeated-key list's elements, in order.
    package private(set) var arrays: [[Int]] = []
    /// Each list by index (`a[0]`), by position.
    package private(set) var indexedArrays: [[Int: Int]] = []
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
    package mutating func insert(_ leaf: Leaf, field: String, style: QueryStringStyle, limits: FormDecodingLimits) throws(FormDecodingError) {
        try Self.components(of: field, style: style, limit: limits.maximumDepth, into: &path)
        var current = 0
        var index = path.startIndex
        while index < path.endIndex {
            let component = path[index]
            index += 1
            switch component {
            case .key(let key):
                current = child(of: try become(current, .dictionary(dictionaries.count), field), key: key)
            case .append:
                let table = try become(current, .array(arrays.count), field)
                // Rails: `a[][x]=1&a[][y]=2` is one element; a key it already has starts the next.
                if index < path.endIndex, case .key(let next) = path[index], let last = arrays[table].last, accepts(last, key: next) {
                    current = last
                } else {
                    let child = addNode()
                    arrays[table].append(child)
                    current = child
                }
            case .index(let position):
                let table = try become(current, .indexed(indexedArrays.count), field)
                if let child = indexedArrays[table][position] {
                    current = child
                } else {
                    let child = addNode()
                    indexedArrays[table][position] = child
                    current = child
                }
            }
        }
        // A container value (pairs built by hand) nests as deep as its own levels go.
        if case .value(let value) = leaf, value.isContainer, path.count + value.depth > limits.maximumDepth {
            throw .nestedTooDeep(key: field, limit: limits.maximumDepth)
        }
        try place(leaf, at: current, field: field)
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
            let table = try become(node, .dictionary(dictionaries.count), field)
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
        return child
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
            nodes[node] = wanted
            return table
        case (.empty, .array(let table)):
            arrays.append([])
            nodes[node] = wanted
            return table
        case (.empty, .indexed(let table)):
            indexedArrays.append([:])
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
        case .indexed(let table): return .array(ParameterArray(indexedArrays[table].sorted { $0.key < $1.key }.map { value(at: $0.value) }))
        }
    }
}
