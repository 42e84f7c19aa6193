/// A name, prefix or namespace name compared byte for byte, as libxml2 compares them.
///
/// `String`'s own equality (and its hashing) treats canonically equivalent text as one:
/// "é" and "e\u{301}", "K" and the Kelvin sign. libxml2 does not, so with `String` keys the
/// reader would pass an end tag, an entity reference or a namespace prefix that FoundationXML
/// then reports as not matching, and refuse two attributes FoundationXML reads as distinct.
struct XMLExactName: Hashable {
    let text: String

    init(_ text: String) {
        self.text = text
    }

    init(_ text: Substring) {
        self.text = String(text)
    }

    static func == (left: Self, right: Self) -> Bool {
        same(left.text, right.text)
    }

    func hash(into hasher: inout Hasher) {
        var text = text
        text.withUTF8 { hasher.combine(bytes: UnsafeRawBufferPointer($0)) }
    }

    /// Whether two texts are the same bytes.
    static func same(_ left: String, _ right: String) -> Bool {
        left.utf8.count == right.utf8.count && left.utf8.elementsEqual(right.utf8)
    }
}
