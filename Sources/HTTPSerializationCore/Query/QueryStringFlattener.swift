#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Receives the leaf pairs of a flattened parameter tree, in output order.
protocol QueryPairSink {
    /// `field` is the unescaped UTF-8 name, such as `phone[home]`; `value` is a scalar or `.null`.
    mutating func pair(field: UnsafeBufferPointer<UInt8>, value: ParameterValue)
}

/// Flattens a parameter tree into (field, value) pairs: the one traversal behind query
/// strings, form bodies, the pairs API and multipart form fields.
///
/// Iterative, so no tree is too deep for the stack; keys sorted at every level; array order
/// kept; set elements sorted by their written form.
struct QueryStringFlattener {
    let style: QueryStringStyle

    private enum Segment {
        case none
        case topLevelKey(String)
        case nestedKey(String)
        case emptyBrackets
        case index(Int)
    }

    /// One open container: its children are read in place, in output order, by `next`.
    private struct Frame {
        enum Children {
            /// Dictionary entries sorted by key.
            case entries([(key: String, value: ParameterValue)])
            case array([ParameterValue])
            case set([ParameterValue])
        }

        let children: Children
        /// The field's length for this container's own name; children truncate back to it.
        let fieldLength: Int
        let isRoot: Bool
        var next = 0
        /// Under ``QueryStringStyle/ArrayEncoding/bracketsIndexingContainers``, the index the
        /// next element would get as PHP reads `[]`: one past the elements that wrote a pair.
        var nextIndex = 0

        var count: Int {
            switch children {
            case .entries(let entries): return entries.count
            case .array(let elements), .set(let elements): return elements.count
            }
        }
    }

    func walk<Sink: QueryPairSink>(_ root: ParameterValue, into sink: inout Sink) {
        var field: [UInt8] = []
        field.reserveCapacity(64)
        guard let rootFrame = frame(for: root, fieldLength: 0, isRoot: true) else {
            emit(root, field: field, into: &sink)
            return
        }
        var stack: [Frame] = [rootFrame]
        while !stack.isEmpty {
            let top = stack.count - 1
            let index = stack[top].next
            guard index < stack[top].count else {
                stack.removeLast()
                continue
            }
            stack[top].next = index + 1
            field.removeSubrange(stack[top].fieldLength...)
            let child: ParameterValue
            switch stack[top].children {
            case .entries(let entries):
                let entry = entries[index]
                append(stack[top].isRoot ? .topLevelKey(entry.key) : .nestedKey(entry.key), to: &field)
                child = entry.value
            case .array(let elements):
                append(arraySegment(index, of: elements[index], nextIndex: &stack[top].nextIndex), to: &field)
                child = elements[index]
            case .set(let elements):
                child = elements[index]
            }
            if let childFrame = frame(for: child, fieldLength: field.count, isRoot: false) {
                stack.append(childFrame)
            } else {
                emit(child, field: field, into: &sink)
            }
        }
    }

    private func frame(for value: ParameterValue, fieldLength: Int, isRoot: Bool) -> Frame? {
        switch value {
        case .dictionary(let entries):
            var sorted = Array(entries.entries)
            sorted.sort { $0.key < $1.key }
            return Frame(children: .entries(sorted), fieldLength: fieldLength, isRoot: isRoot)
        case .array(let elements):
            return Frame(children: .array(elements.elements), fieldLength: fieldLength, isRoot: isRoot)
        case .set(let elements):
            return Frame(children: .set(sortedSetElements(elements.elements)), fieldLength: fieldLength, isRoot: isRoot)
        default:
            return nil
        }
    }

    private func emit<Sink: QueryPairSink>(_ value: ParameterValue, field: [UInt8], into sink: inout Sink) {
        if case .null = value, style.nullEncoding == .dropKey { return }
        field.withUnsafeBufferPointer { sink.pair(field: $0, value: value) }
    }

    private func arraySegment(_ index: Int, of element: ParameterValue, nextIndex: inout Int) -> Segment {
        switch style.arrayEncoding {
        case .brackets: return .emptyBrackets
        case .bracketsIndexingContainers: return containerSegment(element, nextIndex: &nextIndex)
        case .indexed: return .index(index)
        case .repeatedKeys: return .none
        }
    }

