#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#elseif canImport(ucrt)
import ucrt
#endif

/// A growable byte buffer that can write into its spare capacity, which `[UInt8]` cannot:
/// the branchless escaper stores 4 bytes per input byte and keeps 1 to 3 of them.
///
/// Used only within one call, never shared, so it is a plain non-`Sendable` class. Growth
/// uses `realloc`, which moves large buffers by remapping pages instead of copying them.
final class ByteBuffer {
    private(set) var base: UnsafeMutablePointer<UInt8>
    private(set) var count = 0
    private var capacity: Int

    init(capacity: Int = 256) {
        self.capacity = max(capacity, 16)
        guard let memory = malloc(self.capacity) else { fatalError("out of memory allocating \(self.capacity) bytes") }
        base = memory.assumingMemoryBound(to: UInt8.self)
    }

    deinit {
        free(base)
    }

    /// Makes room for `extra` more bytes past `count`.
    @inline(__always)
    func reserve(_ extra: Int) {
        if count + extra > capacity { grow(to: count + extra) }
    }

    private func grow(to needed: Int) {
        var newCapacity = capacity
        while newCapacity < needed { newCapacity *= 2 }
        guard let memory = realloc(base, newCapacity) else { fatalError("out of memory growing to \(newCapacity) bytes") }
        base = memory.assumingMemoryBound(to: UInt8.self)
        capacity = newCapacity
    }

    @inline(__always)
    func append(_ byte: UInt8) {
        reserve(1)
        base[count] = byte
        count += 1
    }

    /// Appends the AF-escaped form of `bytes`; room for the worst case (every byte
    /// escaped) spares the counting pass.
    func appendEscaped(_ bytes: UnsafeBufferPointer<UInt8>) {
        reserve(3 &* bytes.count &+ PercentEscaping.writeSlack)
        count += PercentEscaping.write(bytes, to: base + count)
    }

    func appendEscaped(_ string: String) {
        var string = string
        string.withUTF8 { appendEscaped($0) }
    }

    /// Drops bytes past `newCount`.
    func truncate(to newCount: Int) {
        count = min(count, newCount)
    }

    func makeString() -> String {
        String(unsafeUninitializedCapacity: count) { target in
            if count > 0 { target.baseAddress!.update(from: base, count: count) }
            return count
        }
    }
}
