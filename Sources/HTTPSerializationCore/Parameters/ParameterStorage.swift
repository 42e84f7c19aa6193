/// The heap cell behind each parameter container.
///
/// A tree of enums over arrays is freed recursively (each level's destructor calls the
/// next), which overflows the stack at some tens of thousands of levels. A class has a
/// `deinit`, and ours takes the children of a tall tree out onto a heap stack and frees them
/// one by one, so freeing any depth uses bounded stack. A short tree (the usual one) is
/// freed by the plain recursive release, which costs nothing extra.
///
/// `@unchecked Sendable`: the payload and `height` are set in `init` and changed only by
/// `moveChildren` (from `deinit`) or by a container's mutating methods, each after
/// `isKnownUniquelyReferenced` proved the caller holds the only reference (copy on write).
/// No other thread can reach an object then, so no access ever races.
class ParameterStorage: @unchecked Sendable {
    /// At least the number of container levels in this one (1 when it holds only scalars):
    /// exact when the cell is made, raised by every insertion, never lowered by a removal.
    /// Only an underestimate could hurt (a recursive free deeper than `recursiveFreeLimit`).
    final var height: Int

    init(height: Int) { self.height = height }

    /// Trees at most this tall are freed by plain recursion: a few hundred bytes of stack a
    /// level, a few tens of kilobytes in all, safe on any thread.
    static var recursiveFreeLimit: Int { 64 }

    /// `height` raised, if need be, to cover `value` held one level down.
    @inline(__always)
    static func height(_ height: Int, holding value: ParameterValue) -> Int {
        max(height, value.storageHeight + 1)
    }

    /// Raises ``height`` to cover `value`, which was just stored in this container.
    @inline(__always)
    final func raiseHeight(for value: ParameterValue) {
        height = Self.height(height, holding: value)
    }

    /// 1 plus the tallest of `values` (1 when none is a container).
    static func height(of values: some Sequence<ParameterValue>) -> Int {
        values.reduce(1) { height($0, holding: $1) }
    }

    /// Appends this container's containers to `stack` and empties it (scalars free without
    /// recursion, so they are simply released).
    func moveChildren(into stack: inout [ParameterValue]) {}
}

final class ParameterArrayStorage: ParameterStorage, @unchecked Sendable {
    var elements: [ParameterValue]

    init(_ elements: [ParameterValue], height: Int? = nil) {
        self.elements = elements
        super.init(height: height ?? ParameterStorage.height(of: elements))
    }

    override func moveChildren(into stack: inout [ParameterValue]) {
        stack.append(contentsOf: elements.lazy.filter(\.isContainer))
        elements = []
    }

    deinit { ParameterStorage.dismantle(self) }
}

final class ParameterSetStorage: ParameterStorage, @unchecked Sendable {
    var elements: Set<ParameterValue>

    init(_ elements: Set<ParameterValue>) {
        self.elements = elements
        super.init(height: ParameterStorage.height(of: elements))
    }

    override func moveChildren(into stack: inout [ParameterValue]) {
        stack.append(contentsOf: elements.lazy.filter(\.isContainer))
        elements = []
    }

    deinit { ParameterStorage.dismantle(self) }
}

final class ParameterDictionaryStorage: ParameterStorage, @unchecked Sendable {
    var entries: [String: ParameterValue]

    init(_ entries: [String: ParameterValue], height: Int? = nil) {
        self.entries = entries
        super.init(height: height ?? ParameterStorage.height(of: entries.values))
    }

    override func moveChildren(into stack: inout [ParameterValue]) {
        stack.append(contentsOf: entries.values.lazy.filter(\.isContainer))
        entries = [:]
    }

    deinit { ParameterStorage.dismantle(self) }
}

extension ParameterStorage {
    /// Frees the values of a container being deinitialised without recursion.
    ///
    /// Every child container that nothing else references gives up its own children to
    /// the same stack before it is released, so each `deinit` below this one finds an empty
    /// container and returns at once. Shared children are only released; their last owner
    /// dismantles them later.
    static func dismantle(_ storage: ParameterStorage) {
        guard storage.height > recursiveFreeLimit else { return }
        var stack: [ParameterValue] = []
        storage.moveChildren(into: &stack)
        while var value = stack.popLast() {
            guard value.isContainer else { continue }
            var child: ParameterStorage? = value.takeStorage()
            // A short child is freed by recursion when `child` goes.
            if child!.height > recursiveFreeLimit, isKnownUniquelyReferenced(&child) { child?.moveChildren(into: &stack) }
        }
    }
}

extension ParameterValue {
    /// The ``ParameterStorage/height`` of this value's container, 0 for a scalar.
    @inline(__always)
    var storageHeight: Int {
        switch self {
        case .array(let elements): return elements.storage.height
        case .set(let elements): return elements.storage.height
        case .dictionary(let entries): return entries.storage.height
        default: return 0
        }
    }
}

extension ParameterValue {
    /// The container cell of this value, leaving `.null` behind.
    ///
    /// A function of its own so that every temporary copy made while matching is released
    /// when it returns: the caller's reference is then the only one unless the tree shares
    /// the container, which `isKnownUniquelyReferenced` must be able to see.
    fileprivate mutating func takeStorage() -> ParameterStorage? {
        let storage: ParameterStorage
        switch self {
        case .array(let elements): storage = elements.storage
        case .set(let elements): storage = elements.storage
        case .dictionary(let entries): storage = entries.storage
        default: return nil
        }
        self = .null
        return storage
    }
}