    /// `[N]` for a dictionary or list that writes a pair, N counting the elements before it
    /// that wrote one (an element that writes nothing takes no index, as PHP's `[]` takes
    /// none for it); `[]` for the rest, a set's members each counting as an element.
    private func containerSegment(_ element: ParameterValue, nextIndex: inout Int) -> Segment {
        switch element {
        case .dictionary, .array:
            guard writesPairs(element) else { return .emptyBrackets }
            defer { nextIndex += 1 }
            return .index(nextIndex)
        case .set(let members):
            nextIndex += members.elements.count(where: writesPairs)
        default:
            if writesPairs(element) { nextIndex += 1 }
        }
        return .emptyBrackets
    }

    /// Whether `value` writes at least one pair: a scalar, a null the style keeps, or a
    /// container holding one. Iterative, as the walk is.
    private func writesPairs(_ value: ParameterValue) -> Bool {
        var pending = [value]
        while let next = pending.popLast() {
            switch next {
            case .dictionary(let entries): pending.append(contentsOf: entries.entries.lazy.map(\.value))
            case .array(let elements): pending.append(contentsOf: elements.elements)
            case .set(let elements): pending.append(contentsOf: elements.elements)
            case .null where style.nullEncoding == .dropKey: continue
            default: return true
            }
        }
        return false
    }

    private func append(_ segment: Segment, to field: inout [UInt8]) {
        switch segment {
        case .none:
            break
        case .topLevelKey(let key):
            field.append(contentsOf: key.utf8)
        case .nestedKey(let key):
            switch style.keyEncoding {
            case .brackets:
                field.append(UInt8(ascii: "["))
                field.append(contentsOf: key.utf8)
                field.append(UInt8(ascii: "]"))
            case .dotted:
                field.append(UInt8(ascii: "."))
                field.append(contentsOf: key.utf8)
            }
        case .emptyBrackets:
            field.append(UInt8(ascii: "["))
            field.append(UInt8(ascii: "]"))
        case .index(let index):
            field.append(UInt8(ascii: "["))
            field.append(contentsOf: String(index).utf8)
            field.append(UInt8(ascii: "]"))
        }
    }

    /// Sets have no order of their own; sorting by the written form makes output stable.
    private func sortedSetElements(_ elements: Set<ParameterValue>) -> [ParameterValue] {
        elements
            .map { element -> (String, ParameterValue) in (sortKey(element), element) }
            .sorted { $0.0 < $1.0 }
            .map(\.1)
    }

    private func sortKey(_ element: ParameterValue) -> String {
        switch element {
        case .null: return ""
        case .array, .set, .dictionary: return QueryStringWriter(style: style).write(element)
        default: return style.text(for: element)
        }
    }
}

extension QueryStringStyle {
    /// The unescaped text of a scalar value; containers and null have none.
    package func text(for value: ParameterValue) -> String {
        switch value {
        case .string(let string): return string
        case .int(let int): return String(int)
        case .double(let double): return Self.numberText(double)
        case .decimal(let decimal): return DecimalText.string(decimal)
        case .bool(let flag):
            switch boolEncoding {
            case .numeric: return flag ? "1" : "0"
            case .literal: return flag ? "true" : "false"
            }
        case .date(let date): return text(for: date)
        case .data(let data):
            switch dataEncoding {
            case .base64: return data.base64EncodedString()
            case .custom(let format): return format(data)
            }
        case .null, .array, .set, .dictionary:
            return ""
        }
    }

    private func text(for date: Date) -> String {
        switch dateEncoding {
        case .foundationDescription:
            return date.description
        case .secondsSince1970:
            return Self.numberText(date.timeIntervalSince1970)
        case .millisecondsSince1970:
            let milliseconds = (date.timeIntervalSince1970 * 1000).rounded()
            return Int64(exactly: milliseconds).map { String($0) } ?? Self.numberText(milliseconds)
        case .iso8601:
            let seconds = date.timeIntervalSince1970
            let whole = seconds.rounded(.down) == seconds
            return date.formatted(Date.ISO8601FormatStyle(includingFractionalSeconds: !whole))
        case .custom(let format):
            return format(date)
        }
    }

    /// The shortest text for a number; integral values print without `.0`, as `NSNumber`
    /// does on Apple platforms, so `1.0` is `1`.
    static func numberText(_ double: Double) -> String {
        if double.isFinite, double.rounded() == double, abs(double) < 1e15 {
            return String(Int64(double))
        }
        return double.description
    }
}
