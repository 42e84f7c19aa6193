/// The memory of one parse: the UTF-8 text and the tape's words, each in an allocation this
/// object owns and frees when it goes.
///
/// A reader may keep the two addresses for as long as it keeps this object: they come from
/// `allocate`, not from a `withUnsafe…` closure, so nothing but `deinit` ends them.
@usableFromInline
package final class JSONTapeStorage {
    /// The UTF-8 text; offsets on the tape count from here.
    @usableFromInline package let bytes: UnsafeBufferPointer<UInt8>
    /// Two words per value (see ``JSONTape``).
    @usableFromInline package let words: UnsafeBufferPointer<UInt64>

    /// Copies `text` and takes ownership of `words`, which must come from `allocate`.
    init(copying text: UnsafeRawBufferPointer, words: consuming JSONTapeWords) {
        let copy = UnsafeMutableBufferPointer<UInt8>.allocate(capacity: max(text.count, 1))
        if let source = text.baseAddress {
            UnsafeMutableRawPointer(copy.baseAddress!).copyMemory(from: source, byteCount: text.count)
        }
        bytes = UnsafeBufferPointer(rebasing: UnsafeBufferPointer(copy)[..<text.count])
        self.words = words.release()
    }

    /// Copies the text and the words `reader` reads, for a document that must outlive them.
    package init(copying reader: JSONTapeReader) {
        let text = UnsafeMutableBufferPointer<UInt8>.allocate(capacity: max(reader.byteCount, 1))
        text.baseAddress!.initialize(from: reader.base, count: reader.byteCount)
        bytes = UnsafeBufferPointer(rebasing: UnsafeBufferPointer(text)[..<reader.byteCount])
        let words = UnsafeMutableBufferPointer<UInt64>.allocate(capacity: max(reader.words.count, 1))
        if let source = reader.words.baseAddress { words.baseAddress!.initialize(from: source, count: reader.words.count) }
        self.words = UnsafeBufferPointer(rebasing: UnsafeBufferPointer(words)[..<reader.words.count])
    }

    deinit {
        UnsafeMutablePointer(mutating: bytes.baseAddress!).deallocate()
        UnsafeMutablePointer(mutating: words.baseAddress!).deallocate()
    }
}

// Sendable: both buffers are written only before `init` returns and only read after it;
// they are freed in `deinit`, when no reference is left to read them through.
extension JSONTapeStorage: @unchecked Sendable {}

/// The tape's words while the scanner writes them: one allocation, grown by doubling, freed
/// here unless ``release()`` hands it to a ``JSONTapeStorage``.
package struct JSONTapeWords: ~Copyable {
    private var base: UnsafeMutablePointer<UInt64>
    private(set) var count = 0
    private var capacity: Int

    init(capacity: Int) {
        self.capacity = max(capacity, 2)
        base = .allocate(capacity: self.capacity)
    }

    @inline(__always)
    mutating func append(_ first: UInt64, _ second: UInt64) {
        if count + 2 > capacity { grow() }
        (base + count).initialize(to: first)
        (base + count + 1).initialize(to: second)
        count += 2
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
            byteCount: text.count, words: UnsafeBufferPointer(start: base, count: count)))
    }

    /// The words written so far; the caller now owns their allocation.
    consuming func release() -> UnsafeBufferPointer<UInt64> {
        let words = UnsafeBufferPointer(start: base, count: count)
        discard self
        return words
    }

    deinit {
        base.deallocate()
    }
}
