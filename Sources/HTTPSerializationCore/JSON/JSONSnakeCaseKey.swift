/// A key written in snake case compared with a coding key as `JSONDecoder`'s
/// `.convertFromSnakeCase` would compare them, byte by byte, with no converted copy made: how
/// the text cursor matches keys under that strategy.
///
/// The conversion keeps leading and trailing underscores, leaves a key with no underscore
/// between words as it is, and otherwise joins the words between underscores: the first
/// lower-cased, each other one capitalized.
package enum JSONSnakeCaseKey {
    /// Whether the ASCII key `key`, converted, is `wanted`; nil when the bytes do not settle it.
    ///
    /// A capitalized word is settled when it is letters (then digits, if any) or digits alone,
    /// which every implementation of `capitalized` treats alike; a word with other characters
    /// (`2nd`, `a-b`) makes the answer nil, unless the key is already ruled out: by its leading
    /// or trailing underscores, by the words before it, or by those words and it running past
    /// `wanted`'s length (case mapping keeps ASCII's length). Words after it are not looked at.
    package static func converts(_ key: UnsafeBufferPointer<UInt8>, to wanted: UnsafeBufferPointer<UInt8>) -> Bool? {
        let underscore = UInt8(ascii: "_")
        let count = key.count
        var first = 0
        while first < count, key[first] == underscore { first += 1 }
        var last = count
        while last > first, key[last - 1] == underscore { last -= 1 }
        // No underscore between words (or no words): the key is left as it is.
        guard key[first..<last].contains(underscore) else { return key.elementsEqual(wanted) }
        let trailing = count - last
        guard wanted.count >= first + trailing else { return false }
        for index in 0..<first where wanted[index] != underscore { return false }
        let wordsEnd = wanted.count - trailing
        for index in wordsEnd..<wanted.count where wanted[index] != underscore { return false }
        var out = first
        var index = first
        var isFirstWord = true
        while index < last {
            if key[index] == underscore {
                index += 1
                continue
            }
            var end = index
            while end < last, key[end] != underscore { end += 1 }
            let word = UnsafeBufferPointer(rebasing: key[index..<end])
            guard out + word.count <= wordsEnd else { return false }
            if isFirstWord {
                for byte in word {
                    if lowercased(byte) != wanted[out] { return false }
                    out += 1
                }
                isFirstWord = false
            } else {
                guard settled(word) else { return nil }
                for (offset, byte) in word.enumerated() {
                    if (offset == 0 ? uppercased(byte) : lowercased(byte)) != wanted[out] { return false }
                    out += 1
                }
            }
            index = end
        }
        return out == wordsEnd
    }

    /// Whether `word` is letters then digits, or digits alone: its capitalized form is its first
    /// letter upper-cased and the rest lower-cased, however words are found.
    private static func settled(_ word: UnsafeBufferPointer<UInt8>) -> Bool {
        var index = 0
        while index < word.count, isLetter(word[index]) { index += 1 }
        while index < word.count, word[index] &- UInt8(ascii: "0") < 10 { index += 1 }
        return index == word.count
    }

    private static func isLetter(_ byte: UInt8) -> Bool { (byte | 0x20) &- UInt8(ascii: "a") < 26 }
    private static func lowercased(_ byte: UInt8) -> UInt8 { byte &- UInt8(ascii: "A") < 26 ? byte | 0x20 : byte }
    private static func uppercased(_ byte: UInt8) -> UInt8 { byte &- UInt8(ascii: "a") < 26 ? byte & ~0x20 : byte }
}
