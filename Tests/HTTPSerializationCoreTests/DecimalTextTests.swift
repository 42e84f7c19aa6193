#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Testing
@testable import HTTPSerializationCore

@Suite("JSON numbers: Decimals written as their description, without building it")
struct DecimalTextTests {
    /// The writer's bytes for `decimal`, as a JSON fragment.
    static func written(_ decimal: Decimal) throws -> String {
        String(decoding: try ParameterValue.decimal(decimal).jsonData(options: .fragmentsAllowed), as: UTF8.self)
    }

    #if os(Linux)
    @Test("On Linux the stored parts are read, not the description")
    func linuxReadsStoredParts() {
        #expect(DecimalText.layout == .essentials)
    }
    #endif

    @Test("30,000 seeded decimals of 1 to 38 digits at every exponent write as their description")
    func seededDecimalsMatchDescription() throws {
        var generator = SplitMix(state: 41)
        var mismatches: [String] = []
        var compared = 0
        for _ in 0..<30_000 {
            let digits = Int.random(in: 1...38, using: &generator)
            var text = Bool.random(using: &generator) ? "-" : ""
            for index in 0..<digits {
                text.append(Character(String(Int.random(in: index == 0 ? 1...9 : 0...9, using: &generator))))
            }
            // Up to 38 digits with the exponent in Int8's range, and so a Decimal.
            text += "e\(Int.random(in: -128...(127 - digits), using: &generator))"
            guard let decimal = Decimal(string: text) else {
                Issue.record("\(text) did not read as a Decimal")
                continue
            }
            compared += 1
            let ours = try Self.written(decimal)
            if ours != decimal.description, mismatches.count < 5 { mismatches.append("\(text): \(ours) != \(decimal.description)") }
        }
        #expect(compared == 30_000)
        #expect(mismatches.isEmpty, "\(mismatches)")
    }

    @Test("Results of arithmetic (mantissas with trailing zeros, full 128-bit mantissas) write as their description")
    func arithmeticResultsMatchDescription() throws {
        var generator = SplitMix(state: 42)
        var mismatches: [String] = []
        for _ in 0..<5_000 {
            let a = Decimal(Int.random(in: -1_000_000...1_000_000, using: &generator)) / Decimal(Int.random(in: 1...1_000, using: &generator))
            let b = Decimal(sign: .plus, exponent: Int.random(in: -20...20, using: &generator),
                            significand: Decimal(UInt64.random(in: 0...UInt64.max, using: &generator)))
            for value in [a, b, a * b, a + b, b * b * b] where !value.isNaN {
                let ours = try Self.written(value)
                if ours != value.description, mismatches.count < 5 { mismatches.append("\(ours) != \(value.description)") }
            }
        }
        #expect(mismatches.isEmpty, "\(mismatches)")
    }

    @Test("Extremes write as their description", arguments: [
        Decimal(0), Decimal(-1), Decimal(1500), Decimal(string: "0.000001")!, Decimal(string: "-1e127")!,
        Decimal(string: "1e-128")!, Decimal.greatestFiniteMagnitude, Decimal.leastFiniteMagnitude,
        Decimal.leastNonzeroMagnitude, Decimal(string: "18446744073709551616")!, Decimal(string: "10000000000000000000")!,
        Decimal(string: "99999999999999999999999999999999999999")!,
    ])
    func extremesMatchDescription(_ value: Decimal) throws {
        #expect(try Self.written(value) == value.description)
    }

    /// `parts` written to text, whatever layout this platform's `Decimal` has.
    static func text(_ negative: Bool, _ exponent: Int, high: UInt64 = 0, _ low: UInt64) -> String {
        let output = ByteOutput()
        DecimalText.write(DecimalText.Parts(negative: negative, exponent: exponent, high: high, low: low), to: output)
        return output.makeString()
    }

    @Test("Parts are laid out as description lays them out: digits kept, point placed, zeros added, no exponent")
    func partsAreFormatted() {
        #expect(Self.text(false, 0, 0) == "0")
        #expect(Self.text(true, -3, 1500) == "-1.500")
        #expect(Self.text(false, -4, 1500) == "0.1500")
        #expect(Self.text(false, -7, 1500) == "0.0001500")
        #expect(Self.text(false, 3, 15) == "15000")
        #expect(Self.text(true, -128, 1) == "-0." + String(repeating: "0", count: 127) + "1")
        // 2^128 - 1, and 2^64 (a middle chunk of zeros), and 10^38 (a first chunk of 1).
        #expect(Self.text(false, 0, high: .max, .max) == "340282366920938463463374607431768211455")
        #expect(Self.text(false, -20, high: 1, 0) == "0.18446744073709551616")
        #expect(Self.text(false, 0, high: 5_421_010_862_427_522_170, 687_399_551_400_673_280) == "1" + String(repeating: "0", count: 38))
    }

    @Test("NaN is refused, not written")
    func nanIsRefused() {
        #expect(throws: RequestSerializationError.self) { try ParameterValue.decimal(.nan).jsonData(options: .fragmentsAllowed) }
    }
}
