#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import HTTPSerializationCore

/// Writes an `Encodable` value's JSON as its `encode(to:)` runs, for the usual shape of
/// encoding: each container filled before its parent goes on, each key once.
///
/// `ParameterValue` fields and `[String: T]` dictionaries under a key strategy are written in
/// place, and a container asked for twice by one value (a subclass, then its superclass) is
/// the same container. Anything else `Encoder` allows (writing to a container after a sibling
/// was opened, a key encoded twice, `superEncoder`) turns what was written into a
/// ``JSONEncodingTree``, which takes the rest of the model: `encode(to:)` runs once either way.
final class JSONStreamingEncoder {
    let options: JSONBodyEncoder
    /// No key strategy: coding keys are written as they are. Read once, not per key from `options`.
    private let keysAsWritten: Bool
    /// `.convertToSnakeCase`, read once, and the generated writers' keys converted so far.
    private let convertsToSnakeCase: Bool
    @exclusivity(unchecked) private var snakeCaseKeys = JSONSnakeCaseKeys()
    @exclusivity(unchecked) private var writer: JSONWriter

    /// An open array or object: how many values it has, and where its key hashes start.
    private struct Frame {
        let id: Int
        let isObject: Bool
        let firstKeyHash: Int
        var count = 0
    }

    /// Objects up to this many keys are checked for a repeated key by scanning their hashes.
    private static let scannedKeys = 32

    @exclusivity(unchecked) private var frames: [Frame] = []
    /// A hash of each key written in each open object, innermost last.
    @exclusivity(unchecked) private var keyHashes: [UInt64] = []
    /// The key hashes of each open object past ``scannedKeys`` keys, by the object's id, so a
    /// large dictionary's keys are checked in constant time each, not by a scan. Kept out of
    /// `Frame` so that frames hold no reference and copy without retains.
    @exclusivity(unchecked) private var keySets: [Int: Set<UInt64>] = [:]
    /// Values written so far, containers included; a container's id is its number in this count.
    @exclusivity(unchecked) private var valueCount = 0
    /// For each value whose own code is running (`encode(to:)`, a custom strategy), innermost
    /// last: the number its value has, or will have once written.
    @exclusivity(unchecked) private var runningValues: [Int] = []
    /// A key (or array slot) has been written and its value not yet.
    @exclusivity(unchecked) private var pending = false
    /// Where the pending slot's separator starts, and the container it is in (0 for the
    /// root): to take the slot back if its value never comes (an error a model swallowed).
    @exclusivity(unchecked) private var slotStart = 0
    @exclusivity(unchecked) private var slotContainer = 0
    @exclusivity(unchecked) var codingPath: [any CodingKey] = []
    /// Set once the model took a turn the text cannot follow; it then takes every write.
    @exclusivity(unchecked) private(set) var tree: JSONEncodingTree?
    /// `tree == nil`, as a flag: testing the reference itself would retain it on every value.
    @exclusivity(unchecked) private(set) var streams = true
    /// An error a container could not throw when it was made (nesting too deep), thrown at
    /// the container's first write and at the end, so a model's `try?` cannot hide it.
    @exclusivity(unchecked) private var deferredError: (any Error)?

    init(options: JSONBodyEncoder) {
        self.options = options
        keysAsWritten = options.keysAsWritten
        if case .convertToSnakeCase = options.keyEncodingStrategy { convertsToSnakeCase = true } else { convertsToSnakeCase = false }
        writer = JSONWriter(options: options.outputFormatting, keyOrder: .utf8)
    }

    /// The JSON text of `value`.
    func encode(_ value: some Encodable) throws -> Data {
        if let tree = try run(value) { return try treeText(tree) }
        return writer.output.takeData()
    }

    /// Appends the JSON text of `value` to `bytes`, with no `Data` in between: a stream
    /// writer's lines go straight into its chunk.
    func encode(_ value: some Encodable, appendingTo bytes: inout [UInt8]) throws {
        if let tree = try run(value) {
            bytes.append(contentsOf: try treeText(tree))
            return
        }
        writer.output.copy(into: &bytes)
    }

    /// Runs `value`'s `encode(to:)` to its end: the text is then in the writer, unless the
    /// model turned it into the tree returned.
    private func run(_ value: some Encodable) throws -> ParameterValue? {
        pending = true
        try encodeValue(value)
        if pending, streams {
            if frames.isEmpty { throw Self.nothingEncoded(value) }
            settleDanglingSlot()
        }
        if let deferredError { throw deferredError }
        if let tree {
            guard let result = tree.finish() else { throw Self.nothingEncoded(value) }
            return result
        }
        while !frames.isEmpty { close() }
        return nil
    }

