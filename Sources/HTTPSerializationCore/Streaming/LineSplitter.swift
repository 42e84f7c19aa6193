#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Splits a body into lines (or records) as its chunks arrive, each line at most
/// `maximumLength` bytes, wherever the chunk boundaries fall.
///
/// A line inside one chunk is handed over in place; only a line split across chunks is
/// copied, into a buffer that never holds more than the limit.
package struct LineSplitter {
    /// What ends a line.
    package enum Terminator: Sendable {
        /// LF, with a CR right before it dropped (JSON Lines, NDJSON).
        case lineFeed
        /// RS (0x1E) *starts* each record (RFC 7464 JSON text sequences); the bytes between two
        /// RSs are one record.
        case recordSeparator
        /// CR, LF or CRLF, each one line end (the event-stream format).
        case anyLineEnd
    }

    package let terminator: Terminator
    package let maximumLength: Int
    /// The unfinished line carried over from earlier chunks.
    private var held: [UInt8] = []
    /// A chunk ended on CR (`anyLineEnd`): an LF starting the next one belongs to it.
    private var afterCR = false
    /// Whether an RS has been seen (`recordSeparator`).
    private var sawSeparator = false
    /// Lines handed over so far; the next line's number is one more.
    package private(set) var lineCount = 0

    package init(terminator: Terminator, maximumLength: Int) {
        self.terminator = terminator
        self.maximumLength = max(maximumLength, 1)
    }

    /// Hands each line `bytes` completes to `line`, with its number (from 1) and without its
    /// terminator, and keeps the unfinished rest.
    ///
    /// - Throws: ``StreamingResponseError/lineTooLong(line:limit:)`` as soon as a line passes
    ///   the limit, or what `line` throws.
    package mutating func split(
        _ bytes: UnsafeBufferPointer<UInt8>, _ line: (UnsafeBufferPointer<UInt8>, Int) throws -> Void
    ) throws {
        guard let base = bytes.baseAddress, !bytes.isEmpty else { return }
        let count = bytes.count
        var start = 0
        if afterCR {
            afterCR = false
            if base[0] == 0x0A { start = 1 }
        }
        while start < count {
            guard let (end, next) = findEnd(base, from: start, count: count) else {
                try hold(UnsafeBufferPointer(start: base + start, count: count - start))
                return
            }
            var contentEnd = end
            if terminator == .lineFeed {
                if contentEnd > start, base[contentEnd - 1] == 0x0D {
                    contentEnd -= 1
                } else if contentEnd == start, held.last == 0x0D {
                    held.removeLast()
                }
            }
            try emit(UnsafeBufferPointer(start: base + start, count: contentEnd - start), line)
            start = next
        }
    }

    /// The bytes after the last terminator, if any: a last line the body did not end, which
    /// the caller reads or drops as its format says. The splitter is empty afterwards.
    package mutating func takeUnterminated() -> [UInt8]? {
        defer { held = [] }
        guard !held.isEmpty else { return nil }
        if terminator == .lineFeed, held.last == 0x0D { held.removeLast() }
        return held
    }

    /// The number the unterminated line would have.
    package var nextLineNumber: Int { lineCount + 1 }

    private mutating func emit(_ tail: UnsafeBufferPointer<UInt8>, _ line: (UnsafeBufferPointer<UInt8>, Int) throws -> Void) throws {
        // A text sequence starts with RS: the nothing before it is not a record.
        if terminator == .recordSeparator, !sawSeparator {
            sawSeparator = true
            if held.isEmpty, tail.isEmpty { return }
        }
        lineCount += 1
        if held.isEmpty {
            guard tail.count <= maximumLength else { throw StreamingResponseError.lineTooLong(line: lineCount, limit: maximumLength) }
            try line(tail, lineCount)
            return
        }
        guard held.count + tail.count <= maximumLength else {
            throw StreamingResponseError.lineTooLong(line: lineCount, limit: maximumLength)
        }
        held.append(contentsOf: tail)
        defer { held.removeAll(keepingCapacity: held.capacity <= 1 << 16) }
        try held.withUnsafeBufferPointer { try line($0, lineCount) }
    }

    private mutating func hold(_ tail: UnsafeBufferPointer<UInt8>) throws {
        // One byte of slack for a CR whose LF is in the next chunk.
        let slack = terminator == .lineFeed ? 1 : 0
        guard held.count + tail.count <= maximumLength + slack else {
            throw StreamingResponseError.lineTooLong(line: lineCount + 1, limit: maximumLength)
        }
        held.append(contentsOf: tail)
    }

    /// Where the next line ends in `base[start..<count]` and where the one after it starts.
    private mutating func findEnd(_ base: UnsafePointer<UInt8>, from start: Int, count: Int) -> (end: Int, next: Int)? {
        switch terminator {
        case .lineFeed, .recordSeparator:
            let byte: Int32 = terminator == .lineFeed ? 0x0A : 0x1E
            guard let hit = memchr(base + start, byte, count - start) else { return nil }
            let end = UnsafeRawPointer(hit) - UnsafeRawPointer(base)
            return (end, end + 1)
        case .anyLineEnd:
            var index = start
            while index < count {
                let byte = base[index]
                if byte == 0x0A { return (index, index + 1) }
                if byte == 0x0D {
                    if index + 1 < count {
                        return (index, base[index + 1] == 0x0A ? index + 2 : index + 1)
                    }
                    afterCR = true
                    return (index, index + 1)
                }
                index += 1
            }
            return nil
        }
    }
}
