#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Testing
@testable import HTTPSerializationCore

/// JSONTestSuite's parsing cases (MIT), committed under `Fixtures/JSONTestSuite/test_parsing`
/// so a bare clone tests them with nothing beside it.
enum JSONTestSuiteFiles {
    static let folder: URL = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().appendingPathComponent("Fixtures/JSONTestSuite/test_parsing")

    static func names(prefix: String) -> [String] {
        let all = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
        return all.filter { $0.hasPrefix(prefix) && $0.hasSuffix(".json") }.sorted()
    }

    static func data(_ name: String) throws -> Data {
        try Data(contentsOf: folder.appendingPathComponent(name))
    }
}

@Suite("JSON reader: JSONTestSuite's parsing cases")
struct JSONReaderSuiteTests {
    @Test("the suite is where the tests expect it")
    func suiteIsPresent() {
        #expect(JSONTestSuiteFiles.names(prefix: "y_").count == 95)
        #expect(JSONTestSuiteFiles.names(prefix: "n_").count == 188)
        #expect(JSONTestSuiteFiles.names(prefix: "i_").count == 35)
    }

    @Test("every y_ document is accepted", arguments: JSONTestSuiteFiles.names(prefix: "y_"))
    func accepted(name: String) throws {
        let data = try JSONTestSuiteFiles.data(name)
        #expect(throws: Never.self) { try ParameterValue(json: data) }
    }

    // The README's one exception: an empty or whitespace-only body is "no value" for the
    // response serializers; the reader itself refuses it as `.noValue`, like any n_ case.
    @Test("every n_ document is a typed error", arguments: JSONTestSuiteFiles.names(prefix: "n_"))
    func rejected(name: String) throws {
        let data = try JSONTestSuiteFiles.data(name)
        #expect(throws: JSONReadingError.self) { try ParameterValue(json: data) }
    }

    /// The implementation-defined cases: what we chose, and why, case by case.
    static let implementationDefined: [String: ParameterValue?] = [
        // Underflow reads as zero; magnitudes beyond Double's range have no Swift type.
        "i_number_double_huge_neg_exp.json": [0.0],
        "i_number_real_underflow.json": [0.0],
        "i_number_huge_exp.json": nil,
        "i_number_neg_int_huge_exp.json": nil,
        "i_number_pos_double_huge_exp.json": nil,
        "i_number_real_neg_overflow.json": nil,
        "i_number_real_pos_overflow.json": nil,
        // Integers past Int are exact Decimals up to 38 digits, else the nearest Double.
        "i_number_too_big_neg_int.json": [.decimal(Decimal(string: "-123123123123123123123123123123")!)],
        "i_number_too_big_pos_int.json": [.decimal(Decimal(string: "100000000000000000000")!)],
        "i_number_very_big_negative_int.json": [.double(Double("-237462374673276894279832749832423479823246327846")!)],
        // Lone surrogates and bytes that are not UTF-8 are errors: a String cannot hold them.
        "i_object_key_lone_2nd_surrogate.json": nil,
        "i_string_1st_surrogate_but_2nd_missing.json": nil,
        "i_string_1st_valid_surrogate_2nd_invalid.json": nil,
        "i_string_incomplete_surrogate_and_escape_valid.json": nil,
        "i_string_incomplete_surrogate_pair.json": nil,
        "i_string_incomplete_surrogates_escape_valid.json": nil,
        "i_string_invalid_lonely_surrogate.json": nil,
        "i_string_invalid_surrogate.json": nil,
        "i_string_inverted_surrogates_U+1D11E.json": nil,
        "i_string_lone_second_surrogate.json": nil,
        "i_string_UTF-8_invalid_sequence.json": nil,
        "i_string_UTF8_surrogate_U+D800.json": nil,
        "i_string_invalid_utf-8.json": nil,
        "i_string_iso_latin_1.json": nil,
        "i_string_lone_utf8_continuation_byte.json": nil,
        "i_string_not_in_unicode_range.json": nil,
        "i_string_overlong_sequence_2_bytes.json": nil,
        "i_string_overlong_sequence_6_bytes.json": nil,
        "i_string_overlong_sequence_6_bytes_null.json": nil,
        "i_string_truncated-utf-8.json": nil,
        // UTF-16 is read with or without a byte-order mark, as JSONSerialization does; a
        // UTF-8 byte-order mark is skipped (RFC 8259 §8.1).
        "i_string_UTF-16LE_with_BOM.json": ["\u{E9}"],
        "i_string_utf16BE_no_BOM.json": ["\u{E9}"],
        "i_string_utf16LE_no_BOM.json": ["\u{E9}"],
        "i_structure_UTF-8_BOM_empty_object.json": .dictionary([:]),
        // Within the default depth limit of 512.
        "i_structure_500_nested_arrays.json": (0..<499).reduce(ParameterValue.array([])) { inner, _ in .array([inner]) },
    ]

    @Test("every i_ case reads as documented", arguments: JSONTestSuiteFiles.names(prefix: "i_"))
    func implementationDefined(name: String) throws {
        let data = try JSONTestSuiteFiles.data(name)
        let expected = try #require(Self.implementationDefined[name], "no documented choice for \(name)")
        if let value = expected {
            #expect(try ParameterValue(json: data) == value)
        } else {
            #expect(throws: JSONReadingError.self) { try ParameterValue(json: data) }
        }
    }
}