    private func treeText(_ tree: ParameterValue) throws -> Data {
        try tree.jsonData(options: options.outputFormatting.union(.fragmentsAllowed), maximumDepth: options.maximumDepth, keyOrder: .utf8)
    }

    private static func nothingEncoded(_ value: some Encodable) -> RequestSerializationError {
        .invalidParameter(path: "", reason: "\(type(of: value)) did not encode any value")
    }

    // MARK: Structure

    /// Closes containers above `id` (their owners are done with them); nil when `id` is closed.
    @inline(__always)
    private func reopen(_ id: Int) -> Int? {
        let last = frames.count &- 1
        if last >= 0, frames[last].id == id { return last }
        return reopenBelow(id)
    }

    /// ``reopen(_:)`` when `id` is not the innermost container.
    @inline(never)
    private func reopenBelow(_ id: Int) -> Int? {
        guard let index = frames.lastIndex(where: { $0.id == id }) else { return nil }
        while frames.count > index + 1 { close() }
        return index
    }

    private func close() {
        let frame = frames.removeLast()
        keyHashes.removeSubrange(frame.firstKeyHash...)
        if !keySets.isEmpty { keySets[frame.id] = nil }
        writer.closeContainer(isObject: frame.isObject, level: frames.count)
    }

    /// Writes the separator and the key for the next value of object `id`; false when the
    /// tree takes the value instead.
    func beginValue(inObject id: Int, key: String) throws -> Bool {
        guard streams else { return false }
        guard id > 0 else { throw deferredError ?? lostPlace() }
        if pending, !settleDanglingSlot() { return false }
        guard let index = reopen(id) else { return switchToTree() }
        let hash = JSONStreamingEncoder.hash(key)
        // A key written twice replaces the first, as in JSONEncoder: only the tree can do that.
        if frames[index].count < Self.scannedKeys {
            let first = frames[index].firstKeyHash
            // Through a buffer: a slice of the array would retain its storage on every key.
            if keyHashes.withUnsafeBufferPointer({ $0[first...].contains(hash) }) { return switchToTree() }
        } else {
            let object = frames[index].id
            if keySets[object] == nil { keySets[object] = Set(keyHashes[frames[index].firstKeyHash...]) }
            if keySets[object]?.insert(hash).inserted == false { return switchToTree() }
        }
        keyHashes.append(hash)
        slotStart = writer.output.count
        slotContainer = id
        let first = frames[index].count == 0
        frames[index].count += 1
        writer.member(first: first, level: frames.count, key: key)
        pending = true
        return true
    }

    /// Writes the separator before the next element of array `id`; false when the tree takes it.
    func beginValue(inArray id: Int) throws -> Bool {
        guard streams else { return false }
        guard id > 0 else { throw deferredError ?? lostPlace() }
        if pending, !settleDanglingSlot() { return false }
        guard let index = reopen(id) else { return switchToTree() }
        slotStart = writer.output.count
        slotContainer = id
        writer.separator(first: frames[index].count == 0, level: frames.count)
        frames[index].count += 1
        pending = true
        return true
    }

    /// A slot was begun and its value never came (the model swallowed the error): takes its
    /// separator and key back, as `JSONEncoder` leaves such a key out. False when the tree
    /// takes over instead, because a value still running may yet write there.
    @discardableResult
    private func settleDanglingSlot() -> Bool {
        guard slotIsDead else { return switchToTree() }
        dropSlot()
        return true
    }

    /// Whether the pending slot is one whose value will not come: no value still running
    /// was to write there, and it is in the innermost container.
    private var slotIsDead: Bool {
        runningValues.last != valueCount + 1 && frames.last?.id == slotContainer
    }

    private func dropSlot() {
        let last = frames.count - 1
        writer.output.truncate(to: slotStart)
        pending = false
        frames[last].count -= 1
        if frames[last].isObject {
            let hash = keyHashes.removeLast()
            if !keySets.isEmpty { keySets[frames[last].id]?.remove(hash) }
        }
    }

    /// Whether a single value can be written here; false when the tree takes it.
    func beginSingleValue() -> Bool {
        guard streams else { return false }
        return pending || switchToTree()
    }

