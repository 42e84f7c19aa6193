#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// One parse of a JSON document: every value (and every object key) in document order, one
/// word each, over the document's UTF-8 bytes.
///
/// The outputs (the typed tree, Foundation's `Any` graph, the `Decoder`) are built from the
/// tape without parsing again, and iteratively: a container's entry says how many values it
/// holds and where the entry after its last value is, so any value can be skipped in O(1).
///
/// An entry: kind (bits 0–2), flags (3–4), wide (5), count or byte length (6–31), and the
/// byte offset of a string's or number's text or a container's end (tape index, 32–63). A
/// length or count of 2^26 or more, or an offset or end of 2^32 or more, does not fit: the
/// entry is wide, and bits 6–63 index a pair of words in the tape's overflow (the length or
/// count, then the offset or end), so no count of wide entries runs out of bits. One word rather than two halves the memory the scan writes
/// and every output reads back (a third word cost a measurable part of a parse; see the design notes).
@usableFromInline
package struct JSONTape: Sendable {
    @usableFromInline package enum Kind: UInt8 {
        case object = 1, array, string, number, `true`, `false`, null
    }

    /// Entry fields (see above).
    @usableFromInline package static let kindMask: UInt64 = 0b111
    @usableFromInline package static let flagsShift: UInt64 = 3
    @usableFromInline package static let flagsMask: UInt64 = 0b11
    @usableFromInline package static let wideBit: UInt64 = 1 << 5
    @usableFromInline package static let lengthShift: UInt64 = 6
    @usableFromInline package static let lengthMask: UInt64 = (1 << 26) - 1
    /// Kind and flags: what a wide entry keeps of its fields.
    @usableFromInline package static let kindAndFlagsMask: UInt64 = kindMask | flagsMask << flagsShift
    /// The first length or count that makes an entry wide.
    package static let narrowLimit = 1 << 26

    /// String flags.
    @usableFromInline package static let hasEscapes: UInt8 = 1
    /// A byte at or above 0x80 (validated UTF-8); without it the text is ASCII.
    @usableFromInline package static let hasNonASCII: UInt8 = 2
    /// Number flags.
    package static let isInteger: UInt8 = 1
    package static let isNegative: UInt8 = 2

    /// The UTF-8 document the offsets point into (converted when it arrived as UTF-16/32) and
    /// the words, owned together so a reader's addresses live as long as the tape.
    @usableFromInline package let storage: JSONTapeStorage
}
