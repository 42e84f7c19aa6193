import Foundation
import HTTPSerialization
import HTTPTypes

/// Content decoding on arbitrary bytes labelled gzip or deflate, cut into arbitrary chunks,
/// under small limits: bytes or a `DecompressionError`, never a crash, a hang or output past
/// the size limit, and the same outcome whole and chunked.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzContentDecoding(_ start: UnsafeRawPointer?, _ count: Int) -> CInt {
    var input = FuzzBytes(UnsafeRawBufferPointer(start: start, count: count))
    let coding = input.below(2) == 0 ? "gzip" : "deflate"
    let limits = DecompressionLimits(maximumSize: 1 << 20, maximumRatio: 1 + input.below(64))
    let sizes = (0..<4).map { _ in 1 + input.below(64) }
    let body = input.rest()
    let whole = decode(body, coding: coding, limits: limits, sizes: [max(body.count, 1)])
    let chunked = decode(body, coding: coding, limits: limits, sizes: sizes)
    require(whole.bytes.count <= 1 << 20 && chunked.bytes.count <= 1 << 20, "output past the size limit")
    require(whole.error == chunked.error && (whole.error != nil || whole.bytes == chunked.bytes),
            "chunks \(sizes) decode to \(chunked.bytes.count) bytes, \(String(describing: chunked.error)); whole, \(whole.bytes.count), \(String(describing: whole.error))")
    return 0
}

private func decode(_ body: [UInt8], coding: String, limits: DecompressionLimits, sizes: [Int]) -> (bytes: [UInt8], error: DecompressionError?) {
    let head = HTTPResponse(status: .ok, headerFields: [.contentEncoding: coding])
    var chunks: [[UInt8]] = []
    var start = 0, turn = 0
    while start < body.count {
        let end = min(start + sizes[turn % sizes.count], body.count)
        chunks.append(Array(body[start..<end]))
        start = end
        turn += 1
    }
    let done = DispatchSemaphore(value: 0)
    let result = Box()
    Task.detached { [chunks] in
        do {
            for try await chunk in try chunks.asyncChunks.decodingContentEncoding(of: head, limits: limits) { result.bytes += chunk }
        } catch let error as DecompressionError {
            result.error = error
        } catch {
            require(false, "an untyped error: \(error)")
        }
        done.signal()
    }
    done.wait()
    return (result.bytes, result.error)
}

/// The task's result for the waiting thread.
private final class Box: @unchecked Sendable {
    // Written by the one task before it signals, read after the wait.
    var bytes: [UInt8] = []
    var error: DecompressionError?
}

extension Array where Element == [UInt8] {
    var asyncChunks: AsyncStream<[UInt8]> {
        AsyncStream { continuation in
            for chunk in self { continuation.yield(chunk) }
            continuation.finish()
        }
    }
}
