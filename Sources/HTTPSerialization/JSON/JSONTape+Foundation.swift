import Foundation

// The one part of the JSON engine that builds Foundation class types: the `Any` graph of
// `JSONResponseSerializer`. It moves to the Foundation layer with the module split.

extension JSONTape {
    /// The graph `JSONSerialization.jsonObject(with:)` returns for the same document, so every
    /// cast answers the same: `[String: Any]`, `[Any]`, `String`, `NSNumber` for numbers and
    /// booleans (booleans are Foundation's boolean numbers), `NSNull`.
    ///
    /// Built without recursion. With `removingNulls`, null dictionary values and null array
    /// elements are left out while building (AFNetworking's rule), never in a second pass.
    func foundationObject(removingNulls: Bool) -> Any {
        withReader { JSONFoundationBuilder(tape: $0, removingNulls: removingNulls).build() }
    }
}

private struct JSONFoundationBuilder {
    let tape: JSONTapeReader
    let removingNulls: Bool
    // Immutable objects, so one of each serves the whole document.
    let trueNumber = NSNumber(value: true)
    let falseNumber = NSNumber(value: false)
    let null = NSNull()

    private struct Frame {
        let isObject: Bool
        var remaining: Int
        var elements: [Any] = []
        var entries: [String: Any] = [:]
        var key = ""

        var value: Any { isObject ? entries as Any : elements as Any }
    }

    func build() -> Any {
        var frames: [Frame] = []
        var entry = 0
        while true {
            if let top = frames.indices.last, frames[top].isObject {
                frames[top].key = tape.string(entry)
                entry += 1
            }
            let value: Any
            let count = tape.length(entry)
            switch tape.kind(entry) {
            case .object, .array:
                let isObject = tape.kind(entry) == .object
                entry += 1
                if count > 0 {
                    var frame = Frame(isObject: isObject, remaining: count)
                    if isObject { frame.entries.reserveCapacity(count) } else { frame.elements.reserveCapacity(count) }
                    frames.append(frame)
                    continue
                }
                value = isObject ? [String: Any]() as Any : [Any]() as Any
            case .string:
                value = tape.string(entry)
                entry += 1
            case .number:
                value = number(entry)
                entry += 1
            case .true:
                value = trueNumber
                entry += 1
            case .false:
                value = falseNumber
                entry += 1
            case .null:
                entry += 1
                value = null
                if removingNulls, let top = frames.indices.last {
                    // Left out of its container, which still counts it.
                    frames[top].remaining -= 1
                    if frames[top].remaining > 0 { continue }
                    let done = frames.removeLast()
                    if let root = deliver(done.value, to: &frames) { return root }
                    continue
                }
            }
            if let finished = deliver(value, to: &frames) { return finished }
        }
    }

    /// Adds `value` to the innermost container, closing every container that is then full
    /// (each is a value for its parent); returns the root once it is complete.
    private func deliver(_ value: Any, to frames: inout [Frame]) -> Any? {
        var value = value
        while let top = frames.indices.last {
            if frames[top].isObject {
                let key = frames[top].key
                frames[top].entries[key] = value
            } else {
                frames[top].elements.append(value)
            }
            frames[top].remaining -= 1
            if frames[top].remaining > 0 { return nil }
            value = frames.removeLast().value
        }
        return value
    }

    private func number(_ entry: Int) -> NSNumber {
        switch tape.number(entry) {
        case .int(let int): return NSNumber(value: int)
        case .uint64(let unsigned): return NSNumber(value: unsigned)
        case .decimal(let decimal): return NSDecimalNumber(decimal: decimal)
        case .double(let double): return NSNumber(value: double)
        }
    }
}
