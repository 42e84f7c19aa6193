import Testing
@testable import HTTPSerializationCore

@Suite("JSON key comparison: bytes of any length are equal only when every one is")
struct JSONKeyComparisonTests {
    @Test("runs of 0 to 40 bytes compare equal to themselves and unequal with any one byte changed")
    func everyLengthAndPosition() {
        for count in 0...40 {
            let bytes = (0..<count).map { UInt8(truncatingIfNeeded: 0x41 &+ $0 &* 7) }
            bytes.withUnsafeBufferPointer { original in
                let same = Array(original)
                same.withUnsafeBufferPointer { copy in
                    #expect(JSONTapeReader.equal(original.baseAddress ?? UnsafePointer(bitPattern: 8)!, copy.baseAddress, count: count), "\(count) bytes")
                }
                for position in 0..<count {
                    var changed = Array(original)
                    changed[position] ^= 0x20
                    changed.withUnsafeBufferPointer { other in
                        #expect(!JSONTapeReader.equal(original.baseAddress!, other.baseAddress, count: count), "byte \(position) of \(count)")
                    }
                }
            }
        }
    }
}
