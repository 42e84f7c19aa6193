#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// The ordered list a ``ParameterValue/array(_:)-enum.case`` holds: `a[]=1&a[]=2` in AFNetworking's
/// query style.
///
/// It reads like a Swift array (it is a `RandomAccessCollection` and an array literal) and
/// exists so that a tree of any depth is freed, compared and hashed without recursion.
///
/// ```swift
/// let value: ParameterValue = .array(["a", 1, true])
/// if case .array(let elements) = value, let first = elements.first { print(first) }
/// ```
public struct ParameterArray: RandomAccessCollection, MutableCollection, RangeReplaceableCollection, Sendable,
    ExpressibleByArrayLiteral {
    var storage: ParameterArrayStorage

    /// An empty list.
    public init() {
        storage = ParameterArrayStorage([])
    }

    /// A list of the given values, in order.
    public init(_ elements: some Sequence<ParameterValue>) {
        storage = ParameterArrayStorage(Array(elements))
    }

    /// A list holding the given array's values (its buffer is shared, not copied).
    public init(_ elements: [ParameterValue]) {
        storage = ParameterArrayStorage(elements)
    }

    /// A list of values whose tallest container the caller already knows (a reader that
    /// built them), so they are not walked again; `height` is 1 plus the tallest value's.
    init(_ elements: [ParameterValue], height: Int) {
        storage = ParameterArrayStorage(elements, height: height)
    }

    /// A list of the literal's values, in order.
    public init(arrayLiteral elements: ParameterValue...) {
        storage = ParameterArrayStorage(elements)
    }

    /// The values as a Swift array.
    public var elements: [ParameterValue] { storage.elements }

    // Iteration and bulk reads go straight to the Swift array, read once from the cell.
    /// An iterator over the values, in order.
    public func makeIterator() -> IndexingIterator<[ParameterValue]> { storage.elements.makeIterator() }
    /// The number of values.
    public var count: Int { storage.elements.count }
    /// The number of values; exact, since the list is held in memory.
    public var underestimatedCount: Int { storage.elements.count }
    /// Calls `body` with a buffer over the values, which are always contiguous, and returns its result.
    public func withContiguousStorageIfAvailable<R>(_ body: (UnsafeBufferPointer<ParameterValue>) throws -> R) rethrows -> R? {
        try storage.elements.withContiguousStorageIfAvailable(body)
    }

    /// The position of the first value: always 0.
    public var startIndex: Int { 0 }
    /// The position one past the last value: the count.
    public var endIndex: Int { storage.elements.count }
    /// The value at `position`; setting it first copies storage that another list shares.
    public subscript(position: Int) -> ParameterValue {
        get { storage.elements[position] }
        set {
            let storage = uniqueStorage()
            storage.raiseHeight(for: newValue)
            storage.elements[position] = newValue
        }
    }

    /// Replaces the values in `subrange` with `newElements`, copying shared storage first.
    public mutating func replaceSubrange(_ subrange: Range<Int>, with newElements: some Collection<ParameterValue>) {
        let storage = uniqueStorage()
        for element in newElements where element.isContainer { storage.raiseHeight(for: element) }
        storage.elements.replaceSubrange(subrange, with: newElements)
    }

    /// Reserves room for at least `capacity` values.
    public mutating func reserveCapacity(_ capacity: Int) {
        uniqueStorage().elements.reserveCapacity(capacity)
    }

    /// The storage, copied first if another value shares it (copy on write).
    private mutating func uniqueStorage() -> ParameterArrayStorage {
        if !isKnownUniquelyReferenced(&storage) { storage = ParameterArrayStorage(storage.elements) }
        return storage
    }
}

/// The unordered collection a ``ParameterValue/set(_:)-enum.case`` holds: repeated keys `a=1&a=2`,
/// sorted, in AFNetworking's query style.
///
/// It reads like a Swift `Set` (a `Collection` with `contains(_:)`, and an array literal) and
/// exists so that a tree of any depth is freed, compared and hashed without recursion.
public struct ParameterSet: Collection, Sendable, ExpressibleByArrayLiteral {
    var storage: ParameterSetStorage

