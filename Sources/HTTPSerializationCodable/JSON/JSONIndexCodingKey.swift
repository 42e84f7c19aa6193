/// An array element's place in a JSON coding path, named as `JSONEncoder` and `JSONDecoder`
/// name it: `"Index 2"`, with `intValue` 2.
///
/// One word, so it sits inside an `any CodingKey` without a box of its own, and its text is
/// made only when something reads it (an error's path, a custom key strategy).
struct JSONIndexCodingKey: CodingKey {
    var stringValue: String { "Index \(index)" }
    var intValue: Int? { index }
    let index: Int
    init(_ index: Int) { self.index = index }
    init?(stringValue: String) { nil }
    init?(intValue: Int) { self.index = intValue }
}