    func elementCount(ofArray id: Int) -> Int {
        frames.last(where: { $0.id == id })?.count ?? 0
    }

    /// Opens an object or array where a value is pending.
    func openContainer(isObject: Bool) throws -> Int {
        guard pending else { throw lostPlace() }
        guard frames.count < options.maximumDepth else {
            throw RequestSerializationError.nestingTooDeep(path: ParameterEncoder.describe(codingPath), limit: options.maximumDepth)
        }
        pending = false
        valueCount += 1
        frames.append(Frame(id: valueCount, isObject: isObject, firstKeyHash: keyHashes.count))
        writer.openContainer(isObject: isObject)
        return valueCount
    }

    /// The container `Encoder` hands out for the value being encoded: a new one where the value
    /// is pending, the value's own one when asked again, -1 when it could not open (the error
    /// waits in ``deferredError``), nil when the tree takes it.
    func containerForCurrentValue(isObject: Bool) -> Int? {
        guard streams else { return nil }
        if pending { return nestedContainer(isObject: isObject) { true } }
        if let current = runningValues.last, let frame = frames.last(where: { $0.id == current }), frame.isObject == isObject {
            return current
        }
        switchToTree()
        return nil
    }

    /// Begins a value with `begin` and opens a container there: its id, -1 when it could not
    /// open (the error waits in ``deferredError``), nil when the tree takes it.
    func nestedContainer(isObject: Bool, begin: () throws -> Bool) -> Int? {
        do {
            guard try begin() else { return nil }
            return try openContainer(isObject: isObject)
        } catch {
            keep(error)
            return -1
        }
    }

    /// The number of the value whose own code is running (the root's before any).
    var currentValue: Int { runningValues.last ?? 1 }

    private static func hash(_ key: String) -> UInt64 {
        key.withBorrowedUTF8 { JSONTapeReader.keyHash($0) }
    }

    /// Keeps the first error that could not be thrown where it happened, for ``encode(_:)``.
    private func keep(_ error: any Error) {
        if deferredError == nil { deferredError = error }
    }

    /// An error for a write that has no place: a bug in this encoder, never the model's.
    private func lostPlace() -> EncodingError {
        EncodingError.invalidValue((), EncodingError.Context(
            codingPath: codingPath, debugDescription: "The JSON encoder lost its place in the output."))
    }

    // MARK: The tree

    /// Rebuilds what was written as a tree, which takes every write from here on. Always
    /// false (the value is not written to the text), for callers to return.
    @discardableResult
    func switchToTree() -> Bool {
        guard streams else { return false }
        if pending, slotIsDead { dropSlot() }
        var text = writer.output.bytes
        let placeholder = pending
        if placeholder { text.append(contentsOf: "null".utf8) }
        for frame in frames.reversed() { text.append(frame.isObject ? UInt8(ascii: "}") : UInt8(ascii: "]")) }
        do {
            tree = try JSONEncodingTree(text: text, count: valueCount + (placeholder ? 1 : 0), lastIsPlaceholder: placeholder,
                                        maximumDepth: options.maximumDepth + 2)
        } catch {
            keep(error)
            tree = try? JSONEncodingTree(text: [], count: 0, lastIsPlaceholder: false, maximumDepth: 0)
        }
        streams = false
        writer = JSONWriter(options: options.outputFormatting, keyOrder: .utf8)
        frames = []
        keyHashes = []
        keySets = [:]
        pending = false
        return false
    }

    /// The tree encoder for value `number` (a container's id), at `path`.
    func treeEncoder(value number: Int, codingPath path: [any CodingKey]) -> ParameterEncoder {
        let node: EncodingNode
        if let found = tree?.node(number) {
            node = found
        } else {
            // Only a container that could not open (its error is waiting) has no node.
            keep(lostPlace())
            node = EncodingNode()
        }
        return ParameterEncoder(node: node, codingPath: path, maximumDepth: options.maximumDepth, json: options)
    }

    /// The tree encoder for the value whose own code is running.
    func currentTreeEncoder() -> ParameterEncoder {
        treeEncoder(value: currentValue, codingPath: codingPath)
    }

    // MARK: Values

    /// Writes a scalar where a value is pending.
    func write(_ value: ParameterValue) throws {
        guard pending else { throw lostPlace() }
        // A refused value (NaN) writes nothing and leaves the slot pending, to be taken back.
        try writer.writeScalar(value) { ParameterEncoder.path(self.codingPath) }
        pending = false
        valueCount += 1
    }

