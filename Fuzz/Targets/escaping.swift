import Foundation
import HTTPSerialization

/// Percent-escaping round trip: decoding the output gives the input back, and only AF's
/// literal set (ALPHA DIGIT - . _ ~ / ?) stays unescaped.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzEscaping(_ start: UnsafeRawPointer?, _ count: Int) -> CInt {
    let input = String(decoding: UnsafeRawBufferPointer(start: start, count: count), as: UTF8.self)
    let escaped = percentEscaped(input)
    let literal = Set("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~/?%".utf8)
    require(escaped.utf8.allSatisfy { literal.contains($0) }, "an unescaped byte in \(escaped)")
    var bytes = Array(escaped.utf8)[...]
    while let percent = bytes.firstIndex(of: UInt8(ascii: "%")) {
        let hex = bytes.dropFirst(percent - bytes.startIndex + 1).prefix(2)
        require(hex.count == 2 && hex.allSatisfy { Set("0123456789ABCDEF".utf8).contains($0) }, "a bad escape in \(escaped)")
        bytes = bytes[(percent + 3)...]
    }
    require(escaped.removingPercentEncoding == input, "the round trip lost \(input)")
    return 0
}
