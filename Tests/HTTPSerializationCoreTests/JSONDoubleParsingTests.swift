#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Testing
@testable import HTTPSerializationCore

@Suite("JSON numbers: doubles of up to 19 digits rounded as the standard library rounds them")
struct JSONDoubleParsingTests {
    /// Our conversion of `significand`e`power`, or nil where it defers to the standard library.
    static func converted(_ significand: UInt64, _ power: Int) -> (ours: Double?, expected: Double) {
        (JSONTapeReader.nearestDouble(significand: significand, power: power), Double("\(significand)e\(power)")!)
    }

    @Test("300,000 random significands of 1 to 19 digits at every power of ten convert exactly")
    func randomSignificands() {
        var generator = SplitMix(state: 24)
        var deferred = 0
        var mismatches: [String] = []
        for _ in 0..<300_000 {
            let digits = Int.random(in: 1...19, using: &generator)
            let upper: UInt64 = digits == 19 ? UInt64.max / 10 * 10 : (0..<digits).reduce(1) { value, _ in value * 10 }
            let lower: UInt64 = digits == 1 ? 1 : (1..<digits).reduce(1) { value, _ in value * 10 }
            let significand = UInt64.random(in: lower..<max(upper, lower + 1), using: &generator)
            let power = Int.random(in: -360...320, using: &generator)
            let (ours, expected) = Self.converted(significand, power)
            guard let ours else { deferred += 1; continue }
            if ours.bitPattern != expected.bitPattern, mismatches.count < 5 { mismatches.append("\(significand)e\(power): \(ours) != \(expected)") }
        }
        #expect(mismatches.isEmpty)
        // The undecided case is rare; nearly everything is converted here.
        #expect(deferred < 300)
    }

    @Test("values exactly halfway between two doubles round to the even one", arguments: 0...23)
    func halfwayValuesRoundToEven(power: Int) {
        var generator = SplitMix(state: UInt64(power) + 100)
        let fivePower = (0..<power).reduce(UInt64(1)) { value, _ in value * 5 }
        var checked = 0
        for _ in 0..<2_000 {
            // An odd 54-bit M sits halfway between two 53-bit doubles; M × 2^shift is
            // t × 2^(shift - power) × 10^power when M = t × 5^power.
            let smallest = ((1 << 53) + fivePower - 1) / fivePower, largest = ((1 << 54) - 1) / fivePower
            let t = UInt64.random(in: smallest...largest, using: &generator) | 1
            guard t <= largest else { continue }
            let shift = power + Int.random(in: 0...4, using: &generator)
            let significand = t << UInt64(shift - power)
            guard significand < 10_000_000_000_000_000_000, significand >> UInt64(shift - power) == t else { continue }
            let (ours, expected) = Self.converted(significand, power)
            #expect(ours == nil || ours?.bitPattern == expected.bitPattern, "\(significand)e\(power)")
            checked += 1
        }
        for _ in 0..<2_000 where power <= 4 {
            // Halfway values below one: M × 2^-power = (M × 5^power) × 10^-power.
            let m = UInt64.random(in: (1 << 53)..<(1 << 54), using: &generator) | 1
            let (ours, expected) = Self.converted(m * fivePower, -power)
            #expect(ours == nil || ours?.bitPattern == expected.bitPattern, "\(m * fivePower)e-\(power)")
            checked += 1
        }
        #expect(checked > 0)
    }

    @Test("boundaries: subnormals, the largest double, underflow to zero, and classic hard cases read from a document")
    func boundaries() throws {
        let texts = [
            "4.9e-324", "5e-324", "2.4703282292062327e-324", "2.4703282292062328e-324", "1e-400", "2.2250738585072011e-308",
            "2.2250738585072014e-308", "2.2250738585072012e-308", "1.7976931348623157e308", "1.7976931348623158e308",
            "9007199254740993e0", "9007199254740992.5", "7.2057594037927933e16", "1e23", "8.98846567431158e307",
            "0.1", "3.14159", "-0.0", "0e999999", "1.00000000000000011102230246251565404236316680908203125",
            "123456789012345678901234567890e-20", "-2.5e-5", "18446744073709551615e0", "1.8446744073709551615e19",
        ]
        let document = Data(("[" + texts.joined(separator: ",") + "]").utf8)
        guard case .array(let values) = try ParameterValue(json: document) else {
            Issue.record("not an array")
            return
        }
        for (text, value) in zip(texts, values) {
            guard case .double(let read) = value else {
                Issue.record("\(text) read as \(value)")
                continue
            }
            #expect(read.bitPattern == Double(text)!.bitPattern, "\(text)")
        }
    }
}
