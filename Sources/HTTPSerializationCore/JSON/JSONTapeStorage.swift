/// The memory of one parse: the UTF-8 text, the tape's words and their overflow, each in an
/// allocation this object owns and frees when it goes.
///
/// A reader may keep the addresses for as long as it keeps this object: they are allocated,
/// not lent by a `withUnsafe…` closure, so nothing but `deinit` ends them.
@usableFromInline
package final class JSONTapeStorage {
    /// The UTF-8 text; offsets on the tape count from here.
    @usableFromInline package let bytes: UnsafeBufferPointer<UInt8>
    /// One word per value (see ``JSONTape``).
    @usableFromInline package let words: UnsafeBufferPointer<UInt64>
    /// The pairs of wide entries.
    @usableFromInline package let overflow: UnsafeBufferPointer<UInt64>

    /// Copies `text` and takes ownership of `words`.
    init(copying text: UnsafeRawBufferPointer, words: consuming JSONTapeWords) {
        let copy = UnsafeMutableBufferPointer<UInt8>.allocate(capacity: max(text.count, 1))
        if let source = text.baseAddress {
            UnsafeMutableRawPointer(copy.baseAddress!).copyMemory(from: source, byteCount: text.count)
        }
        bytes = UnsafeBufferPointer(rebasing: UnsafeBufferPointer(copy)[..<text.count])
        let (entries, overflow) = words.release()
        self.words = entries
        self.overflow = overflow
    }

    /// Copies the text and the words `reader` reads, for a document that must outlive them.
    package init(copying reader: JSONTapeReader) {
        let text = UnsafeMutableBufferPointer<UInt8>.allocate(capacity: max(reader.byteCount, 1))
        text.baseAddress!.initialize(from: reader.base, count: reader.byteCount)
        bytes = UnsafeBufferPointer(rebasing: UnsafeBufferPointer(text)[..<reader.byteCount])
        words = Self.copy(reader.words)
        overflow = Self.copy(reader.overflow)
    }

    /// `words` in an allocation of their own (at least one word, so the address is never nil).
    private static func copy(_ words: UnsafeBufferPointer<UInt64>) -> UnsafeBufferPointer<UInt64> {
        let copy = UnsafeMutableBufferPointer<UInt64>.allocate(capacity: max(words.count, 1))
        if let source = words.baseAddress { copy.baseAddress!.initialize(from: source, count: words.count) }
        return UnsafeBufferPointer(rebasing: UnsafeBufferPointer(copy)[..<words.count])
    }

    deinit {
        UnsafeMutablePointer(mutating: bytes.baseAddress!).deallocate()
        UnsafeMutablePointer(mutating: words.baseAddress!).deallocate()
        overflow.baseAddress.map { UnsafeMutablePointer(mutating: $0).deallocate() }
    }
}

// Sendable: the three buffers are written only before `init` returns and only read after it;
// they are freed in `deinit`, when no reference is left to read them through.
extension JSONTapeStorage: @unchecked Sendable {}

/// The tape's words while the scanner writes them: one allocation, grown by doubling, freed
/// here unless ``release()`` hands it to a ``JSONTapeStorage``; and the overflow of wide
/// entries, allocated only when an entry is wide.
package struct JSONTapeWords: ~Copyable {
    private var base: UnsafeMutablePointer<UInt64>
    private(set) var count = 0
    private var capacity: Int
    private var overflow: UnsafeMutablePointer<UInt64>?
    private var overflowCount = 0

    init(capacity: Int) {
        self.capacity = max(capacity, 2)
        base = .allocate(capacity: self.capacity)
    }

    @inline(__always)
    mutating func append(_ word: UInt64) {
        if count == capacity { grow() }
        (base + count).initialize(to: word)
        count += 1
    }

    /// The wide form of an entry with these fields: its kind and flags from `low`, the rest
    /// added to the overflow.
    mutating func wide(_ low: UInt64, length: Int, offset: Int) -> UInt64 {
        // Rare (a string of 64 MiB, a document past 4 GiB): grown a pair at a time to powers of two.
        if overflowCount == 0 || overflowCount & (overflowCount - 1) == 0 {
            let larger = UnsafeMutablePointer<UInt64>.allocate(capacity: max(2 * overflowCount, 2))
            if let overflow {
                larger.moveInitialize(from: overflow, count: overflowCount)
                overflow.deallocate()
            }
            overflow = larger
        }
        let pair = UInt64(overflowCount / 2)
        (overflow! + overflowCount).initialize(to: UInt64(length))
        (overflow! + overflowCount + 1).initialize(to: UInt64(offset))
        overflowCount += 2
        return low & JSONTape.kindAndFlagsMask | JSONTape.wideBit | pair << JSONTape.lengthShift
    }

    @inline(__always)
    subscript(index: Int) -> UInt64 {
        get {
            precondition(index >= 0 && index < count, "tape index out of range")
            return base[index]
        }
        set {
            precondition(index >= 0 && index < count, "tape index out of range")
            base[index] = newValue
        }
    }

    private mutating func grow() {
        let larger = capacity * 2
        let moved = UnsafeMutablePointer<UInt64>.allocate(capacity: larger)
        moved.moveInitialize(from: base, count: count)
        base.deallocate()
        base = moved
        capacity = larger
    }

    /// Runs `body` with a reader over `text` and these words, which stay allocated meanwhile.
    borrowing func withReader<Result>(text: UnsafeRawBufferPointer, _ body: (JSONTapeReader) -> Result) -> Result {
        body(JSONTapeReader(
            base: text.baseAddress?.assumingMemoryBound(to: UInt8.self) ?? UnsafePointer(bitPattern: 1)!,
            byteCount: text.count, words: UnsafeBufferPointer(start: base, count: count),
            overflow: UnsafeBufferPointer(start: overflow, count: overflowCount)))
    }

    /// The words written so far and the overflow (nil if no entry is wide), whose
    /// allocations the caller now owns.
    consuming func release() -> (words: UnsafeBufferPointer<UInt64>, overflow: UnsafeBufferPointer<UInt64>) {
        let words = UnsafeBufferPointer(start: base, count: count)
        let overflow = UnsafeBufferPointer(start: overflow, count: overflowCount)
        discard self
        return (words, overflow)
    }

    deinit {
        base.deallocate()
        overflow?.deallocate()
    }
}
