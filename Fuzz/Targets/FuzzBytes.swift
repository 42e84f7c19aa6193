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
