#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// Where a tape's words live: the one allocator for them, so every tape frees as it was made.
///
/// A large document writes tens of megabytes of tape into fresh memory. In 4 KiB pages that
/// is one page fault per 256 entries (about 6,500 for the 20 MB §6 document, some 8 ms of a
/// 120 ms decode). On Linux a tape of 4 MiB or more therefore gets a mapping of its own,
/// aligned to 2 MiB and marked for transparent huge pages: the kernel backs it with 2 MiB
/// pages where it has them and with small pages otherwise, and only the part the scanner
/// writes is ever touched. A mapping of its own keeps the advice off the heap that `malloc`
/// shares with everything else.
enum JSONTapeMemory {
    /// Tapes at least this large ask for huge pages; smaller ones cost too few faults to matter.
    static let hugePageThreshold = 4 << 20
    static let hugePageSize = 2 << 20

    /// Two words before the first one: where the mapping starts and its length (0 for `malloc`).
    private static let headerWords = 2

    /// Uninitialized room for `count` words, freed with ``deallocate(_:)``.
    static func allocate(words count: Int) -> UnsafeMutablePointer<UInt64> {
        let bytes = (max(count, 1) + headerWords) * MemoryLayout<UInt64>.stride
        #if os(Linux) && (canImport(Glibc) || canImport(Musl))
        if bytes >= hugePageThreshold, let words = mapped(bytes: bytes) { return words }
        guard let raw = malloc(bytes) else { fatalError("JSON tape: could not allocate \(bytes) bytes") }
        let header = raw.bindMemory(to: UInt64.self, capacity: headerWords + max(count, 1))
        header.initialize(repeating: 0, count: headerWords)
        return header + headerWords
        #else
        return .allocate(capacity: max(count, 1))
        #endif
    }

    static func deallocate(_ words: UnsafeMutablePointer<UInt64>) {
        #if os(Linux) && (canImport(Glibc) || canImport(Musl))
        let header = words - headerWords
        if header[1] == 0 {
            free(header)
        } else {
            _ = munmap(UnsafeMutableRawPointer(bitPattern: UInt(header[0])), Int(header[1]))
        }
        #else
        words.deallocate()
        #endif
    }

    #if os(Linux) && (canImport(Glibc) || canImport(Musl))
    /// A private anonymous mapping with a 2 MiB-aligned stretch of `bytes` past the header,
    /// advised for huge pages; nil if the kernel refuses the mapping.
    private static func mapped(bytes: Int) -> UnsafeMutablePointer<UInt64>? {
        let headerBytes = headerWords * MemoryLayout<UInt64>.stride
        let length = (bytes + hugePageSize - 1) / hugePageSize * hugePageSize + hugePageSize
        guard let mapping = mmap(nil, length, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0),
              mapping != UnsafeMutableRawPointer(bitPattern: -1) else { return nil }
        let start = UInt(bitPattern: mapping)
        let aligned = (start + UInt(headerBytes) + UInt(hugePageSize) - 1) / UInt(hugePageSize) * UInt(hugePageSize)
        let words = UnsafeMutableRawPointer(bitPattern: aligned)!
        // Advice only: a kernel without huge pages refuses it, and the tape is as before.
        _ = madvise(words, bytes - headerBytes, Int32(MADV_HUGEPAGE))
        let header = (words - headerBytes).bindMemory(to: UInt64.self, capacity: headerWords)
        header[0] = UInt64(start)
        header[1] = UInt64(length)
        return words.bindMemory(to: UInt64.self, capacity: (bytes - headerBytes) / MemoryLayout<UInt64>.stride)
    }
    #endif
}
