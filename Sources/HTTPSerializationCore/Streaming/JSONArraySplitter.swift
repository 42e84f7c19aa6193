/// Finds the elements of a top-level JSON array as its chunks arrive, so each can be read on
/// its own: memory is bounded by the largest element, not the document.
///
/// It follows only the array's own punctuation, string quotes and escapes, and bracket
/// depth; each element is then read by the JSON reader, which checks everything inside it.
/// An element inside one chunk is handed over in place; one split across chunks is copied
/// into a buffer that never holds more than the limit.
package struct JSONArraySplitter {
    private enum Phase {
        case beforeArray, firstElementOrEnd, beforeElement, inElement, afterElement, afterArray
    }

    package let maximumElementSize: Int
    private var phase = Phase.beforeArray
    /// Bytes of the current element from earlier chunks.
    private var held: [UInt8] = []
    private var depth = 0
    private var inString = false
    private var escaped = false
    /// Bytes before the current chunk, for offsets in errors.
    private var consumed = 0
    /// Elements handed over so far.
    package private(set) var elementCount = 0

    package init(maximumElementSize: Int) {
        self.maximumElementSize = max(maximumElementSize, 1)
    }

    /// Hands each element `bytes` completes to `element`, with its number (from 1).
    ///
    /// - Throws: ``StreamingResponseError/unreadableArray(_:)`` for a body that is not one
    ///   array, ``StreamingResponseError/elementTooLarge(index:limit:)``, or what `element`
    ///   throws.
    package mutating func split(_ bytes: UnsafeBufferPointer<UInt8>, _ element: (UnsafeBufferPointer<UInt8>, Int) throws -> Void) throws {
        guard let base = bytes.baseAddress else { return }
        let count = bytes.count
        var index = 0
        var start = 0  // where the current element starts in this chunk
        defer { consumed += count }
        while index < count {
            let byte = base[index]
            switch phase {
            case .beforeArray:
                if !Self.isWhitespace(byte) {
                    guard byte == UInt8(ascii: "[") else { throw fault(.unexpectedCharacter(byte, expected: "\"[\""), at: index) }
                    phase = .firstElementOrEnd
                }
            case .firstElementOrEnd, .beforeElement:
                if Self.isWhitespace(byte) { break }
                if byte == UInt8(ascii: "]") {
                    guard phase == .firstElementOrEnd else { throw fault(.unexpectedCharacter(byte, expected: "a value"), at: index) }
                    phase = .afterArray
                    break
                }
                phase = .inElement
                start = index
                depth = 0
                inString = false
                escaped = false
                continue  // read this byte as the element's first
            case .inElement:
                if inString {
                    if escaped {
                        escaped = false
                    } else if byte == UInt8(ascii: "\\") {
                        escaped = true
                    } else if byte == UInt8(ascii: "\"") {
                        inString = false
                        if depth == 0 { try end(base, from: start, to: index + 1, then: .afterElement, element) }
                    }
                } else {
                    switch byte {
                    case UInt8(ascii: "\""):
                        inString = true
                    case UInt8(ascii: "["), UInt8(ascii: "{"):
                        depth += 1
                    case UInt8(ascii: "]"), UInt8(ascii: "}"):
                        if depth == 0 {
                            // The array's own `]` ends a scalar element.
                            try end(base, from: start, to: index, then: .afterArray, element)
                        } else {
                            depth -= 1
                            if depth == 0 { try end(base, from: start, to: index + 1, then: .afterElement, element) }
                        }
                    case UInt8(ascii: ","):
                        if depth == 0 { try end(base, from: start, to: index, then: .beforeElement, element) }
                    default:
                        if depth == 0, Self.isWhitespace(byte) { try end(base, from: start, to: index, then: .afterElement, element) }
                    }
                }
            case .afterElement:
                if Self.isWhitespace(byte) { break }
                if byte == UInt8(ascii: ",") {
                    phase = .beforeElement
                } else if byte == UInt8(ascii: "]") {
                    phase = .afterArray
                } else {
                    throw fault(.unexpectedCharacter(byte, expected: "\",\" or \"]\""), at: index)
                }
            case .afterArray:
                if !Self.isWhitespace(byte) { throw fault(.trailingData, at: index) }
            }
            index += 1
        }
        if phase == .inElement {
            let tail = count - start
            guard held.count + tail <= maximumElementSize else {
                throw StreamingResponseError.elementTooLarge(index: elementCount + 1, limit: maximumElementSize)
            }
            held.append(contentsOf: UnsafeBufferPointer(start: base + start, count: tail))
        }
    }

    /// The body has ended: it must have closed its array (or held only whitespace, an empty body).
    package func finish() throws {
        switch phase {
        case .afterArray:
            return
        case .beforeArray:
            return  // nothing but whitespace: an empty body
        default:
            throw StreamingResponseError.truncated(reason: "the JSON array is not closed (after \(elementCount) elements)")
        }
    }

    private mutating func end(
        _ base: UnsafePointer<UInt8>, from start: Int, to end: Int, then next: Phase, _ element: (UnsafeBufferPointer<UInt8>, Int) throws -> Void
    ) throws {
        phase = next
        elementCount += 1
        let tail = UnsafeBufferPointer(start: base + start, count: end - start)
        guard held.count + tail.count <= maximumElementSize else {
            throw StreamingResponseError.elementTooLarge(index: elementCount, limit: maximumElementSize)
        }
        if held.isEmpty { return try element(tail, elementCount) }
        held.append(contentsOf: tail)
        defer { held.removeAll(keepingCapacity: held.capacity <= 1 << 16) }
        try held.withUnsafeBufferPointer { try element($0, elementCount) }
    }

    private func fault(_ reason: JSONReadingError.Reason, at index: Int) -> StreamingResponseError {
        .unreadableArray(JSONReadingError(reason, offset: consumed + index))
    }

    private static func isWhitespace(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x0A || byte == 0x0D || byte == 0x09
    }
}
