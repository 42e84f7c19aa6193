internal import CZlib

/// zlib's deflate, whole: the bytes of `input` in `encoding`.
///
/// The tests' source of compressed bodies today; request compression builds on it.
package enum Deflater {
    /// `input` compressed as gzip (one member) or zlib-wrapped deflate, at `level` (0–9).
    package static func compress(_ input: [UInt8], as encoding: ContentEncoding, level: Int32 = 6) -> [UInt8] {
        let stream = UnsafeMutablePointer<z_stream>.allocate(capacity: 1)
        stream.initialize(to: z_stream())
        defer {
            deflateEnd(stream)
            stream.deinitialize(count: 1)
            stream.deallocate()
        }
        guard czlib_deflate_init(stream, level, encoding == .gzip ? 31 : 15) == Z_OK else { return [] }
        var result: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        input.withUnsafeBufferPointer { source in
            stream.pointee.next_in = UnsafeMutablePointer(mutating: source.baseAddress)
            stream.pointee.avail_in = UInt32(source.count)
            var status = Z_OK
            while status == Z_OK {
                chunk.withUnsafeMutableBufferPointer { out in
                    stream.pointee.next_out = out.baseAddress
                    stream.pointee.avail_out = UInt32(out.count)
                    status = deflate(stream, Z_FINISH)
                    result += out[..<(out.count - Int(stream.pointee.avail_out))]
                }
            }
        }
        return result
    }
}
