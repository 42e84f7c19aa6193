import Foundation
import HTTPSerialization
import MultipartKit
import NIOCore
import SeededGenerators

/// Issue 40 §4: an `Encodable` model of 50 fields and 2 small files encoded as a whole
/// multipart/form-data body, ours (`MultipartFormEncoder`) against multipart-kit's `FormDataEncoder`.
enum MultipartEncodingBenchmarks {
    struct Model: Codable, Equatable {
        var field00: String
        var field01: Int
        var field02: Double
        var field03: Bool
        var field04: String
        var field05: String
        var field06: Int
        var field07: Double
        var field08: Bool
        var field09: String
        var field10: String
        var field11: Int
        var field12: Double
        var field13: Bool
        var field14: String
        var field15: String
        var field16: Int
        var field17: Double
        var field18: Bool
        var field19: String
        var field20: String
        var field21: Int
        var field22: Double
        var field23: Bool
        var field24: String
        var field25: String
        var field26: Int
        var field27: Double
        var field28: Bool
        var field29: String
        var field30: String
        var field31: Int
        var field32: Double
        var field33: Bool
        var field34: String
        var field35: String
        var field36: Int
        var field37: Double
        var field38: Bool
        var field39: String
        var field40: String
        var field41: Int
        var field42: Double
        var field43: Bool
        var field44: String
        var field45: String
        var field46: Int
        var field47: Double
        var field48: Bool
        var field49: String
        var document: Data
        var thumbnail: Data
    }

    static func model() -> Model {
        var generator = SplitMix64(seed: 41)
        let document = (0..<512).map { _ in generator.next().littleEndian }.withUnsafeBytes { Data($0) }
        let thumbnail = (0..<256).map { _ in generator.next().littleEndian }.withUnsafeBytes { Data($0) }
        return Model(
            field00: generator.str(6, 40),
            field01: Int(generator.below(1_000_000_000)),
            field02: Double(generator.below(10_000_000)) / 1000,
            field03: generator.below(2) == 1,
            field04: generator.str(6, 40),
            field05: generator.str(6, 40),
            field06: Int(generator.below(1_000_000_000)),
            field07: Double(generator.below(10_000_000)) / 1000,
            field08: generator.below(2) == 1,
            field09: generator.str(6, 40),
            field10: generator.str(6, 40),
            field11: Int(generator.below(1_000_000_000)),
            field12: Double(generator.below(10_000_000)) / 1000,
            field13: generator.below(2) == 1,
            field14: generator.str(6, 40),
            field15: generator.str(6, 40),
            field16: Int(generator.below(1_000_000_000)),
            field17: Double(generator.below(10_000_000)) / 1000,
            field18: generator.below(2) == 1,
            field19: generator.str(6, 40),
            field20: generator.str(6, 40),
            field21: Int(generator.below(1_000_000_000)),
            field22: Double(generator.below(10_000_000)) / 1000,
            field23: generator.below(2) == 1,
            field24: generator.str(6, 40),
            field25: generator.str(6, 40),
            field26: Int(generator.below(1_000_000_000)),
            field27: Double(generator.below(10_000_000)) / 1000,
            field28: generator.below(2) == 1,
            field29: generator.str(6, 40),
            field30: generator.str(6, 40),
            field31: Int(generator.below(1_000_000_000)),
            field32: Double(generator.below(10_000_000)) / 1000,
            field33: generator.below(2) == 1,
            field34: generator.str(6, 40),
            field35: generator.str(6, 40),
            field36: Int(generator.below(1_000_000_000)),
            field37: Double(generator.below(10_000_000)) / 1000,
            field38: generator.below(2) == 1,
            field39: generator.str(6, 40),
            field40: generator.str(6, 40),
            field41: Int(generator.below(1_000_000_000)),
            field42: Double(generator.below(10_000_000)) / 1000,
            field43: generator.below(2) == 1,
            field44: generator.str(6, 40),
            field45: generator.str(6, 40),
            field46: Int(generator.below(1_000_000_000)),
            field47: Double(generator.below(10_000_000)) / 1000,
            field48: generator.below(2) == 1,
            field49: generator.str(6, 40),
            document: document, thumbnail: thumbnail)
    }

    @MainActor
    static func run(quick: Bool, runs: Int) throws {
        let value = model()
        let boundary = "----httpser-encoding-boundary"
        // Booleans as words, as multipart-kit writes them, so both bodies say the same.
        let encoder = MultipartFormEncoder(style: QueryStringStyle(boolEncoding: .literal))
        let peer = FormDataEncoder()
        let ours = try encoder.encode(value, boundary: boundary).encodedData()
        // Into a ByteBuffer: the String form of FormDataEncoder loses non-UTF-8 file bytes.
        func peerBody() throws -> ByteBuffer {
            var buffer = ByteBuffer()
            try peer.encode(value, boundary: boundary, into: &buffer)
            return buffer
        }
        let theirs = Array(try peerBody().readableBytesView)
        // Each body read back by multipart-kit's decoder, and ours by ours, into the model.
        check((try? FormDataDecoder().decode(Model.self, from: Array(ours), boundary: boundary)) == value, "multipart encoding: multipart-kit does not read our body back")
        check((try? FormDataDecoder().decode(Model.self, from: theirs, boundary: boundary)) == value, "multipart encoding: multipart-kit does not read its own body back")
        check((try? MultipartFormDecoder(form: FormDecoder(style: encoder.style)).decode(Model.self, from: ours, contentType: "multipart/form-data; boundary=\(boundary)")) == value,
              "multipart encoding: our decoder does not read our body back")
        let iterations = quick ? 20 : 4_000
        let times = fastest(runs: runs, [
            { for _ in 0..<iterations { consume(try? encoder.encode(value, boundary: boundary).encodedData()) } },
            { for _ in 0..<iterations { consume(try? peerBody()) } },
        ])
        print("  Encodable model, 50 fields and 2 files (\(ours.count) bytes)  MultipartFormEncoder \(format(times[0] / Double(iterations) * 1e6, 2)) µs, "
            + "FormDataEncoder \(format(times[1] / Double(iterations) * 1e6, 2)) µs, ratio \(format(times[1] / times[0], 2))x   (target >= 3x)")
        recordRatio("multipart-encodable-vs-multipart-kit-form-data-encoder", times[1] / times[0], target: 3)
    }
}