    /// Writes a whole parameter tree where a value is pending, with the same writer.
    func write(tree: ParameterValue) throws {
        guard pending else { throw lostPlace() }
        guard frames.count + tree.depth <= options.maximumDepth else {
            throw RequestSerializationError.nestingTooDeep(path: ParameterEncoder.describe(codingPath), limit: options.maximumDepth)
        }
        // A tree refused partway (data or a date inside) leaves the slot pending: taking it back
        // removes what was written of it.
        valueCount += try writer.write(tree, level: frames.count, at: ParameterEncoder.path(codingPath))
        pending = false
    }

    /// Writes a string where a value is pending.
    func write(string: String) throws {
        guard pending else { throw lostPlace() }
        pending = false
        valueCount += 1
        writer.writeString(string)
    }

    func write(_ value: Double) throws {
        guard value.isFinite else { return try writeNonConforming(value, value) }
        try write(.double(value))
    }

    func write(_ value: Float) throws {
        guard value.isFinite else { return try writeNonConforming(Double(value), value) }
        guard pending else { throw lostPlace() }
        pending = false
        valueCount += 1
        writer.writeNumberText(value.description)
    }

    private func writeNonConforming<Original>(_ value: Double, _ original: Original) throws {
        guard case .convertToString(let infinity, let negativeInfinity, let nan) = options.nonConformingFloatEncodingStrategy else {
            throw EncodingError.invalidValue(original, EncodingError.Context(
                codingPath: codingPath,
                debugDescription: "Unable to encode \(value) directly in JSON. Use a convertToString strategy to encode it."))
        }
        try write(.string(value.isNaN ? nan : value > 0 ? infinity : negativeInfinity))
    }

    /// Encodes any value where one is pending, with the body's strategies for the special types.
    func encodeValue<T: Encodable>(_ value: T) throws {
        // Metatype checks: cheaper than casting the value for every type tried.
        if T.self == String.self { return try write(string: Self.same(value, as: String.self)) }
        if T.self == Int.self { return try write(.int(Self.same(value, as: Int.self))) }
        if T.self == Double.self { return try write(Self.same(value, as: Double.self)) }
        if T.self == Bool.self { return try write(.bool(Self.same(value, as: Bool.self))) }
        if T.self == Date.self { return try encode(Self.same(value, as: Date.self)) }
        if T.self == Data.self { return try encode(Self.same(value, as: Data.self)) }
        if T.self == URL.self { return try write(.string(Self.same(value, as: URL.self).absoluteString)) }
        if T.self == Decimal.self { return try write(.decimal(Self.same(value, as: Decimal.self))) }
        if T.self == ParameterValue.self { return try write(tree: Self.same(value, as: ParameterValue.self)) }
        // Arrays of scalars in one loop, as `Array.encode(to:)` would write them through a container.
        if T.self == [String].self { return try writeArray(Self.same(value, as: [String].self)) { try self.write(string: $0) } }
        if T.self == [Int].self { return try writeArray(Self.same(value, as: [Int].self)) { try self.write(.int($0)) } }
        if T.self == [Bool].self { return try writeArray(Self.same(value, as: [Bool].self)) { try self.write(.bool($0)) } }
        if T.self == [Double].self {
            var index = 0
            return try writeArray(Self.same(value, as: [Double].self)) { element in
                try self.with(JSONIndexCodingKey(index)) { try self.write(element) }
                index += 1
            }
        }
        // A type with a writer of its own (``JSONTapeEncodable``) writes itself.
        if let writer = tapeWriter(T.self) {
            func write<Writer: JSONTapeEncodable>(_ type: Writer.Type) throws {
                // `Writer` is `T`: the value is read in place as one, not copied or boxed.
                try withUnsafePointer(to: value) { pointer in
                    try pointer.withMemoryRebound(to: Writer.self, capacity: 1) { value in
                        try runOwnCode { try value.pointee.encode(jsonTape: JSONTapeWriter(encoder: self)) }
                    }
                }
            }
            return try write(writer)
        }
        try encodeThroughEncodable(value)
    }

    /// The last two types asked whether they have a writer of their own, and the answers.
    @exclusivity(unchecked) private var writerCache: (ObjectIdentifier?, (any JSONTapeEncodable.Type)?, ObjectIdentifier?, (any JSONTapeEncodable.Type)?)
        = (nil, nil, nil, nil)

