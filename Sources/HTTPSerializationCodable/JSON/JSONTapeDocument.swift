#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import HTTPSerializationCore

/// A parsed document whose tape stays readable for as long as anything holds it.
///
/// A `Decoder` or container may outlive the `decode` call that made it (a type can keep its
/// decoder), so they read through this object instead of a closure-scoped pointer.
final class JSONTapeDocument {
    let tape: JSONTape
    let reader: JSONTapeReader
    /// The bytes of a short document, copied so that their address is stable.
    private let ownedBytes: UnsafeMutableRawBufferPointer?

    init(_ tape: JSONTape) {
        self.tape = tape
        // The addresses below stay valid while `tape` (held here, never mutated) lives: an array
        // keeps its elements in one heap buffer, and a `Data` of more than 14 bytes keeps them in
        // a heap storage object. Shorter `Data` can be stored inline, so those bytes are copied.
        let base: UnsafePointer<UInt8>
        if tape.bytes.count < 64 {
            let copy = UnsafeMutableRawBufferPointer.allocate(byteCount: max(tape.bytes.count, 1), alignment: 1)
            tape.bytes.withUnsafeBytes { raw in
                if let source = raw.baseAddress { copy.baseAddress!.copyMemory(from: source, byteCount: raw.count) }
            }
            ownedBytes = copy
            base = UnsafePointer(copy.baseAddress!.assumingMemoryBound(to: UInt8.self))
        } else {
            ownedBytes = nil
            base = tape.bytes.withUnsafeBytes { raw in raw.baseAddress!.assumingMemoryBound(to: UInt8.self) }
        }
        reader = JSONTapeReader(base: base, words: tape.words.withUnsafeBufferPointer { $0 })
    }

    deinit {
        ownedBytes?.deallocate()
    }
}
