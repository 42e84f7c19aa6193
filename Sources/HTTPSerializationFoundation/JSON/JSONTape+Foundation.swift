import Foundation
import HTTPSerializationCore

// The one part of the JSON engine that builds Foundation class types: the `Any` graph of
// `JSONResponseSerializer`. It moves to the Foundation layer with the module split.

extension JSONTapeReader {
    /// The graph `JSONSerialization.jsonObject(with:)` returns for the same document, so every
    /// cast answers the same: `[String: Any]`, `[Any]`, `String`, `NSNumber` for numbers and
    /// booleans (booleans are Foundation's boolean numbers), `NSNull`; of the value at `root`,
    /// the whole document by default.
    ///
    /// Built without recursion. With `removingNulls`, null dictionary values and null array
    /// elements are left out while building (AFNetworking's rule), never in a second pass.
    func foundationObject(removingNulls: Bool, from root: Int = 0) -> Any {
        build(with: JSONFoundationBuilder(removesNulls: removingNulls), from: root)
    }
}

private struct JSONFoundationBuilder: JSONTapeBuilding {
    let removesNulls: Bool
    // Immutable objects, so one of each serves the whole document.
    let trueNumber = NSNumber(value: true)
    let falseNumber = NSNumber(value: false)
    let null = NSNull()
    let smallIntegers = SmallIntegerNumbers()

    func scalar(_ entry: Int, in tape: JSONTapeReader) -> Any {
        switch tape.kind(entry) {
        case .string: return tape.string(entry)
        case .number:
            switch tape.number(entry) {
            case .int(let int): return SmallIntegerNumbers.range.contains(int) ? smallIntegers.number(int) : NSNumber(value: int)
            case .uint64(let unsigned): return NSNumber(value: unsigned)
            case .decimal(let decimal): return NSDecimalNumber(decimal: decimal)
            case .double(let double): return NSNumber(value: double)
            }
        case .true: return trueNumber
        case .false: return falseNumber
        case .null, .object, .array: return null
        }
    }

    func makeArray(capacity: Int) -> [Any] {
        var array: [Any] = []
        array.reserveCapacity(capacity)
        return array
    }

    func makeObject(capacity: Int) -> [String: Any] { Dictionary(minimumCapacity: capacity) }
    func append(_ value: consuming Any, to array: inout [Any]) { array.append(value) }
    func insert(_ value: consuming Any, forKey key: String, into object: inout [String: Any]) { object[key] = value }
    func removeValue(forKey key: String, from object: inout [String: Any]) { object.removeValue(forKey: key) }
    func finish(_ array: [Any]) -> Any { array }
    func finish(_ object: [String: Any]) -> Any { object }

    // Placeholders are `Int`s, which an `Any` holds inline: copying the template retains none.
    func makeShape(keys: [String]) -> (template: [String: Any], slots: [Dictionary<String, Any>.Index])? {
        JSONDictionaryShape.make(keys: keys, placeholder: 0)
    }
    func makeObject(shape: [String: Any]) -> [String: Any] { shape }
    func set(_ value: consuming Any, at slot: Dictionary<String, Any>.Index, in object: inout [String: Any]) {
        object.values[slot] = value
    }
}

/// One `NSNumber` per small integer in a document, made when first seen: counts, flags and
/// codes repeat, and on Linux every `NSNumber` is an allocation to make and later free
/// (Darwin's tagged pointers avoid both). Numbers are immutable, so sharing one is invisible.
///
/// The table grows with the largest integer seen (64 slots, doubling to 1,024), so a small
/// document pays for a small table; it holds plain retained pointers, so freeing it releases
/// each filled slot and nothing else.
private final class SmallIntegerNumbers {
    static let range = 0..<1024
    private var slots: UnsafeMutablePointer<Unmanaged<NSNumber>?>?
    private var capacity = 0

    deinit {
        guard let slots else { return }
        for index in 0..<capacity { slots[index]?.release() }
        slots.deallocate()
    }

    func number(_ value: Int) -> NSNumber {
        if value >= capacity { grow(past: value) }
        let slots = slots.unsafelyUnwrapped
        if let number = slots[value] { return number.takeUnretainedValue() }
        let number = NSNumber(value: value)
        slots[value] = .passRetained(number)
        return number
    }

    private func grow(past value: Int) {
        var newCapacity = max(capacity, 64)
        while newCapacity <= value { newCapacity *= 2 }
        let grown = UnsafeMutablePointer<Unmanaged<NSNumber>?>.allocate(capacity: newCapacity)
        if let slots {
            grown.moveInitialize(from: slots, count: capacity)
            slots.deallocate()
        }
        (grown + capacity).initialize(repeating: nil, count: newCapacity - capacity)
        slots = grown
        capacity = newCapacity
    }
}