    /// `type`'s own writer, if it has one.
    @inline(__always)
    private func tapeWriter(_ type: Any.Type) -> (any JSONTapeEncodable.Type)? {
        let id = ObjectIdentifier(type)
        if writerCache.0 == id { return writerCache.1 }
        if writerCache.2 == id { return writerCache.3 }
        let writer = type as? any JSONTapeEncodable.Type
        writerCache = (id, writer, writerCache.0, writerCache.1)
        return writer
    }

    /// Encodes `value` where one is pending through its `encode(to:)` (or a string-keyed
    /// dictionary's entries under a key strategy), never its own writer.
    func encodeThroughEncodable<T: Encodable>(_ value: T) throws {
        // `JSONEncoder` converts coding keys, not the keys of a `[String: T]`.
        if !keysAsWritten, let dictionary = value as? any JSONStringKeyedDictionaryEncodable {
            return try dictionary.streamEntries(to: self)
        }
        // Not through `runOwnCode`: a closure here costs a retain and release of every value.
        let mark = beginOwnCode()
        do {
            try value.encode(to: self)
        } catch {
            failOwnCode(mark)
            throw error
        }
        try endOwnCode(mark)
    }

    /// An array whose elements `write` puts where each is pending.
    private func writeArray<Element>(_ elements: [Element], _ write: (Element) throws -> Void) throws {
        // Run as a value's own code, so an element that fails takes the whole array back.
        try runOwnCode {
            let id = try openContainer(isObject: false)
            for element in elements {
                // The array was just opened and nothing else writes until it is done: it streams.
                guard try beginValue(inArray: id) else { throw lostPlace() }
                try write(element)
            }
        }
    }

    /// `value` as `Target`, which the caller has checked is its own type.
    @inline(__always)
    private static func same<Value, Target>(_ value: Value, as type: Target.Type) -> Target {
        unsafeBitCast(value, to: Target.self)
    }

    private func encode(_ date: Date) throws {
        switch options.dateEncodingStrategy {
        case .deferredToDate: try runOwnCode { try date.encode(to: self) }
        case .secondsSince1970: try write(date.timeIntervalSince1970)
        case .millisecondsSince1970: try write(1000 * date.timeIntervalSince1970)
        case .iso8601: try write(.string(date.formatted(.iso8601)))
        case .formatted(let style): try write(.string(style.format(date)))
        case .custom(let encode): try runOwnCode { try encode(date, self) }
        }
    }

    private func encode(_ data: Data) throws {
        switch options.dataEncodingStrategy {
        case .deferredToData: try runOwnCode { try data.encode(to: self) }
        case .base64: try write(.string(data.base64EncodedString()))
        case .custom(let encode): try runOwnCode { try encode(data, self) }
        }
    }

    /// Where the output stood when a value's own code began, to take back what it wrote if it fails.
    struct OwnCodeMark {
        let number: Int
        let output: Int
        let frames: Int
        let container: Int
        let count: Int
        let keys: Int
        let slotStart: Int
        let slotContainer: Int
    }

    /// Writes the separator and `key` (after the key strategy) for the next value of object
    /// `id`, which a generated writer opened. False when the tree takes the value instead.
    ///
    /// Written as they are, a writer's keys are its coding keys, each once, so none is checked
    /// against the others (its hash is kept all the same, for the bookkeeping that takes a
    /// key back); a key strategy can make two of them one, so then each is checked as any is.
    ///
    /// Under `.convertToSnakeCase` each key is converted once an encode (``JSONSnakeCaseKeys``),
    /// and needs no check either while no two keys have converted to one.
    func beginGeneratedValue(inObject id: Int, key: StaticString) throws -> Bool {
        if keysAsWritten {
            guard streams else { return false }
            guard id > 0 else { throw deferredError ?? lostPlace() }
            return key.withUTF8Buffer { bytes in
                beginDistinctValue(inObject: id, key: bytes, hash: JSONTapeReader.keyHash(bytes))
            }
        }
        if convertsToSnakeCase, let converted = snakeCaseKeys.converted(key) {
            guard streams else { return false }
            guard id > 0 else { throw deferredError ?? lostPlace() }
            return converted.text.withBorrowedUTF8 { bytes in
                beginDistinctValue(inObject: id, key: bytes, hash: converted.hash)
            }
        }
        return try beginValue(inObject: id, key: writtenKey(JSONTapeObject.CodingKeys(stringValue: key.description)))
    }