    /// An empty set.
    public init() {
        storage = ParameterSetStorage([])
    }

    /// A set of the given values; duplicates collapse, as in a Swift `Set`.
    public init(_ elements: some Sequence<ParameterValue>) {
        storage = ParameterSetStorage(Set(elements))
    }

    /// A set of the literal's values; duplicates collapse.
    public init(arrayLiteral elements: ParameterValue...) {
        storage = ParameterSetStorage(Set(elements))
    }

    /// The values as a Swift set.
    public var elements: Set<ParameterValue> { storage.elements }

    /// An iterator over the values, in the set's unspecified order.
    public func makeIterator() -> Set<ParameterValue>.Iterator { storage.elements.makeIterator() }
    /// The number of values.
    public var count: Int { storage.elements.count }
    /// The number of values; exact.
    public var underestimatedCount: Int { storage.elements.count }

    /// The position of the first value in iteration order.
    public var startIndex: Set<ParameterValue>.Index { storage.elements.startIndex }
    /// The position one past the last value.
    public var endIndex: Set<ParameterValue>.Index { storage.elements.endIndex }
    /// The value at `position`.
    public subscript(position: Set<ParameterValue>.Index) -> ParameterValue { storage.elements[position] }
    /// The position that follows `index`.
    public func index(after index: Set<ParameterValue>.Index) -> Set<ParameterValue>.Index {
        storage.elements.index(after: index)
    }

    /// Whether the set holds a value equal to `element`.
    public func contains(_ element: ParameterValue) -> Bool { storage.elements.contains(element) }

    /// Adds `element` unless an equal value is already in the set.
    @discardableResult
    public mutating func insert(_ element: ParameterValue) -> (inserted: Bool, memberAfterInsert: ParameterValue) {
        let storage = uniqueStorage()
        storage.raiseHeight(for: element)
        return storage.elements.insert(element)
    }

    /// Removes the value equal to `element`, if any, and returns it.
    @discardableResult
    public mutating func remove(_ element: ParameterValue) -> ParameterValue? {
        uniqueStorage().elements.remove(element)
    }

    private mutating func uniqueStorage() -> ParameterSetStorage {
        if !isKnownUniquelyReferenced(&storage) { storage = ParameterSetStorage(storage.elements) }
        return storage
    }
}

/// The keyed values a ``ParameterValue/dictionary(_:)-enum.case`` holds: `a[b]=1` in AFNetworking's
/// query style.
///
/// It reads like a Swift dictionary (iteration over `(key, value)` pairs, `subscript(key)`,
/// `keys`, `values`, a dictionary literal) and exists so that a tree of any depth is freed,
/// compared and hashed without recursion.
public struct ParameterDictionary: Collection, Sendable, ExpressibleByDictionaryLiteral {
    /// A key and the value stored under it, as iteration yields them.
    public typealias Element = (key: String, value: ParameterValue)
    var storage: ParameterDictionaryStorage

    /// An empty dictionary.
    public init() {
        storage = ParameterDictionaryStorage([:])
    }

    /// A dictionary holding the given entries.
    public init(_ entries: [String: ParameterValue]) {
        storage = ParameterDictionaryStorage(entries)
    }

    /// Entries whose tallest container the caller already knows, as for ``ParameterArray``.
    init(_ entries: [String: ParameterValue], height: Int) {
        storage = ParameterDictionaryStorage(entries, height: height)
    }

    /// Later duplicates of a key replace earlier ones, as in a Foundation dictionary.
    public init(dictionaryLiteral elements: (String, ParameterValue)...) {
        storage = ParameterDictionaryStorage(Dictionary(elements, uniquingKeysWith: { _, last in last }))
    }

    /// The entries as a Swift dictionary.
    public var entries: [String: ParameterValue] { storage.entries }

