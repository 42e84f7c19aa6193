#if os(Linux) && canImport(Glibc)
import Glibc
#endif

/// Where tape words live. A tape of megabytes is written once, front to back, into memory
/// no page of which has been touched; with 4 KiB pages every 256 values cost a page fault,
/// a fifth of a scan. On Linux such a tape is mapped on its own and marked for transparent
/// huge pages, so a fault brings in 2 MiB at once; elsewhere (or when the kernel keeps huge
/// pages off) it is ordinary memory.
///
/// Mapped directly rather than through `posix_memalign`: glibc's aligned path changed how
/// the heap around it was trimmed, and a tree built right after the scan faulted three times
/// as often.
enum JSONTapeMemory {
    #if os(Linux) && canImport(Glibc)
    private static let hugePage = 2 << 20
    /// Below this many bytes a tape is small enough for the allocator.
    private static let mappedBytes = 4 << 20
    #endif

    /// Memory for `count` words (at least one), freed by ``deallocate(_:count:)`` with the same `count`.
    static func allocate(_ count: Int) -> UnsafeMutablePointer<UInt64> {
        let count = max(count, 1)
        #if os(Linux) && canImport(Glibc)
        if count * 8 >= mappedBytes { return mapHugePages(count) }
        #endif
        return .allocate(capacity: count)
    }

    static func deallocate(_ words: UnsafeMutablePointer<UInt64>, count: Int) {
        let count = max(count, 1)
        #if os(Linux) && canImport(Glibc)
        if count * 8 >= mappedBytes {
            munmap(words, mappedLength(count))
            return
        }
        #endif
        words.deallocate()
    }

    #if os(Linux) && canImport(Glibc)
    private static func mappedLength(_ count: Int) -> Int {
        (count * 8 + hugePage - 1) / hugePage * hugePage
    }

    /// Maps one huge page more than needed, then unmaps the slack before and after the first
    /// 2 MiB boundary, so the words start on a huge page and `munmap` needs only their length.
    private static func mapHugePages(_ count: Int) -> UnsafeMutablePointer<UInt64> {
        let length = mappedLength(count)
        let mapped = mmap(nil, length + hugePage, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0)
        guard let mapped, mapped != MAP_FAILED else { fatalError("out of memory mapping a JSON tape of \(length) bytes") }
        let address = Int(bitPattern: mapped)
        let aligned = (address + hugePage - 1) / hugePage * hugePage
        let lead = aligned - address
        if lead > 0 { munmap(mapped, lead) }
        if hugePage - lead > 0 { munmap(UnsafeMutableRawPointer(bitPattern: aligned + length), hugePage - lead) }
        let start = UnsafeMutableRawPointer(bitPattern: aligned)!
        _ = madvise(start, length, MADV_HUGEPAGE)
        return start.bindMemory(to: UInt64.self, capacity: count)
    }
    #endif
}
