#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import HTTPSerializationCore

/// What a streamed body had written when its model took a turn text cannot follow (a closed
/// container written to again, a key written twice, `superEncoder`), as the tree encoder's
/// nodes: the rest of the model is encoded into them, so its `encode(to:)` runs once.
///
/// Nodes are numbered as the stream numbered its values, in document order from 1, so a
/// container the model still holds finds its node by its id.
final class JSONEncodingTree {
    let root: EncodingNode
    private let nodes: [EncodingNode]

    /// Rebuilds the tree from `text`, the stream's output closed off, which must hold exactly
    /// `count` values. With `lastIsPlaceholder`, the last value stands for a slot that was
    /// begun but not written, and is emptied.
    init(text: [UInt8], count: Int, lastIsPlaceholder: Bool, maximumDepth: Int) throws {
        guard !text.isEmpty else {
            root = EncodingNode()
            nodes = []
            return
        }
        let numbered = Numbered()
        root = try text.withUnsafeBufferPointer { bytes in
            try JSONTape.withParsed(utf8: bytes, maximumDepth: maximumDepth) { $0.build(with: NodeBuilder(numbered: numbered)) }
        }
        nodes = numbered.nodes
        guard nodes.count == count else {
            throw EncodingError.invalidValue(count, EncodingError.Context(
                codingPath: [], debugDescription: "The JSON encoder lost count of the values it wrote (\(nodes.count), not \(count))."))
        }
        if lastIsPlaceholder { nodes.last?.clear() }
    }

    /// The node of value number `number`, if the stream had reached it.
    func node(_ number: Int) -> EncodingNode? {
        nodes.indices.contains(number - 1) ? nodes[number - 1] : nil
    }

    /// The finished tree, or nil when nothing was written.
    func finish() -> ParameterValue? { root.finish() }
}

private final class Numbered {
    var nodes: [EncodingNode] = []

    func next() -> EncodingNode {
        let node = EncodingNode()
        nodes.append(node)
        return node
    }
}

/// Builds tree nodes from a tape, numbering every value as it is reached.
private struct NodeBuilder: JSONTapeBuilding {
    let numbered: Numbered
    var removesNulls: Bool { false }

    func scalar(_ entry: Int, in tape: JSONTapeReader) -> EncodingNode {
        let node = numbered.next()
        node.set(tape.parameterValue(entry))
        return node
    }

    func makeArray(capacity: Int) -> EncodingNode {
        let node = numbered.next()
        node.makeUnkeyed()
        return node
    }

    func makeObject(capacity: Int) -> EncodingNode {
        let node = numbered.next()
        node.makeKeyed()
        return node
    }

    func append(_ value: consuming EncodingNode, to array: inout EncodingNode) { array.attach(value) }
    func insert(_ value: consuming EncodingNode, forKey key: String, into object: inout EncodingNode) { object.attach(value, forKey: key) }
    /// Never called: this builder keeps nulls, as the model wrote them.
    func removeValue(forKey key: String, from object: inout EncodingNode) {}
    /// Arrays and objects alike: the node is the container.
    func finish(_ container: EncodingNode) -> EncodingNode { container }
}
