#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// `Decimal`'s `description`, written as bytes without building a `String`.
///
/// Foundation's `description` divides the 128-bit mantissa by ten once per digit and builds
/// the text a character at a time (the design notes have its cost), which made
/// `Decimal`s the whole cost of writing a tree `JSONSerialization` had read. This reads the
/// value's parts from its storage and writes the same text from 19-digit chunks.
///
/// `Decimal`'s stored parts are not public on Linux, so their layout is checked once: sample
/// values written both ways must agree, under the layout of swift-foundation's `Decimal` or of
/// the C `NSDecimal` bit fields. When neither agrees, every value goes through `description`.
@usableFromInline
package enum DecimalText {
    /// Where the length and sign sit in the byte after the exponent.
    enum Layout: Sendable {
        /// swift-foundation: the length in the high nibble, the sign at bit 3.
        case essentials
        /// `NSDecimal`'s C bit fields: the length in the low nibble, the sign at bit 4.
        case bitFields
    }

    /// The value's sign, exponent and mantissa (below 2^128, as `high` and `low` words).
    struct Parts {
        var negative: Bool
        var exponent: Int
        var high: UInt64
        var low: UInt64
    }

    /// The layout this platform's `Decimal` has, or `nil` when its storage is not read.
    static let layout: Layout? = {
        guard MemoryLayout<Decimal>.size == 20 else { return nil }
        let samples = ["-123.456", "0.000123", "340282366920938463463374607431768211455", "-98765432109876543210.5",
                       "1500", "7e20", "-0.5", "0"].compactMap { Decimal(string: $0) }
        guard samples.count == 8 else { return nil }
        for layout in [Layout.essentials, .bitFields] {
            let agrees = samples.allSatisfy { sample in
                guard let parts = parts(of: sample, layout: layout) else { return false }
                let output = ByteOutput()
                write(parts, to: output)
                return output.bytes.elementsEqual(sample.description.utf8)
            }
            if agrees { return layout }
        }
        return nil
    }()

    /// Appends `decimal`'s `description` (NaN excepted: the caller refuses it) to `output`.
    @usableFromInline package static func append(_ decimal: Decimal, to output: ByteOutput) {
        if let layout, let parts = parts(of: decimal, layout: layout) {
            write(parts, to: output)
        } else {
            output.append(utf8Of: decimal.description)
        }
    }

    /// `decimal`'s `description` (query strings and form bodies write it too), built the same way.
    package static func string(_ decimal: Decimal) -> String {
        let output = ByteOutput()
        append(decimal, to: output)
        return output.makeString()
    }

    /// `decimal`'s parts under `layout`, or `nil` for NaN, a length past eight words, and the
    /// non-canonical values Foundation's own arithmetic never makes but `description` writes
    /// its own way (mantissa words past the length, a zero mantissa with a length): those take
    /// `description`.
    static func parts(of decimal: Decimal, layout: Layout) -> Parts? {
        withUnsafeBytes(of: decimal) { raw -> Parts? in
            let flags = raw[1]
            let length: Int, negative: Bool
            switch layout {
            case .essentials: (length, negative) = (Int(flags >> 4), flags & 0x08 != 0)
            case .bitFields: (length, negative) = (Int(flags & 0x0F), flags & 0x10 != 0)
            }
            guard length <= 8, !(length == 0 && negative) else { return nil }
            var high: UInt64 = 0, low: UInt64 = 0
            for index in 0..<8 {
                // The words are native 16-bit integers, least significant first.
                let word = UInt64(raw.loadUnaligned(fromByteOffset: 4 + 2 * index, as: UInt16.self))
                if index >= length {
                    guard word == 0 else { return nil }
                } else if index < 4 {
                    low |= word << (16 * index)
                } else {
                    high |= word << (16 * (index - 4))
                }
            }
            guard length == 0 || high != 0 || low != 0 else { return nil }
            return Parts(negative: negative, exponent: Int(Int8(bitPattern: raw[0])), high: high, low: low)
        }
    }

    /// Writes `parts` as `description` does: all digits of the mantissa (zeros included), then
    /// the exponent's zeros when it is positive, or a point that many digits from the right
    /// (with `0.` and zeros in front when the digits run out); no exponent notation.
    static func write(_ parts: Parts, to output: ByteOutput) {
        if parts.high == 0, parts.low == 0 {
            output.append(UInt8(ascii: "0"))
            return
        }
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 40) { buffer in
            let end = buffer.baseAddress! + 40
            let start = digits(high: parts.high, low: parts.low, before: end)
            let count = end - start
            let fraction = max(0, -parts.exponent)
            // Sign, "0." and leading zeros, digits, trailing zeros.
            output.reserve(3 + max(count, fraction) + max(0, parts.exponent))
            if parts.negative { output.append(UInt8(ascii: "-")) }
            if fraction == 0 {
                output.append(contentsOf: UnsafeBufferPointer(start: start, count: count))
                output.append(repeating: UInt8(ascii: "0"), count: parts.exponent)
            } else if count > fraction {
                output.append(contentsOf: UnsafeBufferPointer(start: start, count: count - fraction))
                output.append(UInt8(ascii: "."))
                output.append(contentsOf: UnsafeBufferPointer(start: end - fraction, count: fraction))
            } else {
                output.append("0.")
                output.append(repeating: UInt8(ascii: "0"), count: fraction - count)
                output.append(contentsOf: UnsafeBufferPointer(start: start, count: count))
            }
        }
    }

    /// Writes the decimal digits of `high · 2^64 + low` (not zero) to end just before `end`,
    /// returning where they start; the value is cut into 19-digit chunks by 10^19.
    static func digits(high: UInt64, low: UInt64, before end: UnsafeMutablePointer<UInt8>) -> UnsafeMutablePointer<UInt8> {
        if high == 0 { return backward(low, before: end, width: 1) }
        let chunk: UInt64 = 10_000_000_000_000_000_000
        // high < 2·10^19, so each full-width division below has its quotient fit a word.
        let (topHigh, remainder) = high.quotientAndRemainder(dividingBy: chunk)
        let (top, last) = chunk.dividingFullWidth((remainder, low))
        let (first, middle) = chunk.dividingFullWidth((topHigh, top))
        var start = backward(last, before: end, width: 19)
        if first == 0 { return backward(middle, before: start, width: 1) }
        start = backward(middle, before: start, width: 19)
        return backward(first, before: start, width: 1)
    }

    /// The digits 00 to 99 in pairs.
    private static let pairs: StaticString = """
        00010203040506070809101112131415161718192021222324252627282930313233343536373839\
        40414243444546474849505152535455565758596061626364656667686970717273747576777879\
        8081828384858687888990919293949596979899
        """

    /// Writes `value`'s digits, at least `width` of them (zeros in front), ending before `end`.
    @inline(__always)
    static func backward(_ value: UInt64, before end: UnsafeMutablePointer<UInt8>, width: Int) -> UnsafeMutablePointer<UInt8> {
        var value = value
        var cursor = end
        let table = pairs.utf8Start
        while value >= 100 {
            let (rest, pair) = value.quotientAndRemainder(dividingBy: 100)
            cursor -= 2
            cursor[0] = table[2 * Int(pair)]
            cursor[1] = table[2 * Int(pair) + 1]
            value = rest
        }
        if value >= 10 {
            cursor -= 2
            cursor[0] = table[2 * Int(value)]
            cursor[1] = table[2 * Int(value) + 1]
        } else {
            cursor -= 1
            cursor[0] = UInt8(ascii: "0") + UInt8(value)
        }
        while end - cursor < width {
            cursor -= 1
            cursor[0] = UInt8(ascii: "0")
        }
        return cursor
    }
}
