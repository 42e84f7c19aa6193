internal import CZlib

/// zlib's inflate over a body that arrives in chunks, with the checks HTTP needs: the limits,
/// a stream that must end, nothing after it but further gzip members.
final class Inflater {
    private let stream: UnsafeMutablePointer<z_stream>
    private let encoding: ContentEncoding
    private let limits: DecompressionLimits
    private var output: UnsafeMutableBufferPointer<UInt8>
    private var initialized = false
    /// The first bytes of a deflate body, held until two show whether it is zlib-wrapped.
    private var deflateHead: [UInt8] = []
    /// Input has been fed since the last member ended (or since the start).
    private var inMember = false
    /// A member has ended and nothing has followed it yet.
    private var memberEnded = false
    /// A gzip member after the first has begun and given no output yet: a fault here means
    /// the bytes after the last member were not a member.
    private var inLaterMemberHead = false
    private var consumed = 0
    private var produced = 0

    static let ratioFloor = 1 << 20

    init(encoding: ContentEncoding, limits: DecompressionLimits) {
        self.encoding = encoding
        self.limits = limits
        stream = .allocate(capacity: 1)
        stream.initialize(to: z_stream())
        output = .allocate(capacity: 1 << 16)
    }

    deinit {
        if initialized { inflateEnd(stream) }
        stream.deinitialize(count: 1)
        stream.deallocate()
        output.deallocate()
    }

    /// Decodes `input`, handing each piece of output to `sink` (valid only during the call).
    func decompress(_ input: UnsafeBufferPointer<UInt8>, _ sink: (UnsafeBufferPointer<UInt8>) throws -> Void) throws {
        guard !input.isEmpty else { return }
        if !initialized {
            guard encoding == .deflate else {
                try start(windowBits: 31)
                return try feed(input, sink)
            }
            // zlib's header: CM 8 in the low nibble, and the two bytes a multiple of 31.
            let needed = 2 - deflateHead.count
            deflateHead += input.prefix(needed)
            guard deflateHead.count == 2 else { inMember = true; return }
            let wrapped = deflateHead[0] & 0x0F == 8 && (UInt16(deflateHead[0]) << 8 | UInt16(deflateHead[1])) % 31 == 0
            try start(windowBits: wrapped ? 15 : -15)
            let head = deflateHead
            try head.withUnsafeBufferPointer { try feed($0, sink) }
            return try feed(UnsafeBufferPointer(rebasing: input[min(needed, input.count)...]), sink)
        }
        try feed(input, sink)
    }

    /// The body has ended: the compressed stream must have ended too (an empty body is fine).
    func finish() throws {
        if inMember { throw DecompressionError.truncated }
    }

    private func start(windowBits: Int32) throws {
        guard czlib_inflate_init(stream, windowBits) == Z_OK else { throw DecompressionError.corrupt(reason: "zlib could not start") }
        initialized = true
    }

    private func feed(_ input: UnsafeBufferPointer<UInt8>, _ sink: (UnsafeBufferPointer<UInt8>) throws -> Void) throws {
        guard let base = input.baseAddress, !input.isEmpty else { return }
        stream.pointee.next_in = UnsafeMutablePointer(mutating: base)
        stream.pointee.avail_in = UInt32(input.count)
        // One pass per member: a body may hold many (gzip members are concatenated).
        while stream.pointee.avail_in > 0 {
            if memberEnded {
                // After a member only another gzip member may follow.
                guard encoding == .gzip else { throw DecompressionError.trailingData }
                let next = stream.pointee.next_in, left = stream.pointee.avail_in
                inflateReset(stream)
                stream.pointee.next_in = next
                stream.pointee.avail_in = left
                memberEnded = false
                inLaterMemberHead = true
            }
            inMember = true
            try inflateMember(sink)
            if !memberEnded { return }
        }
    }

    /// Inflates until the input runs out or the member ends.
    private func inflateMember(_ sink: (UnsafeBufferPointer<UInt8>) throws -> Void) throws {
        while true {
            stream.pointee.next_out = output.baseAddress
            stream.pointee.avail_out = UInt32(output.count)
            let before = stream.pointee.avail_in
            let status = inflate(stream, Z_NO_FLUSH)
            consumed += Int(before - stream.pointee.avail_in)
            let count = output.count - Int(stream.pointee.avail_out)
            if count > 0 {
                inLaterMemberHead = false
                produced += count
                try checkLimits()
                try sink(UnsafeBufferPointer(rebasing: output[..<count]))
            }
            switch status {
            case Z_STREAM_END:
                inLaterMemberHead = false
                inMember = false
                memberEnded = true
                return
            case Z_OK:
                if stream.pointee.avail_in == 0, stream.pointee.avail_out != 0 { return }
            case Z_BUF_ERROR:
                return  // needs more input
            default:
                // Bytes after a gzip member that do not start another are not a member.
                if inLaterMemberHead { throw DecompressionError.trailingData }
                let reason = stream.pointee.msg.map { String(cString: $0) } ?? "zlib error \(status)"
                throw DecompressionError.corrupt(reason: reason)
            }
        }
    }

    private func checkLimits() throws {
        if let maximum = limits.maximumSize, produced > maximum { throw DecompressionError.outputTooLarge(limit: maximum) }
        if produced > Self.ratioFloor, produced / max(consumed, 1) > limits.maximumRatio {
            throw DecompressionError.ratioTooHigh(limit: limits.maximumRatio)
        }
    }
}
