#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Finds the delimiter `CRLF--BOUNDARY` in a part's body as it streams past, across chunk
/// edges. A body holding it would end its part early for every parser and let the bytes
/// after it pose as parts of their own (RFC 2046 §5.1.1 forbids it in an encapsulation).
///
/// Any occurrence of the `m`-byte delimiter covers one of the byte pairs that start every
/// `m - 1` bytes, so only those pairs are looked up, in a bitmap of the delimiter's pairs:
/// about one memory access per cache line, which keeps the scan at reading speed. The bytes
/// before a body end with the header block's CRLF, so a body that starts with `--BOUNDARY`
/// is caught too.
struct MultipartDelimiterScanner {
    private var finder: MultipartDelimiterFinder
    private var delimiter: [UInt8] { finder.delimiter }
    /// The last `delimiter.count - 1` bytes seen, to match across chunk edges.
    private var tail: [UInt8] = []

    init(boundary: String) {
        finder = MultipartDelimiterFinder(boundary: boundary)
        tail.reserveCapacity(finder.delimiter.count)
        reset()
    }

    /// Starts a new part body: what precedes it is the header block's closing CRLF.
    mutating func reset() {
        tail.removeAll(keepingCapacity: true)
        tail.append(0x0D)
        tail.append(0x0A)
    }

    /// Whether the delimiter ends in these bytes (a match may begin in earlier chunks).
    mutating func scan(_ chunk: UnsafeRawBufferPointer) -> Bool {
        guard chunk.count > 0 else { return false }
        if matchesAcrossEdge(chunk) { return true }
        if finder.firstIndex(in: chunk) != nil { return true }
        let keep = delimiter.count - 1
        if chunk.count >= keep {
            tail.removeAll(keepingCapacity: true)
            tail.append(contentsOf: UnsafeRawBufferPointer(rebasing: chunk.suffix(keep)))
        } else {
            tail.append(contentsOf: chunk)
            if tail.count > keep { tail.removeFirst(tail.count - keep) }
        }
        return false
    }

    /// A delimiter that starts in the kept tail and ends in `chunk`.
    private func matchesAcrossEdge(_ chunk: UnsafeRawBufferPointer) -> Bool {
        let length = delimiter.count
        for start in tail.indices where tail[start] == 0x0D {
            let fromTail = tail.count - start
            guard length - fromTail <= chunk.count else { continue }
            var matches = true
            for index in 0..<length {
                let byte = index < fromTail ? tail[start + index] : chunk[index - fromTail]
                if byte != delimiter[index] {
                    matches = false
                    break
                }
            }
            if matches { return true }
        }
        return false
    }

}

/// Finds the first whole `CRLF--BOUNDARY` in a buffer: the one search the writer's check and
/// the parser share, linear in the buffer's length.
struct MultipartDelimiterFinder {
    /// `CRLF--BOUNDARY`.
    let delimiter: [UInt8]
    /// Built on the first large buffer; small ones are searched without it.
    private var pairs: DelimiterPairs?

    init(boundary: String) {
        delimiter = Self.delimiter(boundary: boundary)
    }

    /// A finder for a delimiter already made.
    init(delimiter: [UInt8]) {
        self.delimiter = delimiter
    }

    /// `CRLF--BOUNDARY`.
    static func delimiter(boundary: String) -> [UInt8] {
        var delimiter: [UInt8] = []
        delimiter.reserveCapacity(boundary.utf8.count + 4)
        delimiter.append(contentsOf: [0x0D, 0x0A, UInt8(ascii: "-"), UInt8(ascii: "-")])
        delimiter.append(contentsOf: boundary.utf8)
        return delimiter
    }

    /// Whether a whole in-memory body holds `delimiter`, the header block's CRLF before it
    /// included (a body that starts with `--BOUNDARY`): checked when the body is appended.
    static func contains(delimiter: [UInt8], in bytes: UnsafeRawBufferPointer) -> Bool {
        let dashBoundary = delimiter.count - 2
        if bytes.count >= dashBoundary, delimiter.withUnsafeBytes({ memcmp($0.baseAddress! + 2, bytes.baseAddress!, dashBoundary) == 0 }) {
            return true
        }
        // Short bodies by line break: linear, since a boundary holds no CR or LF and so no
        // partial match can hide the start of the next one. Longer ones by sampling, where a
        // line break every few hundred bytes of binary data would cost a `memchr` call each.
        if bytes.count < 1024 { return firstIndexByLineBreak(delimiter, in: bytes) != nil }
        return delimiter.withUnsafeBytes { containsBySampling($0, in: bytes) }
    }

