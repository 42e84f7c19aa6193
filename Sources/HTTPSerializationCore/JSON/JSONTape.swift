#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// One parse of a JSON document: every value (and every object key) in document order, two
/// words each, over the document's UTF-8 bytes.
///
/// The outputs (the typed tree, Foundation's `Any` graph, the `Decoder`) are built from the
/// tape without parsing again, and iteratively: a container's entry says how many values it
/// holds and where the entry after its last value is, so any value can be skipped in O(1).
///
/// Word 0: kind (bits 0–7), flags (8–15), count or byte length (16–63).
/// Word 1: byte offset of a string's or number's text, or a container's end (tape index).
@usableFromInline
package struct JSONTape: Sendable {
    @usableFromInline package enum Kind: UInt8 {
        case object = 1, array, string, number, `true`, `false`, null
    }

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
