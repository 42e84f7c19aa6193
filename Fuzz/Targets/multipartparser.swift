import Foundation
import HTTPSerialization

/// The multipart parser on arbitrary bytes cut into arbitrary chunks, with small random
/// limits: parts or a typed `MultipartParsingError`, never a crash or a hang, and the same
/// outcome as the body read in one piece, so no chunk boundary (inside a delimiter, a CRLF, a
/// header block) changes what a server sees.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzMultipartParser(_ start: UnsafeRawPointer?, _ count: Int) -> CInt {
    var input = FuzzBytes(UnsafeRawBufferPointer(start: start, count: count))
    var limits = MultipartParsingLimits()
    limits.maximumPartCount = 1 + input.below(16)
    limits.maximumHeaderBytes = 1 + input.below(160)
    limits.maximumHeaderCount = 1 + input.below(8)
    limits.maximumFieldBytes = 1 + input.below(256)
    limits.maximumFileBytes = 1 + input.below(256)
    let requiresNames = input.byte() & 1 == 0
    let sizes = (0..<4).map { _ in 1 + input.below(32) }
    let body = input.rest()
    let whole = parse(body, limits: limits, requiresNames: requiresNames, sizes: [max(body.count, 1)])
    let chunked = parse(body, limits: limits, requiresNames: requiresNames, sizes: sizes)
    require(whole.error == chunked.error && (whole.error != nil || whole.parts == chunked.parts),
            "chunks \(sizes) read \(chunked) where one piece reads \(whole): \(String(decoding: body, as: UTF8.self).debugDescription)")
    for part in whole.parts {
        require(part.body.count <= 256, "a part past its limit")
    }
    return 0
}

private struct Part: Equatable {
    var head: MultipartPartHead
    var body: [UInt8]
    var ended = false
}

private func parse(_ body: [UInt8], limits: MultipartParsingLimits, requiresNames: Bool, sizes: [Int]) -> (parts: [Part], error: MultipartParsingError?) {
    var parts: [Part] = []
    do {
        var parser = try MultipartBodyParser(boundary: "b", requiresNames: requiresNames, limits: limits)
        var offset = 0
        var round = 0
        do {
            let all = body.span
            while offset < all.count {
                let size = min(sizes[round % sizes.count], all.count - offset)
                round += 1
                try parser.parse(all.extracting(offset..<(offset + size))) { event in
                    switch event {
                    case .head(let head):
                        require(parts.last?.ended ?? true, "a part began before the last ended")
                        parts.append(Part(head: head, body: []))
                    case .body(let bytes):
                        require(!bytes.isEmpty && parts.last?.ended == false, "body bytes outside a part")
                        for index in bytes.indices { parts[parts.count - 1].body.append(bytes[index]) }
                    case .end:
                        require(parts.last?.ended == false, "an end outside a part")
                        parts[parts.count - 1].ended = true
                    }
                }
                offset += size
            }
        }
        try parser.finish()
        return (parts, nil)
    } catch let error as MultipartParsingError {
        return (parts, error)
    } catch {
        require(false, "not a MultipartParsingError: \(error)")
        return (parts, nil)
    }
}