    /// An iterator over the `(key, value)` pairs, in the dictionary's unspecified order.
    public func makeIterator() -> Dictionary<String, ParameterValue>.Iterator { storage.entries.makeIterator() }
    /// The number of entries.
    public var count: Int { storage.entries.count }
    /// The number of entries; exact.
    public var underestimatedCount: Int { storage.entries.count }

    /// The position of the first entry in iteration order.
    public var startIndex: Dictionary<String, ParameterValue>.Index { storage.entries.startIndex }
    /// The position one past the last entry.
    public var endIndex: Dictionary<String, ParameterValue>.Index { storage.entries.endIndex }
    /// The entry at `position`.
    public subscript(position: Dictionary<String, ParameterValue>.Index) -> Element { storage.entries[position] }
    /// The position that follows `index`.
    public func index(after index: Dictionary<String, ParameterValue>.Index) -> Dictionary<String, ParameterValue>.Index {
        storage.entries.index(after: index)
    }

    /// The value stored under `key`, if any.
    public subscript(key: String) -> ParameterValue? {
        get { storage.entries[key] }
        set {
            let storage = uniqueStorage()
            if let newValue { storage.raiseHeight(for: newValue) }
            storage.entries[key] = newValue
        }
    }

    /// Removes the value stored under `key` and returns it, if any.
    @discardableResult
    public mutating func removeValue(forKey key: String) -> ParameterValue? {
        uniqueStorage().entries.removeValue(forKey: key)
    }

    private mutating func uniqueStorage() -> ParameterDictionaryStorage {
        if !isKnownUniquelyReferenced(&storage) { storage = ParameterDictionaryStorage(storage.entries) }
        return storage
    }
    /// The keys, in iteration order.
    public var keys: Dictionary<String, ParameterValue>.Keys { storage.entries.keys }
    /// The values, in the same order as ``keys``.
    public var values: Dictionary<String, ParameterValue>.Values { storage.entries.values }
}

// MARK: - Equality and hashing go through ParameterValue's iterative versions.

extension ParameterArray: Hashable {
    /// Whether two lists hold equal values in the same order; compared without recursion.
    public static func == (lhs: ParameterArray, rhs: ParameterArray) -> Bool {
        ParameterValue.array(lhs) == ParameterValue.array(rhs)
    }
    /// Hashes the list as its ``ParameterValue`` does, looking a bounded number of levels down.
    public func hash(into hasher: inout Hasher) { ParameterValue.array(self).hash(into: &hasher) }
}

extension ParameterSet: Hashable {
    /// Whether two sets hold equal values, in any order.
    public static func == (lhs: ParameterSet, rhs: ParameterSet) -> Bool {
        ParameterValue.set(lhs) == ParameterValue.set(rhs)
    }
    /// Hashes the set as its ``ParameterValue`` does, whatever the order of its values.
    public func hash(into hasher: inout Hasher) { ParameterValue.set(self).hash(into: &hasher) }
}

extension ParameterDictionary: Hashable {
    /// Whether two dictionaries hold the same keys with equal values.
    public static func == (lhs: ParameterDictionary, rhs: ParameterDictionary) -> Bool {
        ParameterValue.dictionary(lhs) == ParameterValue.dictionary(rhs)
    }
    /// Hashes the entries as their ``ParameterValue`` does, whatever their order.
    public func hash(into hasher: inout Hasher) { ParameterValue.dictionary(self).hash(into: &hasher) }
}

extension ParameterArray: CustomStringConvertible {
    /// The list written as a Swift array literal: `[1, "x", nil]`.
    public var description: String { ParameterValue.array(self).description }
}

extension ParameterSet: CustomStringConvertible {
    /// The set written as `.set([…])`, in the set's own order.
    public var description: String { ParameterValue.set(self).description }
}

extension ParameterDictionary: CustomStringConvertible {
    /// The dictionary written as a Swift literal with its keys sorted: `["a": 1, "b": nil]`.
    public var description: String { ParameterValue.dictionary(self).description }
}
