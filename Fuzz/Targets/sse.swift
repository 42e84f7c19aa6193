import Foundation
import HTTPSerialization
import HTTPTypes

/// The event-stream parser on arbitrary bytes cut into arbitrary chunks: events or a typed
/// limit error, never a crash or a hang, and exactly what the same body gives read in one
/// piece, so no chunk boundary (inside a CRLF, a byte-order mark, a UTF-8 sequence) changes
/// what a caller sees.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzServerSentEvents(_ start: UnsafeRawPointer?, _ count: Int) -> CInt {
    var input = FuzzBytes(UnsafeRawBufferPointer(start: start, count: count))
    var serializer = ServerSentEventsResponseSerializer()
    serializer.maximumLineLength = 1 + input.below(256)
    serializer.maximumEventSize = 1 + input.below(256)
    let sizes = (0..<4).map { _ in 1 + input.below(32) }
    let body = input.rest()
    let whole = read(body, with: serializer, sizes: [max(body.count, 1)])
    let chunked = read(body, with: serializer, sizes: sizes)
    require(whole.events == chunked.events && whole.error == chunked.error,
            "chunks \(sizes) read \(chunked) where one piece reads \(whole): \(String(decoding: body, as: UTF8.self).debugDescription)")
    // The limit counts the bytes received; each invalid one becomes U+FFFD, three bytes.
    for event in whole.events {
        require(event.data.utf8.count <= 3 * serializer.maximumEventSize, "an event larger than its limit")
    }
    return 0
}

private func read(_ body: [UInt8], with serializer: ServerSentEventsResponseSerializer, sizes: [Int]) -> (events: [ServerSentEvent], error: StreamingResponseError?) {
    let head = HTTPResponse(status: .ok, headerFields: [.contentType: "text/event-stream"])
    guard let decoder = try? serializer.makeBodyDecoder(for: head) else {
        require(false, "no decoder")
        return ([], nil)
    }
    let result = decodeInChunks(body, with: decoder, sizes: sizes)
    return (result.values, result.error)
}
