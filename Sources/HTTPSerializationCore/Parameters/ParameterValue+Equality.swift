#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Equality walks both trees with a stack on the heap, so any depth compares without
/// recursion; hashing looks at most ``hashedLevels`` levels down, which keeps it bounded
/// while equal values still hash equally.
extension ParameterValue: Hashable {
    /// Whether two trees hold the same values; sets and dictionaries compare without order.
    /// Cases never mix: `.int(1)` is not equal to `.double(1)`.
    public static func == (lhs: ParameterValue, rhs: ParameterValue) -> Bool {
        var comparison = TreeComparison()
        return comparison.run(lhs, rhs)
    }

    /// Hashes the top four container levels; sets and dictionaries hash the same in any order.
    public func hash(into hasher: inout Hasher) {
        hash(into: &hasher, levels: ParameterValue.hashedLevels)
    }

    /// Levels of containers that feed the hash; deeper values only count through their
    /// parent's element count. Equality still compares everything.
    static let hashedLevels = 4

    private func hash(into hasher: inout Hasher, levels: Int) {
        switch self {
        case .string(let value): hasher.combine(0 as UInt8); hasher.combine(value)
        case .int(let value): hasher.combine(1 as UInt8); hasher.combine(value)
        case .double(let value): hasher.combine(2 as UInt8); hasher.combine(value)
        case .decimal(let value): hasher.combine(3 as UInt8); hasher.combine(value)
        case .bool(let value): hasher.combine(4 as UInt8); hasher.combine(value)
        case .null: hasher.combine(5 as UInt8)
        case .data(let value): hasher.combine(6 as UInt8); hasher.combine(value)
        case .date(let value): hasher.combine(7 as UInt8); hasher.combine(value)
        case .array(let elements):
            hasher.combine(8 as UInt8)
            hasher.combine(elements.count)
            guard levels > 0 else { return }
            for element in elements { element.hash(into: &hasher, levels: levels - 1) }
        case .set(let elements):
            hasher.combine(9 as UInt8)
            hasher.combine(elements.count)
            guard levels > 0 else { return }
            // Order-independent: the sum of each element's own hash.
            var sum = 0
            for element in elements {
                var own = Hasher()
                element.hash(into: &own, levels: levels - 1)
                sum &+= own.finalize()
            }
            hasher.combine(sum)
        case .dictionary(let entries):
            hasher.combine(10 as UInt8)
            hasher.combine(entries.count)
            guard levels > 0 else { return }
            var sum = 0
            for (key, value) in entries {
                var own = Hasher()
                own.combine(key)
                value.hash(into: &own, levels: levels - 1)
                sum &+= own.finalize()
            }
            hasher.combine(sum)
        }
    }
}

/// Compares two trees as a machine over explicit frames: arrays and dictionaries need all
/// their pairs equal; a set needs each left element to equal one right element among those
/// with the same hash. Sets never hold duplicates, so matching greedily is exact.
private struct TreeComparison {
    private enum Goal {
        case equal(ParameterValue, ParameterValue)
        case matchesOne(ParameterValue, [ParameterValue])
    }

    private struct Frame {
        /// `true`: every goal must hold; `false`: one goal must hold.
        let needsAll: Bool
        let goals: [Goal]
        var next = 0
    }

    private enum Step {
        case decided(Bool)
        case expand(Frame)
    }

    private var frames: [Frame] = []

    mutating func run(_ lhs: ParameterValue, _ rhs: ParameterValue) -> Bool {
        // An answer waiting to be handed to the frame on top.
        var pending: Bool?
        switch step(for: .equal(lhs, rhs)) {
        case .decided(let answer): return answer
        case .expand(let frame): frames.append(frame)
        }
        while let top = frames.indices.last {
            if let answer = pending {
                pending = nil
                // A false settles an all-frame and a true an any-frame; anything else moves on.
                if answer != frames[top].needsAll {
                    frames.removeLast()
                    pending = answer
                    continue
                }
            }
            guard frames[top].next < frames[top].goals.count else {
                // Out of goals: an all-frame held, an any-frame did not.
                pending = frames.removeLast().needsAll
                continue
            }
            let goal = frames[top].goals[frames[top].next]
            frames[top].next += 1
            switch step(for: goal) {
            case .decided(let answer): pending = answer
            case .expand(let frame): frames.append(frame)
            }
        }
        return pending ?? true
    }

    private func step(for goal: Goal) -> Step {
        switch goal {
        case .matchesOne(let element, let candidates):
            if candidates.isEmpty { return .decided(false) }
            return .expand(Frame(needsAll: false, goals: candidates.map { .equal(element, $0) }))
        case .equal(let lhs, let rhs):
            return compare(lhs, rhs)
        }
    }

    private func compare(_ lhs: ParameterValue, _ rhs: ParameterValue) -> Step {
        switch (lhs, rhs) {
        case (.string(let a), .string(let b)): return .decided(a == b)
        case (.int(let a), .int(let b)): return .decided(a == b)
        case (.double(let a), .double(let b)): return .decided(a == b)
        case (.decimal(let a), .decimal(let b)): return .decided(a == b)
        case (.bool(let a), .bool(let b)): return .decided(a == b)
        case (.null, .null): return .decided(true)
        case (.data(let a), .data(let b)): return .decided(a == b)
        case (.date(let a), .date(let b)): return .decided(a == b)
        case (.array(let a), .array(let b)):
            if a.storage === b.storage { return .decided(true) }
            guard a.count == b.count else { return .decided(false) }
            return all(zip(a, b).map { .equal($0, $1) })
        case (.dictionary(let a), .dictionary(let b)):
            if a.storage === b.storage { return .decided(true) }
            guard a.count == b.count else { return .decided(false) }
            var goals: [Goal] = []
            goals.reserveCapacity(a.count)
            for (key, value) in a {
                guard let other = b[key] else { return .decided(false) }
                goals.append(.equal(value, other))
            }
            return all(goals)
        case (.set(let a), .set(let b)):
            if a.storage === b.storage { return .decided(true) }
            guard a.count == b.count else { return .decided(false) }
            var byHash: [Int: [ParameterValue]] = [:]
            for element in b { byHash[element.hashValue, default: []].append(element) }
            return all(a.map { .matchesOne($0, byHash[$0.hashValue] ?? []) })
        default:
            return .decided(false)
        }
    }

    private func all(_ goals: [Goal]) -> Step {
        goals.isEmpty ? .decided(true) : .expand(Frame(needsAll: true, goals: goals))
    }
}
