/// The seeded generator of Docs/Benchmarks.md §1–2: SplitMix64 and the token alphabet, shared by
/// the benchmarks and the property tests so both draw the same reproducible inputs.
public struct SplitMix64: RandomNumberGenerator, Sendable {
    private var state: UInt64

    public init(seed: UInt64) { state = seed }

    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    public mutating func below(_ n: UInt64) -> UInt64 { next() % n }

    public mutating func range(_ lo: Int, _ hi: Int) -> Int { lo + Int(below(UInt64(hi - lo + 1))) }

    static let alnum: [String] = (Array("abcdefghijklmnopqrstuvwxyz") + Array("ABCDEFGHIJKLMNOPQRSTUVWXYZ") + Array("0123456789")).map(String.init)
    static let unreserved = ["-", ".", "_", "~"]
    static let reserved = [":", "#", "[", "]", "@", "!", "$", "&", "'", "(", ")", "*", "+", ",", ";", "=", "?", "/", " "]
    static let cjk = ["\u{65E5}", "\u{672C}", "\u{8A9E}", "\u{4E2D}", "\u{6587}", "\u{6F22}", "\u{5B57}", "\u{6771}",
                      "\u{4EAC}", "\u{5317}", "\u{4E0A}", "\u{6D77}", "\u{D55C}", "\u{AD6D}", "\u{C5B4}", "\u{304B}"]
    static let emoji = ["\u{1F600}", "\u{1F389}", "\u{1F680}", "\u{1F44D}\u{1F3FD}", "\u{2764}\u{FE0F}",
                        "\u{1F1EF}\u{1F1F5}", "\u{1F468}\u{200D}\u{1F469}\u{200D}\u{1F467}", "\u{1F642}"]

    public mutating func token() -> String {
        let c = below(100)
        let list: [String]
        switch c {
        case ..<55: list = Self.alnum
        case ..<60: list = Self.unreserved
        case ..<80: list = Self.reserved
        case ..<92: list = Self.cjk
        default: list = Self.emoji
        }
        return list[Int(below(UInt64(list.count)))]
    }

    public mutating func str(_ lo: Int, _ hi: Int) -> String {
        let n = range(lo, hi)
        var text = ""
        for _ in 0..<n { text += token() }
        return text
    }
}