    /// Whether `bytes` holds `delimiter`, reading one byte pair every `delimiter.count - 1`
    /// bytes: any occurrence covers one of them. Sampled pairs are looked up four at a time in
    /// a 4,096-bit filter of the delimiter's pairs (hashed, on the stack, so nothing to
    /// allocate); a pair that passes is matched against the delimiter's own pairs, and only a
    /// real one has the start it implies compared. The work stays linear whatever the body holds.
    private static func containsBySampling(_ delimiter: UnsafeRawBufferPointer, in bytes: UnsafeRawBufferPointer) -> Bool {
        let length = delimiter.count
        let count = bytes.count
        guard length >= 3, count >= length, let base = bytes.baseAddress, let needle = delimiter.baseAddress else { return false }
        @inline(__always) func pair(_ pointer: UnsafeRawPointer, _ offset: Int) -> UInt32 {
            UInt32(pointer.loadUnaligned(fromByteOffset: offset, as: UInt16.self))
        }
        @inline(__always) func slot(_ pair: UInt32) -> Int { Int((pair &* 0x9E37_79B1) >> 20) }
        // Whether a delimiter covers the pair sampled at `offset`: for each place the pair
        // stands in the delimiter, the one start that puts it there.
        func verify(_ offset: Int) -> Bool {
            let sampled = pair(base, offset)
            for index in 0..<(length - 1) where pair(needle, index) == sampled {
                let start = offset - index
                if start >= 0, start + length <= count, memcmp(base + start, needle, length) == 0 { return true }
            }
            return false
        }
        return withUnsafeTemporaryAllocation(of: UInt64.self, capacity: 64) { filter in
            filter.initialize(repeating: 0)
            for offset in 0..<(length - 1) {
                let bit = slot(pair(needle, offset))
                filter[bit >> 6] |= 1 << UInt64(bit & 63)
            }
            @inline(__always) func passes(_ offset: Int) -> UInt64 {
                let bit = slot(pair(base, offset))
                return filter[bit >> 6] >> UInt64(bit & 63) & 1
            }
            let stride = length - 1
            var offset = 0
            while offset + 3 * stride + 2 <= count {
                if passes(offset) | passes(offset + stride) | passes(offset + 2 * stride) | passes(offset + 3 * stride) != 0 {
                    for sample in 0..<4 where passes(offset + sample * stride) != 0 && verify(offset + sample * stride) { return true }
                }
                offset += 4 * stride
            }
            while offset + 2 <= count {
                if passes(offset) != 0 && verify(offset) { return true }
                offset += stride
            }
            return false
        }
    }

    /// Where the first delimiter lying whole in `bytes` starts.
    mutating func firstIndex(in bytes: UnsafeRawBufferPointer) -> Int? {
        guard bytes.count >= delimiter.count else { return nil }
        if bytes.count >= 4096 {
            if pairs == nil { pairs = DelimiterPairs(delimiter) }
            return pairs!.firstIndex(of: delimiter, in: bytes)
        }
        return Self.firstIndexByLineBreak(delimiter, in: bytes)
    }

    /// Each CR LF found, compared whole: best for short buffers.
    private static func firstIndexByLineBreak(_ pattern: [UInt8], in bytes: UnsafeRawBufferPointer) -> Int? {
        let length = pattern.count
        guard bytes.count >= length, let base = bytes.baseAddress else { return nil }
        return pattern.withUnsafeBytes { needle -> Int? in
            var offset = 0
            let lastStart = bytes.count - length
            while let candidate = nextLineBreak(base, from: offset, through: lastStart) {
                if memcmp(base + candidate, needle.baseAddress!, length) == 0 { return candidate }
                offset = candidate + 1
            }
            return nil
        }
    }

    /// The first CR LF that starts at or after `offset` and no later than `last` (CR LF "-"
    /// begins every delimiter): `memchr` finds each carriage return, and one that no line
    /// feed follows is passed over without a comparison.
    private static func nextLineBreak(_ base: UnsafeRawPointer, from offset: Int, through last: Int) -> Int? {
        var position = offset
        while position <= last, let hit = memchr(base + position, 0x0D, last - position + 1) {
            let candidate = UnsafeRawPointer(hit) - base
            if base.load(fromByteOffset: candidate + 1, as: UInt8.self) == 0x0A { return candidate }
            position = candidate + 1
        }
        return nil
    }
}

