import Foundation
import HTTPSerialization
import MultipartKit
import SeededGenerators
import Testing

/// `Float` values become text with the `Float`'s own shortest digits on every path that writes
/// numbers as text, as `Float.description`, multipart-kit and Alamofire's form encoder write them.
@Suite("Float values written with their own shortest digits in forms, queries, multipart and JSON")
struct FloatTextTests {
    struct Reading: Codable, Equatable {
        var value: Float
    }

    /// What every text path writes for `value`: the number `Float.description` writes, spelled
    /// as the package spells a `Double` (whole numbers below 10¹⁵ as integers, as `NSNumber`
    /// describes them): `0.1`, `1e-05`, and `89788090` for the `Float` `8.978809e+07`, whose
    /// exact value is 89788088.
    static func expectedText(_ value: Float) -> String {
        let shortest = Double(value.description)!
        if shortest.rounded() == shortest, abs(shortest) < 1e15 { return String(Int64(shortest)) }
        return shortest.description
    }

    /// Seeded finite `Float`s from random bit patterns (subnormals, huge and tiny exponents
    /// alike), after the values people type.
    static func samples(count: Int) -> [Float] {
        var generator = SplitMix64(seed: 0xF10A7)
        var values: [Float] = [0.1, 0.2, 0.3, 1.1, -2.5, 3.14159, 100.01, 1e-5, .leastNonzeroMagnitude, .leastNormalMagnitude,
                               .greatestFiniteMagnitude, -.greatestFiniteMagnitude, 16_777_216, 16_777_218, 1e10, 1e20, 0, -0.0]
        while values.count < count {
            let value = Float(bitPattern: UInt32(truncatingIfNeeded: generator.next()))
            if value.isFinite { values.append(value) }
        }
        return values
    }

    @Test("FormEncoder, a GET query from a model, MultipartFormEncoder, [String: Any] and NSNumber write each Float as its shortest digits, which read back exactly")
    func everyTextPath() throws {
        let serializer = HTTPRequestSerializer()
        for value in Self.samples(count: 1_500) {
            let expected = Self.expectedText(value)
            #expect(Float(expected) == value, "\(expected) reads back as \(value)")
            #expect(Double(expected) == Double(value.description), "\(expected) is the number \(value.description) writes")
            if value.rounded() != value, abs(value) >= 1e-4 { #expect(expected == value.description) }
            let model = Reading(value: value)

            let form = try FormEncoder().encode(model)
            #expect(form == "value=" + expected.addingPercentEncoding(withAllowedCharacters: .alphanumerics.union(.init(charactersIn: "-._")))!)
            #expect(try FormDecoder().decode(Reading.self, from: form) == model)

            let get = try serializer.httpRequest(method: .get, url: URL(string: "http://h/p")!, body: model)
            #expect(get.request.path == "/p?" + form)

            let multipart = try MultipartFormEncoder().encode(model, boundary: "B")
            let received = try MultipartForm.read(try multipart.encodedData(), contentType: multipart.contentType)
            #expect(received.value(named: "value") == expected)

            #expect(queryString(from: try ParameterValue(any: ["value": value])) == form)
            #expect(queryString(from: try ParameterValue(any: ["value": NSNumber(value: value)])) == form)
            #expect(queryString(from: ["value": ParameterValue(value)]) == form)
        }
    }

    @Test("JSON bodies write a Float as JSONEncoder writes it and read it back exactly")
    func jsonBodies() throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        for value in Self.samples(count: 500) {
            let model = Reading(value: value)
            let ours = try JSONBodyEncoder().encode(model)
            #expect(try JSONDecoder().decode(Reading.self, from: ours) == model)
            let tree = try ParameterValue(encoding: model).jsonData()
            #expect(try JSONDecoder().decode(Reading.self, from: tree) == model)
            // Byte for byte but for whole numbers from 2²⁴, which `Float.description` writes
            // with an exponent (`1e+10`) and the package's writer as an integer, as for a `Double`.
            if abs(value) < 16_777_216 {
                #expect(String(decoding: tree, as: UTF8.self) == String(decoding: try encoder.encode(model), as: UTF8.self), "\(value)")
            }
        }
    }

    @Test("multipart-kit reads our Float fields back exactly and writes the same digits for fractions")
    func multipartKitAgrees() throws {
        for value in Self.samples(count: 500) {
            let model = Reading(value: value)
            let ours = try MultipartFormEncoder().encode(model, boundary: "kit-boundary")
            #expect(try FormDataDecoder().decode(Reading.self, from: Array(try ours.encodedData()), boundary: "kit-boundary") == model)
            let theirs = try FormDataEncoder().encode(model, boundary: "kit-boundary")
            let theirText = try #require(MultipartForm.read(Data(theirs.utf8), contentType: "multipart/form-data; boundary=kit-boundary").value(named: "value"))
            #expect(Float(theirText) == value)
            if value.rounded() != value {
                let ourText = try MultipartForm.read(try ours.encodedData(), contentType: ours.contentType).value(named: "value")
                #expect(ourText == theirText)
            }
        }
    }

    @Test("PHP's parse_str reads the digits our forms send", .enabled(if: PHP.path != nil || PHP.required))
    func phpReadsTheDigits() throws {
        let values = Self.samples(count: 200)
        let queries = try values.map { try FormEncoder().encode(Reading(value: $0)) }
        let output = try PHP.run(PHP.normalize + PHP.reader, input: queries.joined(separator: "\n") + "\n")
        let lines = output.split(separator: "\n")
        #expect(lines.count == values.count)
        for (line, value) in zip(lines, values) {
            let record = try ParameterValue(json: Data(line.utf8))
            guard case .dictionary(let fields) = record, case .dictionary(let parsed)? = fields["parsed"] else {
                Issue.record("PHP printed \(line)")
                continue
            }
            #expect(parsed["value"] == .string(Self.expectedText(value)))
        }
    }

    #if !((os(macOS) || targetEnvironment(macCatalyst)) && arch(x86_64))
    @Test("a Float16 in a form is written with its own shortest digits and reads back as the same Float16")
    func float16() throws {
        struct Half: Codable, Equatable { var value: Float16 }
        var generator = SplitMix64(seed: 0x16)
        var values: [Float16] = [0.1, 0.3, 65504, -0.000061035156, .leastNonzeroMagnitude]
        while values.count < 400 {
            let value = Float16(bitPattern: UInt16(truncatingIfNeeded: generator.next()))
            if value.isFinite { values.append(value) }
        }
        for value in values {
            let form = try FormEncoder().encode(Half(value: value))
            let text = String(form.dropFirst("value=".count))
            #expect(Float16(text) == value, "\(form)")
            #expect(text.count <= value.description.count, "\(form) against \(value.description)")
            #expect(try FormDecoder().decode(Half.self, from: form) == Half(value: value))
            let multipart = try MultipartFormEncoder().encode(Half(value: value))
            #expect(try MultipartForm.read(try multipart.encodedData(), contentType: multipart.contentType).value(named: "value") == text)
        }
        #expect(try FormEncoder().encode(Half(value: 0.1)) == "value=0.1")
    }
    #endif
}
