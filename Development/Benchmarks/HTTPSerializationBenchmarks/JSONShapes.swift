import Foundation
import SeededGenerators

/// Docs/Benchmarks.md §7 to §9: JSON documents of other shapes than §6's records, so that
/// no speed-up is tuned to one document: long strings with escapes and non-ASCII text, and
/// doubles in every written form.
enum JSONShapes {
    struct TextRecord: Codable, Equatable {
        var id: Int
        var title: String
        var body: String
        var lang: String
        var notes: [String]
    }

    struct NumberRecord: Codable, Equatable {
        var id: Int
        var x: Double
        var y: Double
        var z: Double
        var w: [Double]
        var t: Double
    }

    /// §7: 36,000 objects of long text, seed 5.
    static func textDocument(objects: Int) -> Data {
        var generator = SplitMix64(seed: 5)
        var text = "["
        for i in 0..<objects {
            let title = generator.str(10, 40)
            var body = ""
            for _ in 0..<generator.range(40, 200) {
                switch generator.below(100) {
                case ..<85: body += generator.token()
                case ..<90: body += "\""
                case ..<93: body += "\\"
                case ..<97: body += "\n"
                case ..<99: body += "\t"
                default: body += "\u{1}"
                }
            }
            let lang = ["en", "ja", "zh", "ko"][Int(generator.below(4))]
            let notes = (0..<3).map { _ in generator.str(5, 30) }
            if i > 0 { text += "," }
            text += #"{"id":\#(i),"title":"\#(escaped(title, asciiOnly: i % 2 == 1))","body":"\#(escaped(body, asciiOnly: false))","#
            text += #""lang":"\#(lang)","notes":[\#(notes.map { "\"\(escaped($0, asciiOnly: false))\"" }.joined(separator: ","))]}"#
        }
        text += "]"
        return Data(text.utf8)
    }

    /// §8: 60,000 objects of doubles, seed 6.
    static func numberDocument(objects: Int) -> Data {
        var generator = SplitMix64(seed: 6)
        // Magnitudes are parsed from decimal text, which every platform rounds the same way.
        func number() -> Double {
            let text: String
            switch generator.below(4) {
            case 0: text = "\(generator.below(1_000_000))"
            case 1: text = "\(generator.below(2_000_000_000))e-4"
            case 2: text = "\(generator.below(10_000_000_000_000_000))e\(generator.range(-46, -21))"
            default: text = "\(generator.below(10_000_000_000_000_000))e\(generator.range(-10, 284))"
            }
            let magnitude = Double(text) ?? 0
            return generator.below(2) == 1 ? -magnitude : magnitude
        }
        var text = "["
        for i in 0..<objects {
            let x = number(), y = number(), z = number()
            let w = (0..<6).map { _ in number() }
            let t = number()
            if i > 0 { text += "," }
            text += #"{"id":\#(i),"x":\#(x),"y":\#(y),"z":\#(z),"w":[\#(w.map { "\($0)" }.joined(separator: ","))],"t":\#(t)}"#
        }
        text += "]"
        return Data(text.utf8)
    }

    /// §9: a GeoJSON polygon of 240 rings, shaped as canada.json: coordinates given to the
    /// micro-degree, written with 17 significant digits as that file writes them, seed 7.
    static func coordinateDocument(rings: Int) -> Data {
        var generator = SplitMix64(seed: 7)
        var text = #"{"type":"FeatureCollection","features":[{"type":"Feature","properties":{"name":"Canada"},"#
        text += #""geometry":{"type":"Polygon","coordinates":["#
        for ring in 0..<rings {
            if ring > 0 { text += "," }
            text += "["
            for point in 0..<generator.range(20, 450) {
                // Micro-degrees read as a `Double`, then written as C's `%.17g` writes it.
                let longitude = Double("-\(52 + generator.below(89)).\(pad(generator.below(1_000_000), 6))")!
                let latitude = Double("\(41 + generator.below(42)).\(pad(generator.below(1_000_000), 6))")!
                text += point > 0 ? ",[" : "["
                text += String(format: "%.17g,%.17g", longitude, latitude) + "]"
            }
            text += "]"
        }
        text += "]}}]}"
        return Data(text.utf8)
    }

    /// `value` in decimal, zero-padded on the left to `width` digits.
    static func pad(_ value: UInt64, _ width: Int) -> String {
        let digits = String(value)
        return String(repeating: "0", count: max(0, width - digits.count)) + digits
    }

    /// JSON string content: `"`, `\`, LF and tab as two-character escapes, other controls as
    /// `\u00XX`; with `asciiOnly`, every non-ASCII scalar as `\uXXXX` (surrogate pairs above
    /// the BMP).
    static func escaped(_ text: String, asciiOnly: Bool) -> String {
        var result = ""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": result += "\\\""
            case "\\": result += "\\\\"
            case "\n": result += "\\n"
            case "\t": result += "\\t"
            case _ where scalar.value < 0x20: result += String(format: "\\u%04x", scalar.value)
            case _ where asciiOnly && scalar.value > 0x7F:
                for unit in String(scalar).utf16 { result += String(format: "\\u%04x", unit) }
            default: result.unicodeScalars.append(scalar)
            }
        }
        return result
    }
}
