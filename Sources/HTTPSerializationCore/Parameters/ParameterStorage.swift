/// The heap cell behind each parameter container.
///
/// A tree of enums over arrays is freed recursively (each level's destructor calls the
/// next), which overflows the stack at some tens of thousands of levels. A class has a
/// `deinit`, and ours takes the children out onto a heap stack and frees them one by one, so
/// freeing any depth uses constant stack.
///
/// `@unchecked Sendable`: the payload is set in `init` and changed only by `moveChildren`
/// (from `deinit`) or by a container's mutating methods, each after `isKnownUniquelyReferenced`
/// proved the caller holds the only reference (copy on write). No other thread can reach an
/// object then, so no access ever races.
class ParameterStorage: @unchecked Sendable {
    /// Appends this container's containers to `stack` and empties it (scalars free without
    /// recursion, so they are simply released).
    func moveChildren(into stack: inout [ParameterValue]) {}
}

final class ParameterArrayStorage: ParameterStorage, @unchecked Sendable {
    var elements: [ParameterValue]

    init(_ elements: [ParameterValue]) { self.elements = elements }

    override func moveChildren(into stack: inout [ParameterValue]) {
        stack.append(contentsOf: elements.lazy.filter(\.isContainer))
        elements = []
    }

    deinit { ParameterStorage.dismantle(self) }
}

final class ParameterSetStorage: ParameterStorage, @unchecked Sendable {
    var elements: Set<ParameterValue>

    init(_ elements: Set<ParameterValue>) { self.elements = elements }

    override func moveChildren(into stack: inout [ParameterValue]) {
        stack.append(contentsOf: elements.lazy.filter(\.isContainer))
        elements = []
    }

    deinit { ParameterStorage.dismantle(self) }
}

final class ParameterDictionaryStorage: ParameterStorage, @unchecked Sendable {
    var entries: [String: ParameterValue]

    init(_ entries: [String: ParameterValue]) { self.entries = entries }

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
        var stack: [ParameterValue] = []
        storage.moveChildren(into: &stack)
        while var value = stack.popLast() {
            guard value.isContainer else { continue }
            var child: ParameterStorage? = value.takeStorage()
            if isKnownUniquelyReferenced(&child) { child?.moveChildren(into: &stack) }
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
