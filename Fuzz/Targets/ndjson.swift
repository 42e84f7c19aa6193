import Foundation
import HTTPSerialization
import HTTPTypes

/// The JSON Lines, text-sequence and array decoder on arbitrary bytes cut into arbitrary chunks:
/// values or a typed error, never a crash or a hang, and exactly the values and the error
/// the same body gives read in one piece, so no chunk boundary changes what a caller sees.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzNDJSON(_ start: UnsafeRawPointer?, _ count: Int) -> CInt {
    var input = FuzzBytes(UnsafeRawBufferPointer(start: start, count: count))
    var serializer = JSONStreamResponseSerializer()
    serializer.format = [.lines, .textSequence, .array][input.below(3)]
    serializer.maximumLineLength = 1 + input.below(256)
    serializer.maximumDepth = 1 + input.below(8)
    let sizes = (0..<4).map { _ in 1 + input.below(32) }
    let body = input.rest()
    let whole = read(body, with: serializer, sizes: [max(body.count, 1)])
    let chunked = read(body, with: serializer, sizes: sizes)
    require(whole.values == chunked.values && whole.error == chunked.error,
            "chunks \(sizes) read \(chunked) where one piece reads \(whole): \(String(decoding: body, as: UTF8.self).debugDescription)")
    return 0
}

private func read(_ body: [UInt8], with serializer: JSONStreamResponseSerializer<ParameterValue>, sizes: [Int]) -> (values: [ParameterValue], error: StreamingResponseError?) {
    let head = HTTPResponse(status: .ok, headerFields: [.contentType: "application/x-ndjson"])
    guard let decoder = try? serializer.makeBodyDecoder(for: head) else {
        require(false, "no decoder")
        return ([], nil)
    }
    let result = decodeInChunks(body, with: decoder, sizes: sizes)
    return (result.values, result.error)
}
