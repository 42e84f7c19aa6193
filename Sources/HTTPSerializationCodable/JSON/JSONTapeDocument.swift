import HTTPSerializationCore

/// A parsed document whose tape stays readable for as long as anything holds it.
///
/// A decode reads the caller's bytes in place, inside the closure they are valid in. A
/// `Decoder` or container may outlive the `decode` call that made it (a type can keep its
/// decoder), so every one reads through this object, and before the bytes go away
/// ``keepReadable()`` moves the document to a copy it owns if anything else still holds it.
final class JSONTapeDocument {
    // Written only by the decode that made the document, before it returns, while no other
    // decode can run on it (a Decoder is not Sendable), so the runtime's checks are skipped.
    /// Where the tape and its text are now.
    @exclusivity(unchecked) private(set) var reader: JSONTapeReader
    /// The copy `reader` points into once the document owns its memory.
    private var storage: JSONTapeStorage?
    /// How many decodes that read this document have returned: an object opened during a
    /// decode checks the count has not moved before each read (``CheckedDecoder``), so one
    /// kept past its decode traps. A document kept past its decode (``keepReadable()``) owns its
    /// memory, so what a kept decoder opens later reads it safely.
    @exclusivity(unchecked) var endedDecodes: UInt = 0

    /// A document over memory it does not own: valid until ``keepReadable()`` is due.
    init(borrowing reader: JSONTapeReader) {
        self.reader = reader
    }

    /// A document that owns its tape.
    init(owning tape: JSONTape) {
        storage = tape.storage
        reader = tape.reader
    }

    /// Copies the borrowed text and tape into memory this document owns, and reads there from
    /// now on; called while the borrowed memory is still valid.
    func keepReadable() {
        guard storage == nil else { return }
        let copy = JSONTapeStorage(copying: reader)
        storage = copy
        reader = JSONTapeReader(base: copy.bytes.baseAddress!, byteCount: copy.bytes.count, words: copy.words, overflow: copy.overflow)
    }
}
