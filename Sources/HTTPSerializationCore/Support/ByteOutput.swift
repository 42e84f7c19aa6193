#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#elseif canImport(ucrt)
import ucrt
#endif

/// A growable byte buffer for the package's writers (query strings, JSON text).
///
/// Unlike `[UInt8]` it can write into its spare capacity (the branchless escaper stores 4
/// bytes per input byte and keeps 1 to 3 of them), an append checks nothing but capacity (an
/// array checks that its storage is unshared every time), and its memory can become the
/// result's `Data` without a copy. Growth uses `realloc`, which moves large buffers by
/// remapping pages instead of copying them.
///
/// Used only within one call, never shared, so it is a plain non-`Sendable` class.
@usableFromInline
package final class ByteOutput {
    @usableFromInline struct State {
        @usableFromInline var base: UnsafeMutablePointer<UInt8>
        @usableFromInline var count: Int
        @usableFromInline var capacity: Int
    }

    /// Behind a pointer rather than in stored `var`s: every use of a class's stored property
    /// from another module is checked for exclusive access at run time (`@exclusivity(unchecked)`
    /// does not reach across modules), which costs more than the append it guards. One writer
    /// uses a buffer at a time, so there is nothing to check.
    @usableFromInline let state: UnsafeMutablePointer<State>

    /// The first byte written.
    @inlinable package var base: UnsafeMutablePointer<UInt8> { state.pointee.base }
    /// Bytes written so far, from `base`.
    @inlinable package var count: Int {
        get { state.pointee.count }
        set { state.pointee.count = newValue }
    }

    package init(capacity: Int = 256) {
        let capacity = max(capacity, 16)
        state = .allocate(capacity: 1)
        state.initialize(to: State(base: Self.allocate(capacity), count: 0, capacity: capacity))
    }

    deinit {
        free(state.pointee.base)
        state.deallocate()
    }

    private static func allocate(_ bytes: Int) -> UnsafeMutablePointer<UInt8> {
        guard let memory = malloc(bytes) else { fatalError("out of memory allocating \(bytes) bytes") }
        return memory.assumingMemoryBound(to: UInt8.self)
    }

    /// Makes room for `extra` more bytes past `count`.
    @inlinable @inline(__always)
    package func reserve(_ extra: Int) {
        if count &+ extra > state.pointee.capacity { grow(to: count + extra) }
    }

    @usableFromInline func grow(to needed: Int) {
        var newCapacity = state.pointee.capacity
        while newCapacity < needed { newCapacity *= 2 }
        guard let memory = realloc(base, newCapacity) else { fatalError("out of memory growing to \(newCapacity) bytes") }
        state.pointee.base = memory.assumingMemoryBound(to: UInt8.self)
        state.pointee.capacity = newCapacity
    }

    @inlinable @inline(__always)
    package func append(_ byte: UInt8) {
        reserve(1)
        base[count] = byte
        count &+= 1
    }

    @inlinable @inline(__always)
    package func append(contentsOf bytes: UnsafeBufferPointer<UInt8>) {
        guard let source = bytes.baseAddress else { return }
        let length = bytes.count
        reserve(length)
        let target = base + count
        // Most runs are short (a key, a word): two overlapping loads and stores that cover
        // them exactly are cheaper than a call to `memmove`.
        if length <= 16 {
            let from = UnsafeRawPointer(source), to = UnsafeMutableRawPointer(target)
            if length >= 8 {
                let head = from.loadUnaligned(as: UInt64.self), tail = from.loadUnaligned(fromByteOffset: length - 8, as: UInt64.self)
                to.storeBytes(of: head, as: UInt64.self)
                to.storeBytes(of: tail, toByteOffset: length - 8, as: UInt64.self)
            } else if length >= 4 {
                let head = from.loadUnaligned(as: UInt32.self), tail = from.loadUnaligned(fromByteOffset: length - 4, as: UInt32.self)
                to.storeBytes(of: head, as: UInt32.self)
                to.storeBytes(of: tail, toByteOffset: length - 4, as: UInt32.self)
            } else if length > 0 {
                target[0] = source[0]
                target[length / 2] = source[length / 2]
                target[length - 1] = source[length - 1]
            }
        } else {
            target.update(from: source, count: length)
        }
        count &+= length
    }

    /// Appends a literal's UTF-8 (`"null"`, `": "`).
    @inlinable @inline(__always)
    package func append(_ literal: StaticString) {
        append(contentsOf: UnsafeBufferPointer(start: literal.utf8Start, count: literal.utf8CodeUnitCount))
    }

    /// Appends a string's UTF-8, borrowed from a native string without a copy.
    @inlinable
    package func append(utf8Of text: String) {
        text.withBorrowedUTF8 { append(contentsOf: $0) }
    }

    package func append(repeating byte: UInt8, count repeats: Int) {
        guard repeats > 0 else { return }
        reserve(repeats)
        (base + count).initialize(repeating: byte, count: repeats)
        count += repeats
    }

    /// Reverses the bytes from `start` to the end (digits written lowest first).
    @inlinable
    package func reverse(from start: Int) {
        var digits = UnsafeMutableBufferPointer(start: base + start, count: count - start)
        digits.reverse()
    }

    /// Appends the AF-escaped form of `bytes`; room for the worst case (every byte
    /// escaped) spares the counting pass.
    func appendEscaped(_ bytes: UnsafeBufferPointer<UInt8>) {
        reserve(3 &* bytes.count &+ PercentEscaping.writeSlack)
        count += PercentEscaping.write(bytes, to: base + count)
    }

    func appendEscaped(_ string: String) {
        string.withBorrowedUTF8 { appendEscaped($0) }
    }

    /// Drops bytes past `newCount`.
    package func truncate(to newCount: Int) {
        count = min(count, newCount)
    }

    /// A copy of the bytes written.
    package var bytes: [UInt8] { Array(UnsafeBufferPointer(start: base, count: count)) }

    func makeString() -> String {
        String(unsafeUninitializedCapacity: count) { target in
            if count > 0 { target.baseAddress!.update(from: base, count: count) }
            return count
        }
    }

    /// Appends the bytes written so far to `bytes`, leaving them here too.
    package func copy(into bytes: inout [UInt8]) {
        bytes.append(contentsOf: UnsafeBufferPointer(start: base, count: count))
    }

    /// The bytes as `Data`, leaving the buffer empty. A large buffer hands its memory over
    /// (trimmed to size) instead of being copied; a small one is copied, which is cheaper
    /// than `Data`'s bookkeeping for memory it does not own.
    package func takeData() -> Data {
        guard count > 4096 else {
            defer { count = 0 }
            return Data(bytes: base, count: count)
        }
        let memory = realloc(base, count) ?? UnsafeMutableRawPointer(base)
        let data = Data(bytesNoCopy: memory, count: count, deallocator: .free)
        state.pointee = State(base: Self.allocate(16), count: 0, capacity: 16)
        return data
    }
}
