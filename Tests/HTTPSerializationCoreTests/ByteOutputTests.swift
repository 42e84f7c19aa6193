#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Testing
@testable import HTTPSerializationCore

@Suite("ByteOutput: the writers' growable buffer")
struct ByteOutputTests {
    @Test("bytes, literals, strings, runs and reversed digits land in order across growth")
    func appendsInOrder() {
        let output = ByteOutput(capacity: 16)
        var expected: [UInt8] = []
        for round in 0..<500 {
            output.append(UInt8(round % 256))
            expected.append(UInt8(round % 256))
            output.append("null")
            expected += Array("null".utf8)
            let text = "café \(round) \(String(repeating: "x", count: round % 40))"
            output.append(utf8Of: text)
            expected += Array(text.utf8)
            output.append(repeating: 0x20, count: round % 5)
            expected += Array(repeating: 0x20, count: round % 5)
            let start = output.count
            output.append(contentsOf: UnsafeBufferPointer(start: nil, count: 0))
            "123".utf8.withContiguousStorageIfAvailable { output.append(contentsOf: $0) }
            output.reverse(from: start)
            expected += Array("321".utf8)
        }
        #expect(output.bytes == expected)
        output.truncate(to: 10)
        #expect(output.bytes == Array(expected.prefix(10)))
    }

    @Test("runs of every length from 0 to 40 bytes are copied exactly, whatever precedes them")
    func runsOfEveryLength() {
        let output = ByteOutput(capacity: 16)
        var expected: [UInt8] = []
        for length in 0...40 {
            for offset in 0..<3 {
                let run = (0..<length).map { UInt8(truncatingIfNeeded: $0 &* 7 &+ length &+ offset) }
                run.withUnsafeBufferPointer { output.append(contentsOf: $0) }
                expected += run
                output.append(UInt8(offset))
                expected.append(UInt8(offset))
            }
        }
        #expect(output.bytes == expected)
    }

    @Test("takeData hands over a small and a large buffer intact and leaves it empty for reuse", arguments: [100, 4_096, 4_097, 3_000_000])
    func takeDataLeavesBufferEmpty(size: Int) {
        let output = ByteOutput()
        let bytes = (0..<size).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ 7) }
        bytes.withUnsafeBufferPointer { output.append(contentsOf: $0) }
        let data = output.takeData()
        #expect(data == Data(bytes))
        #expect(output.count == 0)
        output.append("after")
        #expect(output.bytes == Array("after".utf8))
        #expect(data == Data(bytes))
    }
}
