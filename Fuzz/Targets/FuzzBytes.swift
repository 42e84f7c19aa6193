import HTTPSerialization

/// Reads fuzz input as a stream of choices; exhausted input reads as zeros, so every input
/// is a complete program.
struct FuzzBytes {
    private let bytes: UnsafeRawBufferPointer
    private var index = 0

    init(_ bytes: UnsafeRawBufferPointer) {
        self.bytes = bytes
    }

    var isEmpty: Bool { index >= bytes.count }

    mutating func byte() -> UInt8 {
        guard index < bytes.count else { return 0 }
        defer { index += 1 }
        return bytes[index]
    }

    mutating func below(_ count: Int) -> Int {
        Int(byte()) % max(1, count)
    }

    mutating func data(maximum: Int) -> [UInt8] {
        (0..<below(maximum + 1)).map { _ in byte() }
    }

    mutating func string(maximum: Int) -> String {
        String(decoding: data(maximum: maximum), as: UTF8.self)
    }

    /// The rest of the input.
    mutating func rest() -> [UInt8] {
        guard index < bytes.count else { return [] }
        defer { index = bytes.count }
        return Array(bytes[index...])
    }
}

func require(_ condition: Bool, _ message: @autoclosure () -> String) {
    if !condition {
        fatalError("fuzz invariant broken: \(message())")
    }
}

/// Feeds `body` to `decoder` in chunks whose sizes cycle through `sizes`, then finishes it:
/// the values it gave and the streaming error that stopped it, if any. Any other error
/// breaks the invariant that streaming faults are typed.
func decodeInChunks<Decoder: StreamingBodyDecoder>(
    _ body: [UInt8], with decoder: Decoder, sizes: [Int]
) -> (values: [Decoder.Value], error: StreamingResponseError?) {
    var decoder = decoder
    var values: [Decoder.Value] = []
    do {
        do {
            let bytes = body.span
            var start = 0, turn = 0
            while start < bytes.count {
                let end = min(start + sizes[turn % sizes.count], bytes.count)
                try decoder.decode(bytes.extracting(start..<end), into: &values)
                start = end
                turn += 1
            }
        }
        try decoder.finish(into: &values)
        return (values, nil)
    } catch let error as StreamingResponseError {
        return (values, error)
    } catch {
        require(false, "an untyped error: \(error)")
        return (values, nil)
    }
}
