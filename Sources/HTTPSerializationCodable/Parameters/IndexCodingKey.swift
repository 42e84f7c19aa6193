/// A list element's place in a coding path, for the encoders and decoders that make their own.
///
/// One word, so it sits inside an `any CodingKey` without a box of its own, and its text is
/// made only when something reads it: appending it to a path per element costs no allocation.
struct IndexCodingKey: CodingKey {
    var stringValue: String { String(index) }
    var intValue: Int? { index }
    let index: Int
    init(_ index: Int) { self.index = index }
    init?(stringValue: String) { nil }
    init?(intValue: Int) { self.index = intValue }
}