/// The byte pairs of a delimiter: a 65,536-bit map to test a pair, and where in the delimiter
/// each pair first stands, to line a candidate up.
/// One scanner, and so one table, belongs to one reader.
final class DelimiterPairs {
    private let bits: UnsafeMutablePointer<UInt64>
    /// For each pair, 1 + its first index in the delimiter, or 0.
    private let first: UnsafeMutablePointer<UInt8>
    private let repeated: Bool

    init(_ delimiter: [UInt8]) {
        bits = .allocate(capacity: 1024)
        bits.initialize(repeating: 0, count: 1024)
        first = .allocate(capacity: 65_536)
        first.initialize(repeating: 0, count: 65_536)
        var repeated = false
        for index in 0..<(delimiter.count - 1) {
            let pair = Int(delimiter[index]) | Int(delimiter[index + 1]) << 8
            bits[pair >> 6] |= 1 << UInt64(pair & 63)
            if first[pair] == 0 { first[pair] = UInt8(index + 1) } else { repeated = true }
        }
        self.repeated = repeated
    }

    deinit {
        bits.deallocate()
        first.deallocate()
    }

    @inline(__always)
    private static func bit(_ bits: UnsafeMutablePointer<UInt64>, _ base: UnsafeRawPointer, _ offset: Int) -> UInt64 {
        let pair = Int(base.loadUnaligned(fromByteOffset: offset, as: UInt16.self).littleEndian)
        return bits[pair &>> 6] &>> UInt64(pair & 63)
    }

    @inline(__always)
    private func bit(_ base: UnsafeRawPointer, _ offset: Int) -> UInt64 {
        Self.bit(bits, base, offset)
    }

    /// Where the first delimiter lying whole in `bytes` starts. A boundary holds no CR or LF,
    /// so two delimiters never overlap, and the first sample that meets one meets the first.
    func firstIndex(of delimiter: [UInt8], in bytes: UnsafeRawBufferPointer) -> Int? {
        let length = delimiter.count
        let count = bytes.count
        guard count >= length, let base = bytes.baseAddress else { return nil }
        let stride = length - 1
        var offset = 0
        let bits = self.bits
        // Eight samples a round, tested together: independent loads, one branch.
        while offset &+ 7 &* stride &+ 2 <= count {
            let low = Self.bit(bits, base, offset) | Self.bit(bits, base, offset &+ stride)
                | Self.bit(bits, base, offset &+ 2 &* stride) | Self.bit(bits, base, offset &+ 3 &* stride)
            let high = Self.bit(bits, base, offset &+ 4 &* stride) | Self.bit(bits, base, offset &+ 5 &* stride)
                | Self.bit(bits, base, offset &+ 6 &* stride) | Self.bit(bits, base, offset &+ 7 &* stride)
            if (low | high) & 1 != 0 {
                for sample in 0..<8 {
                    if let start = verify(delimiter, base, count, offset + sample * stride) { return start }
                }
            }
            offset &+= 8 &* stride
        }
        while offset + 2 <= count {
            if let start = verify(delimiter, base, count, offset) { return start }
            offset += stride
        }
        return nil
    }

    /// Where a delimiter covering the pair at `offset` and lying whole in the bytes starts.
    private func verify(_ delimiter: [UInt8], _ base: UnsafeRawPointer, _ count: Int, _ offset: Int) -> Int? {
        guard bit(base, offset) & 1 != 0 else { return nil }
        let pair = Int(base.loadUnaligned(fromByteOffset: offset, as: UInt16.self).littleEndian)
        let length = delimiter.count
        return delimiter.withUnsafeBytes { needle -> Int? in
            func matches(at index: Int) -> Int? {
                let start = offset - index
                return start >= 0 && start + length <= count && memcmp(base + start, needle.baseAddress!, length) == 0 ? start : nil
            }
            if !repeated { return matches(at: Int(first[pair]) - 1) }
            // The earliest start first: the highest index in the delimiter.
            for index in (0..<(length - 1)).reversed() where Int(delimiter[index]) | Int(delimiter[index + 1]) << 8 == pair {
                if let start = matches(at: index) { return start }
            }
            return nil
        }
    }
}
