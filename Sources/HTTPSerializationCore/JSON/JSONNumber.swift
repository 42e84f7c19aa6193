#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// A JSON number as the Swift type that holds it exactly.
///
/// Integers that fit `Int` are `Int`, positive ones up to `UInt64.max` `UInt64`; larger
/// integers are `Decimal` when its 38 digits hold them exactly, otherwise the nearest
/// `Double`; numbers with a fraction or an exponent are the nearest `Double`. `-0` is the
/// `Double` -0.0, so its sign survives.
package enum JSONNumber: Equatable {
    case int(Int)
    case uint64(UInt64)
    case decimal(Decimal)
    case double(Double)
}

extension JSONTapeReader {
    /// The number at `entry` (scanned, so well-formed and within `Double`'s range).
    package func number(_ entry: Int) -> JSONNumber {
        let text = text(entry)
        let flags = flags(entry)
        let negative = flags & JSONTape.isNegative != 0
        if flags & JSONTape.isInteger != 0 {
            return JSONTapeReader.integer(text, negative: negative)
        }
        return .double(JSONTapeReader.double(text, negative: negative))
    }

    /// The number at `entry` as the nearest `Double`, whatever its form.
    package func double(_ entry: Int) -> Double {
        JSONTapeReader.double(text(entry), negative: flags(entry) & JSONTape.isNegative != 0)
    }

    private static func integer(_ text: UnsafeBufferPointer<UInt8>, negative: Bool) -> JSONNumber {
        let digits = negative ? UnsafeBufferPointer(rebasing: text.dropFirst()) : text
        if digits.count <= 18 {
            var value = 0
            for digit in digits { value = value &* 10 &+ Int(digit &- UInt8(ascii: "0")) }
            if negative { return value == 0 ? .double(-0.0) : .int(-value) }
            return .int(value)
        }
        var magnitude: UInt64 = 0
        var fits = true
        for digit in digits {
            let (times, overflow) = magnitude.multipliedReportingOverflow(by: 10)
            let (sum, carry) = times.addingReportingOverflow(UInt64(digit &- UInt8(ascii: "0")))
            if overflow || carry {
                fits = false
                break
            }
            magnitude = sum
        }
        if fits {
            if !negative, magnitude <= UInt64(Int.max) { return .int(Int(magnitude)) }
            if negative, magnitude <= UInt64(Int.max) + 1 { return .int(Int(truncatingIfNeeded: 0 &- magnitude)) }
            if !negative { return .uint64(magnitude) }
        }
        // Decimal holds 38 significant digits; trailing zeros go into its exponent.
        var significant = digits.count
        while significant > 1, digits[significant - 1] == UInt8(ascii: "0") { significant -= 1 }
        let string = String(decoding: text, as: UTF8.self)
        if significant <= 38, let decimal = Decimal(string: string) { return .decimal(decimal) }
        return .double(Double(string)!)
    }

    /// Exact when the digits fit 2^53 and the power of ten is within ±22 (both factors are
    /// then exact doubles and one rounding follows); up to 19 digits by the Eisel-Lemire
    /// method; otherwise (or in its rare undecided case) the standard library's correctly
    /// rounded conversion.
    package static func double(_ text: UnsafeBufferPointer<UInt8>, negative: Bool) -> Double {
        var significand: UInt64 = 0
        var digitCount = 0
        var fractionDigits = 0
        var index = negative ? 1 : 0
        var inFraction = false
        var exponent = 0
        var fits = true
        while index < text.count {
            let byte = text[index]
            if byte == UInt8(ascii: ".") {
                inFraction = true
            } else if byte | 0x20 == UInt8(ascii: "e") {
                var sign = 1
                index += 1
                if text[index] == UInt8(ascii: "-") { sign = -1; index += 1 } else if text[index] == UInt8(ascii: "+") { index += 1 }
                while index < text.count {
                    exponent = exponent * 10 + Int(text[index] &- UInt8(ascii: "0"))
                    if exponent > 100_000 { fits = false; break }
                    index += 1
                }
                exponent *= sign
                break
            } else {
                // Leading zeros are not significant; 19 digits always fit a UInt64.
                if significand != 0 || byte != UInt8(ascii: "0") { digitCount += 1 }
                if digitCount > 19 { fits = false; break }
                significand = significand &* 10 &+ UInt64(byte &- UInt8(ascii: "0"))
                if inFraction { fractionDigits += 1 }
            }
            index += 1
        }
        if fits {
            let power = exponent - fractionDigits
            if significand == 0 { return negative ? -0.0 : 0 }
            if significand < 1 << 53, (-22...22).contains(power) {
                let value = power >= 0 ? Double(significand) * powersOfTen[power] : Double(significand) / powersOfTen[-power]
                return negative ? -value : value
            }
            if let value = nearestDouble(significand: significand, power: power) { return negative ? -value : value }
        }
        return Double(String(decoding: text, as: UTF8.self))!
    }

    /// 10^0 through 10^22, every one exact in a `Double`; a literal, so it is laid out in the
    /// binary rather than built on first use and checked for that on every read.
    private static let powersOfTen: [Double] = [
        1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11,
        1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22,
    ]
}
