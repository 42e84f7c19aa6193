import Foundation
import HTTPSerialization

/// Readers straight from the text (`JSONTextReader`, what `@GeneratedJSONCoding` writes) on
/// arbitrary bytes, against the tape alone: a decode that reads the text first must give what
/// the tape gives, the same value or the same error, for models with nested objects, arrays,
/// optionals, dictionaries, raw-value enums and a type with no reader of its own, also under `.convertFromSnakeCase` and with
/// non-conforming floats as strings (`.convertFromString`). The readers
/// are written here by hand (the fuzz build has no compiler plugin), one like the macro's.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzTextReader(_ start: UnsafeRawPointer?, _ count: Int) -> CInt {
    let data = Data(UnsafeRawBufferPointer(start: start, count: count))
    compare(Record.self, data)
    compare([Record].self, data)
    compare([String: Part].self, data)
    compare(Part?.self, data)
    compare(Account.self, data, snakeCase: true)
    compare([Account].self, data, snakeCase: true)
    compare(Record.self, data, snakeCase: true)
    compare([Record].self, data, floatsAsStrings: true)
    return 0
}

/// Decodes `data` as `type` both ways and requires the same outcome.
private func compare<T: Decodable & Equatable>(_ type: T.Type, _ data: Data, snakeCase: Bool = false, floatsAsStrings: Bool = false) {
    var decoder = JSONBodyDecoder()
    if snakeCase { decoder.keyDecodingStrategy = .convertFromSnakeCase }
    if floatsAsStrings { decoder.nonConformingFloatDecodingStrategy = .convertFromString(positiveInfinity: "+inf", negativeInfinity: "-inf", nan: "nan") }
    let textFirst = Result { try decoder.decode(type, from: data) }
    let tapeOnly = Result { try decoder.decode(type, from: data, atKeyPath: JSONKeyPath([])) }
    switch (textFirst, tapeOnly) {
    case (.success(let fast), .success(let tape)):
        // NaN is not equal to itself: the same description is the same value here.
        require(fast == tape || String(describing: fast) == String(describing: tape), "\(type): the text read \(fast), the tape \(tape): \(String(decoding: data, as: UTF8.self).debugDescription)")
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

    init(jsonTape value: borrowing JSONTapeValue) throws {
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

    init(jsonTape value: borrowing JSONTapeValue) throws {
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

/// Keys a snake-case API writes with underscores (`user_id`, `email_address`), and one the
/// conversion keeps as it is (`_tag_`).
private struct Account: Codable, Equatable, JSONTapeDecodable {
    var userId: Int
    var emailAddress: String?
    var _tag_: [String: Int]?
    var line2: Part?

    init(jsonTape value: borrowing JSONTapeValue) throws {
        var object = try value.object()
        let userId = try object.decode(Int.self, forKey: "userId")
        let emailAddress = try object.decodeIfPresent(String.self, forKey: "emailAddress")
        let tag = try object.decodeIfPresent([String: Int].self, forKey: "_tag_")
        let line2 = try object.decodeIfPresent(Part.self, forKey: "line2")
        (self.userId, self.emailAddress, self._tag_, self.line2) = (userId, emailAddress, tag, line2)
    }

    init(jsonText reader: inout JSONTextReader) throws {
        var object = try reader.object()
        guard reader.starts(with: "userId", in: object) else {
            // In the document's order, as the macro writes it.
            var userId = JSONTextReader.Slot(Int.self), emailAddress = JSONTextReader.Slot(String.self)
            var tag = JSONTextReader.Slot([String: Int].self), line2 = JSONTextReader.Slot(Part.self)
            while let member = try reader.nextMember(in: &object) {
                if try reader.member(member, is: "userId") {
                    try reader.read(into: &userId)
                } else if try reader.member(member, is: "emailAddress") {
                    try reader.read(into: &emailAddress)
                } else if try reader.member(member, is: "_tag_") {
                    try reader.read(into: &tag)
                } else if try reader.member(member, is: "line2") {
                    try reader.read(into: &line2)
                } else {
                    try reader.skipValue()
                }
            }
            let values = try (reader.decode(from: userId), reader.decodeIfPresent(from: emailAddress), reader.decodeIfPresent(from: tag), reader.decodeIfPresent(from: line2))
            (self.userId, self.emailAddress, self._tag_, self.line2) = values
            return
        }
        let userId = try reader.decode(Int.self, forKey: "userId", in: &object)
        let emailAddress = try reader.decodeIfPresent(String.self, forKey: "emailAddress", in: &object)
        let tag = try reader.decodeIfPresent([String: Int].self, forKey: "_tag_", in: &object)
        let line2 = try reader.decodeIfPresent(Part.self, forKey: "line2", in: &object)
        try reader.close(&object)
        (self.userId, self.emailAddress, self._tag_, self.line2) = (userId, emailAddress, tag, line2)
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
    var label: String
    var plain: Plain?

    // Record's readers are like the macro's (values into locals, `self` set after the last
    // read; from the text, key by key or in the document's order by the first key); Part's
    // set each property as it reads, as a reader written by hand may.
    init(jsonTape value: borrowing JSONTapeValue) throws {
        func _jsonTapeType<_JSONTapeProperty>(_ property: (Self) -> _JSONTapeProperty) -> _JSONTapeProperty.Type { _JSONTapeProperty.self }
        func _jsonTapeWrapped<_JSONTapeProperty>(_ property: (Self) -> _JSONTapeProperty?) -> _JSONTapeProperty.Type { _JSONTapeProperty.self }
        var object = try value.object()
        let id = try object.decode(_jsonTapeType { $0.id }, forKey: "id")
        let score = try object.decode(_jsonTapeType { $0.score }, forKey: "score")
        let ok = try object.decode(_jsonTapeType { $0.ok }, forKey: "ok")
        let part = try object.decode(_jsonTapeType { $0.part }, forKey: "part")
        let parts = try object.decodeIfPresent(_jsonTapeWrapped { $0.parts }, forKey: "parts")
        let totals = try object.decodeIfPresent(_jsonTapeWrapped { $0.totals }, forKey: "totals")
        let note = try object.decodeIfPresent(_jsonTapeWrapped { $0.note }, forKey: "note")
        let small = try object.decode(_jsonTapeType { $0.small }, forKey: "small")
        let ratio = try object.decode(_jsonTapeType { $0.ratio }, forKey: "ratio")
        let label = try object.decode(_jsonTapeType { $0.label }, forKey: "label")
        let plain = try object.decodeIfPresent(_jsonTapeWrapped { $0.plain }, forKey: "plain")
        (self.id, self.score, self.ok, self.part, self.parts) = (id, score, ok, part, parts)
        (self.totals, self.note, self.small, self.ratio, self.label, self.plain) = (totals, note, small, ratio, label, plain)
    }

    init(jsonText reader: inout JSONTextReader) throws {
        var object = try reader.object()
        if reader.starts(with: "id", in: object) {
            try self.init(keyed: &reader, object: &object)
        } else {
            try self.init(documentOrder: &reader, object: &object)
        }
    }

    private init(documentOrder reader: inout JSONTextReader, object: inout JSONTextReader.Object) throws {
        func _jsonTapeType<_JSONTapeProperty>(_ property: (Self) -> _JSONTapeProperty) -> _JSONTapeProperty.Type { _JSONTapeProperty.self }
        func _jsonTapeWrapped<_JSONTapeProperty>(_ property: (Self) -> _JSONTapeProperty?) -> _JSONTapeProperty.Type { _JSONTapeProperty.self }
        var id = JSONTextReader.Slot(_jsonTapeType { $0.id }), score = JSONTextReader.Slot(_jsonTapeType { $0.score })
        var ok = JSONTextReader.Slot(_jsonTapeType { $0.ok }), part = JSONTextReader.Slot(_jsonTapeType { $0.part })
        var parts = JSONTextReader.Slot(_jsonTapeWrapped { $0.parts }), totals = JSONTextReader.Slot(_jsonTapeWrapped { $0.totals })
        var note = JSONTextReader.Slot(_jsonTapeWrapped { $0.note }), small = JSONTextReader.Slot(_jsonTapeType { $0.small })
        var ratio = JSONTextReader.Slot(_jsonTapeType { $0.ratio }), label = JSONTextReader.Slot(_jsonTapeType { $0.label })
        var plain = JSONTextReader.Slot(_jsonTapeWrapped { $0.plain })
        while let member = try reader.nextMember(in: &object) {
            if try reader.member(member, is: "id") {
                try reader.read(into: &id)
            } else if try reader.member(member, is: "score") {
                try reader.read(into: &score)
            } else if try reader.member(member, is: "ok") {
                try reader.read(into: &ok)
            } else if try reader.member(member, is: "part") {
                try reader.read(into: &part)
            } else if try reader.member(member, is: "parts") {
                try reader.read(into: &parts)
            } else if try reader.member(member, is: "totals") {
                try reader.read(into: &totals)
            } else if try reader.member(member, is: "note") {
                try reader.read(into: &note)
            } else if try reader.member(member, is: "small") {
                try reader.read(into: &small)
            } else if try reader.member(member, is: "ratio") {
                try reader.read(into: &ratio)
            } else if try reader.member(member, is: "label") {
                try reader.read(into: &label)
            } else if try reader.member(member, is: "plain") {
                try reader.read(into: &plain)
            } else {
                try reader.skipValue()
            }
        }
        let first = try (reader.decode(from: id), reader.decode(from: score), reader.decode(from: ok), reader.decode(from: part), reader.decodeIfPresent(from: parts))
        let rest = try (reader.decodeIfPresent(from: totals), reader.decodeIfPresent(from: note), reader.decode(from: small), reader.decode(from: ratio))
        let last = try (reader.decode(from: label), reader.decodeIfPresent(from: plain))
        (self.id, self.score, self.ok, self.part, self.parts) = first
        (self.totals, self.note, self.small, self.ratio) = rest
        (self.label, self.plain) = last
    }

    private init(keyed reader: inout JSONTextReader, object: inout JSONTextReader.Object) throws {
        func _jsonTapeType<_JSONTapeProperty>(_ property: (Self) -> _JSONTapeProperty) -> _JSONTapeProperty.Type { _JSONTapeProperty.self }
        func _jsonTapeWrapped<_JSONTapeProperty>(_ property: (Self) -> _JSONTapeProperty?) -> _JSONTapeProperty.Type { _JSONTapeProperty.self }
        let id = try reader.decode(_jsonTapeType { $0.id }, forKey: "id", in: &object)
        let score = try reader.decode(_jsonTapeType { $0.score }, forKey: "score", in: &object)
        let ok = try reader.decode(_jsonTapeType { $0.ok }, forKey: "ok", in: &object)
        let part = try reader.decode(_jsonTapeType { $0.part }, forKey: "part", in: &object)
        let parts = try reader.decodeIfPresent(_jsonTapeWrapped { $0.parts }, forKey: "parts", in: &object)
        let totals = try reader.decodeIfPresent(_jsonTapeWrapped { $0.totals }, forKey: "totals", in: &object)
        let note = try reader.decodeIfPresent(_jsonTapeWrapped { $0.note }, forKey: "note", in: &object)
        let small = try reader.decode(_jsonTapeType { $0.small }, forKey: "small", in: &object)
        let ratio = try reader.decode(_jsonTapeType { $0.ratio }, forKey: "ratio", in: &object)
        let label = try reader.decode(_jsonTapeType { $0.label }, forKey: "label", in: &object)
        let plain = try reader.decodeIfPresent(_jsonTapeWrapped { $0.plain }, forKey: "plain", in: &object)
        try reader.close(&object)
        (self.id, self.score, self.ok, self.part, self.parts) = (id, score, ok, part, parts)
        (self.totals, self.note, self.small, self.ratio, self.label, self.plain) = (totals, note, small, ratio, label, plain)
    }

    /// Floating-point values by their bits, so a -0.0 read as 0.0 is a difference.
    static func == (lhs: Record, rhs: Record) -> Bool {
        lhs.id == rhs.id && lhs.score.bitPattern == rhs.score.bitPattern && lhs.ok == rhs.ok && lhs.part == rhs.part
            && lhs.parts == rhs.parts && lhs.totals == rhs.totals && lhs.note == rhs.note && lhs.small == rhs.small
            && lhs.ratio.bitPattern == rhs.ratio.bitPattern && lhs.label == rhs.label && lhs.plain == rhs.plain
    }
}

/// A type with no reader of its own: the readers leave it to the tape unless it is missing or null.
private struct Plain: Codable, Equatable {
    var v: Int
}
