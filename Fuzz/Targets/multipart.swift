import Foundation
import HTTPSerialization

/// Multipart bodies of arbitrary parts: `contentLength` is exact, every adapter agrees, and a
/// parser written here (sharing nothing with the encoder) reads the same parts back.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzMultipart(_ start: UnsafeRawPointer?, _ count: Int) -> CInt {
    var input = FuzzBytes(UnsafeRawBufferPointer(start: start, count: count))
    var form = MultipartFormData()
    var bodies: [[UInt8]] = []
    for _ in 0..<input.below(5) {
        let body = input.data(maximum: 64)
        let name = input.string(maximum: 8)
        do {
            switch input.below(4) {
            case 0: try form.appendPart(formData: Data(body), name: name)
            case 1: try form.appendPart(fileData: Data(body), name: name, fileName: input.string(maximum: 8), mimeType: input.string(maximum: 8))
            case 2:
                let copy = Data(body)
                try form.appendPart(streamFactory: { InputStream(data: copy) }, name: name, fileName: "s", length: UInt64(body.count), mimeType: "x/y")
            default:
                var headers = HTTPHeaderFields()
                try headers.setValue(input.string(maximum: 8), forHTTPHeaderField: "X-Fuzz")
                form.appendPart(headers: headers, body: Data(body))
            }
            bodies.append(body)
        } catch is any HTTPSerializationError {
            continue  // an unsafe name or type was refused, as it must be
        } catch {
            require(false, "an untyped error: \(error)")
        }
    }
    guard let encoded = try? form.encodedData() else { require(false, "encoding failed"); return 0 }
    require(UInt64(encoded.count) == form.contentLength, "\(encoded.count) bytes, contentLength \(form.contentLength)")
    var streamed = Data()
    let stream = form.makeInputStream()
    stream.open()
    var buffer = [UInt8](repeating: 0, count: 1 + input.below(97))
    while stream.hasBytesAvailable {
        let read = stream.read(&buffer, maxLength: buffer.count)
        if read <= 0 { break }
        streamed.append(buffer, count: read)
    }
    require(streamed == encoded, "the stream and encodedData differ")
    require(parse(encoded, boundary: form.boundary) == bodies, "the parts did not come back")
    return 0
}

/// Splits on CRLF "--boundary", skipping each part's headers up to the blank line.
private func parse(_ body: Data, boundary: String) -> [[UInt8]] {
    guard !body.isEmpty else { return [] }
    let delimiter = Data("\r\n--\(boundary)".utf8)
    var parts: [[UInt8]] = []
    var rest = Data("\r\n".utf8) + body
    while let range = rest.range(of: delimiter) {
        let after = rest[range.upperBound...]
        if after.starts(with: Data("--".utf8)) { break }
        guard let blank = after.range(of: Data("\r\n\r\n".utf8)) ?? (after.dropFirst(2).starts(with: Data("\r\n".utf8)) ? after.startIndex + 2..<after.startIndex + 4 : nil),
              let next = rest.range(of: delimiter, in: blank.upperBound..<rest.endIndex) else { return parts + [[0xFF]] }
        parts.append(Array(rest[blank.upperBound..<next.lowerBound]))
        rest = Data(rest[next.lowerBound...])
    }
    return parts
}
