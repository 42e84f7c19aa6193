#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

extension JSONTape {
    /// Parses a JSON document into a tape that owns a copy of its text: strict RFC 8259,
    /// UTF-8 (or UTF-16/32, converted), at most `maximumDepth` levels of arrays and objects.
    ///
    /// For a tape that must outlive the call; a reading that ends with the call uses
    /// ``withParsed(_:maximumDepth:_:)``, which copies nothing.
    package static func parse(_ data: Data, maximumDepth: Int, narrowLimit: Int = JSONTape.narrowLimit) throws(JSONReadingError) -> JSONTape {
        try withScanned(data, maximumDepth: maximumDepth, narrowLimit: narrowLimit) { raw, words in
            JSONTape(storage: JSONTapeStorage(copying: raw, words: words))
        }
    }

    /// Parses a JSON document and runs `body` with a reader over the caller's own bytes.
    ///
    /// Nothing is copied, so the reader, and every address it hands out, is valid only until
    /// `body` returns; a value that must outlive it copies what it needs (see
    /// ``JSONTapeStorage/init(copying:)``).
    package static func withParsed<Result>(
        _ data: Data, maximumDepth: Int, _ body: (JSONTapeReader) -> Result
    ) throws(JSONReadingError) -> Result {
        try withScanned(data, maximumDepth: maximumDepth) { raw, words in
            words.withReader(text: raw, body)
        }
    }

    /// ``withParsed(_:maximumDepth:_:)`` over UTF-8 bytes the caller holds (a line of a
    /// streamed body): no encoding detection, and a leading byte-order mark is refused as JSON
    /// text would refuse it.
    package static func withParsed<Result>(
        utf8 bytes: UnsafeBufferPointer<UInt8>, maximumDepth: Int, _ body: (JSONTapeReader) -> Result
    ) throws(JSONReadingError) -> Result {
        var scanner = JSONScanner(bytes, maximumDepth: maximumDepth)
        try scanner.scan(from: 0)
        return scanner.takeWords().withReader(text: UnsafeRawBufferPointer(bytes), body)
    }

    /// Scans `data` and hands its UTF-8 text and the words to `body`, inside the one closure
    /// the text's address is valid in.
    private static func withScanned<Result>(
        _ data: Data, maximumDepth: Int, narrowLimit: Int = JSONTape.narrowLimit, _ body: (UnsafeRawBufferPointer, consuming JSONTapeWords) -> Result
    ) throws(JSONReadingError) -> Result {
        let (bytes, start) = try JSONTextEncoding.utf8(data)
        // `withUnsafeBytes` rethrows untyped errors, so the typed one travels as a result.
        let scanned = bytes.withUnsafeBytes { raw -> Swift.Result<Result, JSONReadingError> in
            var scanner = JSONScanner(raw.bindMemory(to: UInt8.self), maximumDepth: maximumDepth, narrowLimit: narrowLimit)
            do throws(JSONReadingError) {
                try scanner.scan(from: start)
            } catch {
                return .failure(error)
            }
            return .success(body(raw, scanner.takeWords()))
        }
        return try scanned.get()
    }

    /// A reader of this tape; its addresses are valid while the tape (its storage) lives.
    package var reader: JSONTapeReader {
        JSONTapeReader(base: storage.bytes.baseAddress!, byteCount: storage.bytes.count, words: storage.words, overflow: storage.overflow)
    }
}

