import Foundation
import HTTPSerialization

/// Readers straight from the text (`JSONTextReader`, what `@JSONTapeCodable` writes) on
/// arbitrary bytes, against the tape alone: a decode that reads the text first must give what
/// the tape gives, the same value or the same error, for models with nested objects, arrays,
/// optionals, dictionaries and raw-value enums. The readers are written here as the macro
/// writes them (the fuzz build has no compiler plugin).
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzTextReader(_ start: UnsafeRawPointer?, _ count: Int) -> CInt {
    let data = Data(UnsafeRawBufferPointer(start: start, count: count))
    compare(Record.self, data)
    compare([Record].self, data)
    compare([String: Part].self, data)
    compare(Part?.self, data)
    return 0
}

/// Decodes `data` as `type` both ways and requires the same outcome.
private func compare<T: Decodable & Equatable>(_ type: T.Type, _ data: Data) {
    let decoder = JSONBodyDecoder()
    let textFirst = Result { try decoder.decode(type, from: data) }
    let tapeOnly = Result { try decoder.decode(type, from: data, atKeyPath: JSONKeyPath([])) }
    switch (textFirst, tapeOnly) {
    case (.success(let fast), .success(let tape)):
        require(fast == tape, "\(type): the text read \(fast), the tape \(tape): \(String(decoding: data, as: UTF8.self).debugDescription)")
    case (.failure(let fast), .failure(let tape)):
        require(String(describing: fast) == String(describing: tape), "\(type): errors differ: \(fast) against \(tape)")
    case (.success(let fast), .failure(let tape)):
        require(false, "\(type): the text read \(fast) where the tape throws \(tape): \(String(decoding: data, as: UTF8.self).debugDescription)")
    case (.failure(let fast), .success(let tape)):
        require(false, "\(type): the decode throws \(fast) where the tape reads \(tape)")
    }
}

private enum Kind: String, Codable, Equatable, JSONTapeDecodable {
    case small, large

    init(jsonTape value: JSONTapeValue) throws {
        self = try value.decodeRawValue(of: Self.self)
    }

    init(jsonText reader: inout JSONTextReader) throws {
        self = try reader.decodeRawValue(of: Self.self)
    }
}

private struct Part: Codable, Equatable, JSONTapeDecodable {
    var name: String
    var count: Int?
    var tags: [String]
    var kind: Kind?

    init(jsonTape value: JSONTapeValue) throws {
        var object = try value.object()
        name = try object.decode(forKey: "name")
        count = try object.decodeIfPresent(forKey: "count")
        tags = try object.decode(forKey: "tags")
        kind = try object.decodeIfPresent(forKey: "kind")
    }

    init(jsonText reader: inout JSONTextReader) throws {
        var object = try reader.object()
        name = try reader.decode(forKey: "name", in: &object)
        count = try reader.decodeIfPresent(forKey: "count", in: &object)
        tags = try reader.decode(forKey: "tags", in: &object)
        kind = try reader.decodeIfPresent(forKey: "kind", in: &object)
        try reader.close(&object)
    }
}

private struct Record: Codable, Equatable, JSONTapeDecodable {
    var id: Int
    var score: Double
    var ok: Bool
    var part: Part
    var parts: [Part]?
    var totals: [String: Int]?
    var note: String?
    var small: Int8
    var ratio: Float

    init(jsonTape value: JSONTapeValue) throws {
        var object = try value.object()
        id = try object.decode(forKey: "id")
        score = try object.decode(forKey: "score")
        ok = try object.decode(forKey: "ok")
        part = try object.decode(forKey: "part")
        parts = try object.decodeIfPresent(forKey: "parts")
        totals = try object.decodeIfPresent(forKey: "totals")
        note = try object.decodeIfPresent(forKey: "note")
        small = try object.decode(forKey: "small")
        ratio = try object.decode(forKey: "ratio")
    }

    init(jsonText reader: inout JSONTextReader) throws {
        var object = try reader.object()
        id = try reader.decode(forKey: "id", in: &object)
        score = try reader.decode(forKey: "score", in: &object)
        ok = try reader.decode(forKey: "ok", in: &object)
        part = try reader.decode(forKey: "part", in: &object)
        parts = try reader.decodeIfPresent(forKey: "parts", in: &object)
        totals = try reader.decodeIfPresent(forKey: "totals", in: &object)
        note = try reader.decodeIfPresent(forKey: "note", in: &object)
        small = try reader.decode(forKey: "small", in: &object)
        ratio = try reader.decode(forKey: "ratio", in: &object)
        try reader.close(&object)
    }

    /// Floating-point values by their bits, so a -0.0 read as 0.0 is a difference.
    static func == (lhs: Record, rhs: Record) -> Bool {
        lhs.id == rhs.id && lhs.score.bitPattern == rhs.score.bitPattern && lhs.ok == rhs.ok && lhs.part == rhs.part
            && lhs.parts == rhs.parts && lhs.totals == rhs.totals && lhs.note == rhs.note && lhs.small == rhs.small
            && lhs.ratio.bitPattern == rhs.ratio.bitPattern
    }
}
