import HTTPSerializationCore
/// Exact questions about a scanned (so well-formed) JSON number's text.
enum JSONNumberText {
    /// A scanned number (its text and lexer flags) as `T`, when `T` holds it exactly.
    @inline(__always)
    static func integer<T: FixedWidthInteger>(_ text: UnsafeBufferPointer<UInt8>, flags: UInt8) -> T? {
        guard flags & JSONTape.isInteger != 0, text.count <= 18 else { return exactInteger(text) }
        let (negative, magnitude) = shortInteger(text)
        return T(exactly: negative ? -magnitude : magnitude)
    }

    /// A scanned number as `T`, rounded to nearest; nil when it is out of `T`'s range or so
    /// small it became zero, which `JSONDecoder` refuses both.
    @inline(__always)
    static func floatingPoint<T: BinaryFloatingPoint & LosslessStringConvertible>(_ text: UnsafeBufferPointer<UInt8>, flags: UInt8) -> T? {
        let value: T
        if T.self == Double.self {
            value = T(JSONTapeReader.double(text, negative: flags & JSONTape.isNegative != 0))
        } else if flags & JSONTape.isInteger != 0, text.count <= 18, let int = smallInteger(text) {
            value = T(int)
        } else {
            value = T(String(decoding: text, as: UTF8.self))!
        }
        guard value.isFinite, value != 0 || isZero(text) else { return nil }
        return value
    }

    /// An integer of up to 18 digits, except a negative zero (which only a float holds).
    private static func smallInteger(_ text: UnsafeBufferPointer<UInt8>) -> Int? {
        let (negative, magnitude) = shortInteger(text)
        if negative, magnitude == 0 { return nil }
        return negative ? -magnitude : magnitude
    }

    /// The sign and magnitude of an integer's text of up to 18 digits, which cannot overflow.
    @inline(__always)
    private static func shortInteger(_ text: UnsafeBufferPointer<UInt8>) -> (negative: Bool, magnitude: Int) {
        let negative = text[0] == UInt8(ascii: "-")
        var magnitude = 0
        for index in (negative ? 1 : 0)..<text.count { magnitude = magnitude &* 10 &+ Int(text[index] &- UInt8(ascii: "0")) }
        return (negative, magnitude)
    }

    /// The number as an integer of type `T` when it is one exactly (`12`, `1.20e1`, `-0.0`)
    /// and `T` holds it; nil when it has a fraction or is out of `T`'s range.
    static func exactInteger<T: FixedWidthInteger>(_ text: UnsafeBufferPointer<UInt8>) -> T? {
        let negative = text.first == UInt8(ascii: "-")
        var index = negative ? 1 : 0
        // Where the significant digits are (integer and fraction part), and the exponent.
        var digits: [UInt8] = []
        var fractionDigits = 0
        var inFraction = false
        var exponent = 0
        while index < text.count {
            let byte = text[index]
            if byte == UInt8(ascii: ".") {
                inFraction = true
            } else if byte | 0x20 == UInt8(ascii: "e") {
                index += 1
                var sign = 1
                if text[index] == UInt8(ascii: "-") { sign = -1; index += 1 } else if text[index] == UInt8(ascii: "+") { index += 1 }
                while index < text.count {
                    // Beyond this, any nonzero digits overflow and any fraction stays a fraction.
                    if exponent < 100_000 { exponent = exponent * 10 + Int(text[index] &- UInt8(ascii: "0")) }
                    index += 1
                }
                exponent *= sign
                break
            } else {
                if !(digits.isEmpty && byte == UInt8(ascii: "0")) { digits.append(byte &- UInt8(ascii: "0")) }
                if inFraction { fractionDigits += 1 }
            }
            index += 1
        }
        // The value is digits × 10^scale; drop trailing zeros into the scale.
        var scale = exponent - fractionDigits
        while let last = digits.last, last == 0 {
            digits.removeLast()
            scale += 1
        }
        if digits.isEmpty { return 0 }
        guard scale >= 0, digits.count + scale <= 40 else { return nil }
        guard !negative || T.isSigned else { return nil }
        // Accumulate towards the sign, so that `T.min` is reachable.
        var value: T = 0
        for digit in digits + Array(repeating: 0, count: scale) {
            let (times, overflow) = value.multipliedReportingOverflow(by: 10)
            let (next, carry) = negative ? times.subtractingReportingOverflow(T(digit)) : times.addingReportingOverflow(T(digit))
            if overflow || carry { return nil }
            value = next
        }
        return value
    }

    /// Whether the number is zero as written (a nonzero digit before any exponent says not),
    /// so that a conversion that rounded to zero can be told from a true zero.
    static func isZero(_ text: UnsafeBufferPointer<UInt8>) -> Bool {
        for byte in text {
            if byte | 0x20 == UInt8(ascii: "e") { return true }
            if byte > UInt8(ascii: "0"), byte <= UInt8(ascii: "9") { return false }
        }
        return true
    }
}