    /// ``beginValue(inObject:key:)`` for a key known to differ from every other of its object,
    /// in an object that streams (`id > 0`).
    @inline(__always)
    private func beginDistinctValue(inObject id: Int, key: UnsafeBufferPointer<UInt8>, hash: UInt64) -> Bool {
        if pending, !settleDanglingSlot() { return false }
        guard let index = reopen(id) else { return switchToTree() }
        keyHashes.append(hash)
        if !keySets.isEmpty { keySets[frames[index].id]?.insert(hash) }
        slotStart = writer.output.count
        slotContainer = id
        let first = frames[index].count == 0
        frames[index].count += 1
        writer.member(first: first, level: frames.count, key: key)
        pending = true
        return true
    }

    /// Opens the object of a generated writer where its value is pending: its id, -1 when it
    /// could not open (the error waits for the first write), nil when the tree takes it.
    func openGeneratedObject() -> Int? {
        containerForCurrentValue(isObject: true)
    }

    /// Opens the array of a generated writer's elements where it is pending, as ``openGeneratedObject()``.
    func openGeneratedArray() -> Int? {
        containerForCurrentValue(isObject: false)
    }

    /// Runs a value's own code (its `encode(to:)` or a custom strategy) with this encoder at the
    /// value, which is pending. A value that wrote nothing is an empty object, as in `JSONEncoder`.
    @inline(__always)
    private func runOwnCode(_ body: () throws -> Void) throws {
        let mark = beginOwnCode()
        do {
            try body()
        } catch {
            failOwnCode(mark)
            throw error
        }
        try endOwnCode(mark)
    }

    func beginOwnCode() -> OwnCodeMark {
        let number = valueCount + 1
        runningValues.append(number)
        let last = frames.last
        return OwnCodeMark(number: number, output: writer.output.count, frames: frames.count, container: last?.id ?? 0,
                           count: last?.count ?? 0, keys: keyHashes.count, slotStart: slotStart, slotContainer: slotContainer)
    }

    func endOwnCode(_ mark: OwnCodeMark) throws {
        runningValues.removeLast()
        if streams {
            guard pending else { return }
            // Its own slot is still empty, or a slot inside it whose value failed.
            if valueCount == mark.number - 1 { _ = try openContainer(isObject: true) } else { settleDanglingSlot() }
        } else if let node = tree?.node(mark.number), node.isEmpty {
            node.makeKeyed()
        }
    }

    /// What a value wrote before it failed is taken back, so a model that swallows the error
    /// leaves the slot empty, as `JSONEncoder` does, not half a value.
    func failOwnCode(_ mark: OwnCodeMark) {
        runningValues.removeLast()
        guard streams, frames.count >= mark.frames, keyHashes.count >= mark.keys,
              mark.frames == 0 || (frames[mark.frames - 1].id == mark.container && frames[mark.frames - 1].count == mark.count)
        else { return }
        if !keySets.isEmpty { for frame in frames[mark.frames...] { keySets[frame.id] = nil } }
        frames.removeSubrange(mark.frames...)
        keyHashes.removeSubrange(mark.keys...)
        writer.output.truncate(to: mark.output)
        valueCount = mark.number - 1
        slotStart = mark.slotStart
        slotContainer = mark.slotContainer
        pending = true
    }

    /// The key written for a coding key, after the key strategy.
    func writtenKey(_ key: some CodingKey) -> String {
        switch options.keyEncodingStrategy {
        case .useDefaultKeys: return key.stringValue
        case .convertToSnakeCase: return snakeCaseKeys.converted(text: key.stringValue)
        case .custom(let convert): return convert(codingPath + [key]).stringValue
        }
    }

    /// ``encodeValue(_:)`` with `key` on the coding path; no closure, so the value is
    /// borrowed rather than captured (a copy, retaining everything in it).
    func encodeValue<T: Encodable>(_ value: T, at key: some CodingKey) throws {
        codingPath.append(key)
        defer { codingPath.removeLast() }
        try encodeValue(value)
    }

    /// Runs `body` with `key` on the coding path.
    @inline(__always)
    func with<Result>(_ key: some CodingKey, _ body: () throws -> Result) rethrows -> Result {
        codingPath.append(key)
        defer { codingPath.removeLast() }
        return try body()
    }
}