/// Reads entries and turns strings and numbers into Swift values; valid while the
/// ``JSONTape`` it came from (its ``JSONTapeStorage``) lives.
@usableFromInline
package struct JSONTapeReader {
    @usableFromInline package let base: UnsafePointer<UInt8>
    /// How many bytes of text `base` starts.
    @usableFromInline package let byteCount: Int
    @usableFromInline package let words: UnsafeBufferPointer<UInt64>
    /// The pairs of wide entries (see ``JSONTape``).
    @usableFromInline package let overflow: UnsafeBufferPointer<UInt64>

    @inlinable package init(base: UnsafePointer<UInt8>, byteCount: Int, words: UnsafeBufferPointer<UInt64>,
                            overflow: UnsafeBufferPointer<UInt64>) {
        self.base = base
        self.byteCount = byteCount
        self.words = words
        self.overflow = overflow
    }

    /// Whether the document is an array or an object (not a bare scalar).
    package var isContainer: Bool {
        guard !words.isEmpty else { return false }
        let kind = kind(0)
        return kind == .object || kind == .array
    }

    @inlinable @inline(__always) package func kind(_ entry: Int) -> JSONTape.Kind {
        JSONTape.Kind(rawValue: UInt8(truncatingIfNeeded: words[entry] & JSONTape.kindMask))!
    }
    @inlinable @inline(__always) package func flags(_ entry: Int) -> UInt8 {
        UInt8(truncatingIfNeeded: words[entry] >> JSONTape.flagsShift & JSONTape.flagsMask)
    }
    /// A string's or number's byte length, or a container's count.
    @inlinable @inline(__always) package func length(_ entry: Int) -> Int {
        let word = words[entry]
        guard word & JSONTape.wideBit == 0 else { return Int(overflow[2 * Int(word >> JSONTape.lengthShift)]) }
        return Int(word >> JSONTape.lengthShift & JSONTape.lengthMask)
    }
    /// A string's or number's byte offset, or a container's end (the entry after its last value).
    @inlinable @inline(__always) package func offset(_ entry: Int) -> Int {
        let word = words[entry]
        guard word & JSONTape.wideBit == 0 else { return Int(overflow[2 * Int(word >> JSONTape.lengthShift) + 1]) }
        return Int(word >> 32)
    }

    /// The entry after the value at `entry` (and after everything inside it).
    @inlinable @inline(__always) package func next(_ entry: Int) -> Int {
        let kind = UInt8(truncatingIfNeeded: words[entry] & JSONTape.kindMask)
        return kind == JSONTape.Kind.object.rawValue || kind == JSONTape.Kind.array.rawValue ? offset(entry) : entry + 1
    }

    /// The raw bytes of a string's text (escapes not decoded) or a number.
    @inlinable @inline(__always) package func text(_ entry: Int) -> UnsafeBufferPointer<UInt8> {
        UnsafeBufferPointer(start: base + offset(entry), count: length(entry))
    }

    // MARK: Strings

    /// Whether `count` bytes at `a` and `b` are equal.
    ///
    /// Keys are short, so the last word is compared overlapping what came before, and a key
    /// under eight bytes is read as one word, rather than finished byte by byte.
    @inlinable @inline(__always)
    package static func equal(_ a: UnsafePointer<UInt8>, _ b: UnsafePointer<UInt8>?, count: Int) -> Bool {
        guard let b else { return count == 0 }
        guard count >= 8 else { return count == 0 || ShortBytes.word(a, count: count) == ShortBytes.word(b, count: count) }
        let left = UnsafeRawPointer(a), right = UnsafeRawPointer(b)
        var index = 0
        while index &+ 8 < count {
            if left.loadUnaligned(fromByteOffset: index, as: UInt64.self) != right.loadUnaligned(fromByteOffset: index, as: UInt64.self) { return false }
            index &+= 8
        }
        return left.loadUnaligned(fromByteOffset: count &- 8, as: UInt64.self) == right.loadUnaligned(fromByteOffset: count &- 8, as: UInt64.self)
    }

    /// A hash of a key's bytes for duplicate checks: its length, and its first and last eight
    /// bytes (which, for a key of up to sixteen bytes, are all of them). Short keys, the usual
    /// ones, are read in at most two loads, never byte by byte.
    @inlinable package static func keyHash(_ text: UnsafeBufferPointer<UInt8>) -> UInt64 {
        let multiplier: UInt64 = 0x9E37_79B9_7F4A_7C15
        var hash = UInt64(text.count) &* multiplier
        guard let base = text.baseAddress, text.count > 0 else { return hash ^ hash >> 29 }
        let raw = UnsafeRawPointer(base)
        let count = text.count
        let word: UInt64
        if count >= 8 {
            hash = (hash ^ raw.loadUnaligned(as: UInt64.self)) &* multiplier
            word = raw.loadUnaligned(fromByteOffset: count - 8, as: UInt64.self)
        } else {
            word = ShortBytes.word(base, count: count)
        }
        hash = (hash ^ word) &* multiplier
        return hash ^ hash >> 29
    }

    /// The string at `entry`, escapes decoded.
    @usableFromInline package func string(_ entry: Int) -> String {
        Self.string(text(entry), flags: flags(entry), readable: byteCount - offset(entry))
    }

    /// The string whose scanned text (between its quotes) is `raw`, with the lexer's `flags`;
    /// `readable` bytes from `raw`'s start may be read (the rest of the document).
    @inline(__always)
    package static func string(_ raw: UnsafeBufferPointer<UInt8>, flags: UInt8, readable: Int) -> String {
        if flags & JSONTape.hasEscapes == 0 { return scannedString(raw, isASCII: flags & JSONTape.hasNonASCII == 0) }
        // Decoded text is never longer than its escaped form, and is valid UTF-8: the escapes
        // were checked (surrogates come in pairs) and the rest validated by the scanner.
        return withUnsafeTemporaryAllocation(of: UInt8.self, capacity: raw.count + unescapeSlack) { buffer in
            let (count, escapedNonASCII) = unescape(raw, readable: readable, into: buffer)
            let decoded = UnsafeBufferPointer(rebasing: buffer[..<count])
            return scannedString(decoded, isASCII: flags & JSONTape.hasNonASCII == 0 && !escapedNonASCII)
        }
    }

    /// Bit `i` set where byte `i` of the 64 at `block` is a backslash.
    @inline(__always)
    static func backslashMask(_ block: UnsafeRawPointer) -> UInt64 {
        var mask: UInt64 = 0
        for index in 0..<8 {
            let word = block.loadUnaligned(fromByteOffset: index &* 8, as: UInt64.self).littleEndian ^ 0x5C5C_5C5C_5C5C_5C5C
            // Exact: the high bit of each zero byte, and of no other (no borrow runs between bytes).
            let zero = ~(((word & 0x7F7F_7F7F_7F7F_7F7F) &+ 0x7F7F_7F7F_7F7F_7F7F) | word) & 0x8080_8080_8080_8080
            // One bit a byte, gathered into the low eight bits.
            mask |= (((zero >> 7) &* 0x0102_0408_1020_4080) >> 56) << UInt64(index &* 8)
        }
        return mask
    }

    /// A string from text the scanner has already validated as UTF-8, copied without a second
    /// validation where the standard library allows it.
    @inline(__always)
    package static func scannedString(_ text: UnsafeBufferPointer<UInt8>, isASCII: Bool) -> String {
        if #available(macOS 26, iOS 26, tvOS 26, watchOS 26, visionOS 26, *) {
            return String(copying: UTF8Span(unchecked: text.span, isKnownASCII: isASCII))
        }
        return String(decoding: text, as: UTF8.self)
    }

    /// How far ``unescape(_:readable:into:)`` may read past a string and write past its
    /// decoded text, when the document and the output have that room.
    package static let unescapeSlack = 144

    /// Decodes the escapes of scanned (so valid) string text; returns the bytes written, and
    /// whether a `\u` escape wrote a non-ASCII character.
    ///
    /// `output` holds at least `raw.count` bytes; decoded text is never longer than its source.
    /// `readable` is how many bytes from `raw`'s start may be read (the rest of the document).
    /// Where `readable` and `output` reach ``unescapeSlack`` bytes past, the text goes in
    /// 64-byte blocks: each block is copied whole, then each escape in it (found in one bitmask)
    /// is decoded in place and the rest of the block copied again after it. Prose escapes every
    /// few bytes at no fixed place, and a branch per escape would be mispredicted; here the
    /// only such branch is the end of a block's escapes.
    package static func unescape(_ raw: UnsafeBufferPointer<UInt8>, readable: Int, into output: UnsafeMutableBufferPointer<UInt8>) -> (count: Int, escapedNonASCII: Bool) {
        guard let source = raw.baseAddress, let target = output.baseAddress else { return (0, false) }
        precondition(output.count >= raw.count && readable >= raw.count, "unescape needs room for the whole source")
        let count = raw.count
        var read = 0
        var written = 0
        var escapedNonASCII = false
        func hex4(_ at: Int) -> UInt32 {
            var value: UInt32 = 0
            for index in at..<(at + 4) { value = value << 4 | UInt32(JSONUTF8.hexValue(source[index])!) }
            return value
        }
        /// Writes the character of the `\u` escape (or surrogate pair) whose backslash is at
        /// `backslash`; returns the source bytes it took, 6 or 12.
        @inline(__always) func unicodeEscape(at backslash: Int) -> Int {
            var scalar = hex4(backslash + 2)
            var length = 6
            if scalar & 0xFC00 == 0xD800 {
                scalar = 0x10000 + ((scalar & 0x3FF) << 10 | (hex4(backslash + 8) & 0x3FF))
                length = 12
            }
            if scalar >= 0x80 { escapedNonASCII = true }
            UTF8.encode(Unicode.Scalar(scalar)!, into: { target[written] = $0; written += 1 })
            return length
        }
        /// Copies 64 bytes; the caller has checked the room on both sides.
        @inline(__always) func copy64(from: Int, to: Int) {
            let from = UnsafeRawPointer(source + from), to = UnsafeMutableRawPointer(target + to)
            for word in 0..<8 { to.storeBytes(of: from.loadUnaligned(fromByteOffset: word &* 8, as: UInt64.self), toByteOffset: word &* 8, as: UInt64.self) }
        }
        // `written` never passes `read`, so room after `read` is room after `written`.
        let room = min(readable, output.count) - unescapeSlack
        while read < count && read <= room {
            let available = count - read
            var backslashes = Self.backslashMask(UnsafeRawPointer(source + read))
            if available < 64 { backslashes &= (1 << UInt64(available)) &- 1 }
            copy64(from: read, to: written)
            // `written` stands for source byte `read + last`; bytes before it are final.
            var last = 0
            while backslashes != 0 {
                let at = backslashes.trailingZeroBitCount
                written &+= at &- last
                let decoded = JSONUTF8.escapes[Int(source[read &+ at &+ 1])]
                if decoded > 1 {
                    target[written] = decoded
                    written &+= 1
                    last = at &+ 2
                } else {
                    last = at + unicodeEscape(at: read + at)
                }
                copy64(from: read &+ last, to: written)
                // Clears this escape's own bytes (an escaped backslash among them) and all before.
                backslashes = last >= 64 ? 0 : backslashes & (~0 << UInt64(last))
            }
            let end = min(64, available)
            if last < end {
                written &+= end &- last
                read &+= end
            } else {
                read &+= last
            }
        }
        while read < count {
            // Runs without a backslash move eight bytes at a time, and the word with the next
            // one moves its bytes before it (`written` never passes `read`, so each store
            // stays inside `output`).
            while read &+ 8 <= count {
                let word = UnsafeRawPointer(source + read).loadUnaligned(as: UInt64.self)
                let backslashes = word.littleEndian ^ 0x5C5C_5C5C_5C5C_5C5C
                let found = (backslashes &- 0x0101_0101_0101_0101) & ~backslashes & 0x8080_8080_8080_8080
                UnsafeMutableRawPointer(target + written).storeBytes(of: word, as: UInt64.self)
                if found != 0 {
                    // The lowest flagged byte is a backslash (a borrow only runs upwards): keep
                    // the bytes before it, and decode the escape next.
                    let before = found.trailingZeroBitCount >> 3
                    read &+= before
                    written &+= before
                    break
                }
                read &+= 8
                written &+= 8
            }
            guard read < count else { break }
            let byte = source[read]
            guard byte == UInt8(ascii: "\\") else {
                target[written] = byte
                written += 1
                read += 1
                continue
            }
            let simple = JSONUTF8.escapes[Int(source[read + 1])]
            if simple > 1 {
                target[written] = simple
                written += 1
                read += 2
                continue
            }
            read += unicodeEscape(at: read)
        }
        return (written, escapedNonASCII)
    }
}
