import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import HTTPSerialization
import HTTPSerializationMacros

/// Issue 41: models that read themselves from the tape (``JSONTapeDecodable``), against
/// `JSONDecoder` on the same types, on §6, §7 and §8. The `Decodable` path's figure (the
/// shapes' own models, which have no reader) is printed beside it, and this path's floor: the
/// same models built from values already read, in order, with no key matched.
enum GeneratedJSONBenchmarks {
    /// §6's record, with a generated reader.
    @GeneratedJSONCoding
    struct Record: Codable, Equatable {
        @GeneratedJSONCoding
        struct Address: Codable, Equatable { var street: String; var city: String; var zip: String }

        /// A record built from values already read, in order: the floor of §6's shapes.
        static func replayed(_ replay: CodableFloor.Replay) throws -> Record {
            Record(id: try replay.int(), uuid: try replay.string(), name: try replay.string(), email: try replay.string(),
                   active: try replay.bool(), score: try replay.double(), tags: try replay.array(replay.string),
                   address: Address(street: try replay.string(), city: try replay.string(), zip: try replay.string()),
                   created: try replay.string())
        }

        var id: Int
        var uuid: String
        var name: String
        var email: String
        var active: Bool
        var score: Double
        var tags: [String]
        var address: Address
        var created: String
    }

    /// §6's record as a snake-case API sends it (``JSONBenchmarks/SnakeCaseRecord``), with a
    /// generated reader.
    @GeneratedJSONCoding
    struct SnakeCaseRecord: Codable, Equatable {
        var id: Int
        var uuid: String
        var name: String
        var emailAddress: String
        var isActive: Bool
        var score: Double
        var tags: [String]
        var address: Record.Address
        var createdAt: String
    }

    @GeneratedJSONCoding
    struct TextRecord: Codable, Equatable {
        var id: Int
        var title: String
        var body: String
        var lang: String
        var notes: [String]
    }

    @GeneratedJSONCoding
    struct NumberRecord: Codable, Equatable {
        var id: Int
        var x: Double
        var y: Double
        var z: Double
        var w: [Double]
        var t: Double
    }

    @MainActor
    static func run(quick: Bool, runs: Int) {
        let response = HTTPURLResponse(url: URL(string: "http://127.0.0.1/")!, statusCode: 200, httpVersion: "HTTP/1.1",
                                       headerFields: ["Content-Type": "application/json"])!
        print("")
        print("JSON into and out of models with generated readers and writers (@GeneratedJSONCoding), against JSONDecoder and JSONEncoder on the same models")
        let records = JSONBenchmarks.document(objects: quick ? 500 : 56_000)
        let shuffled = JSONBenchmarks.document(objects: quick ? 500 : 56_000, keysInAnotherOrder: true)
        check(shuffled.count == records.count && shuffled != records, "the §6 document in another order is not the same text reordered")
        runShape("§6 records", key: "", data: records, generated: Record.self,
                 plain: JSONBenchmarks.Record.self, target: 8, response: response, runs: runs, build: Record.replayed)
        // Keys in another order than the model's: the aim of the shapes other than §6.
        runShape("§6 records, keys in another order", key: "shuffled-", data: shuffled, generated: Record.self,
                 plain: JSONBenchmarks.Record.self, target: 6, response: response, runs: runs, build: Record.replayed)
        runShape("string-heavy (§7)", key: "strings-", data: JSONShapes.textDocument(objects: quick ? 300 : 36_000), generated: TextRecord.self,
                 plain: JSONShapes.TextRecord.self, target: 6, response: response, runs: runs) { replay in
            TextRecord(id: try replay.int(), title: try replay.string(), body: try replay.string(), lang: try replay.string(),
                       notes: try replay.array(replay.string))
        }
        runShape("number-heavy (§8)", key: "numbers-", data: JSONShapes.numberDocument(objects: quick ? 500 : 60_000), generated: NumberRecord.self,
                 plain: JSONShapes.NumberRecord.self, target: 6, response: response, runs: runs) { replay in
            NumberRecord(id: try replay.int(), x: try replay.double(), y: try replay.double(), z: try replay.double(),
                         w: try replay.array(replay.double), t: try replay.double())
        }
        runSnakeCase(quick: quick, runs: runs)
        runEvents(quick: quick, runs: runs)
        runKeyedById(records: records, runs: runs)
        runOverTheParse(records: records, runs: runs)
        runEncoding(quick: quick, runs: runs)
        runSnakeCaseEncoding(quick: quick, runs: runs)
    }

    /// What `JSONDecoder` users write to reach the records in an envelope: a model that holds them.
    struct Envelope<Item: Decodable>: Decodable {
        var data: [Item]
    }

    /// The §6 records in an envelope, read at a key path: a decode the text reader does not
    /// take, so the generated readers read over the parse (``JSONTapeValue``,
    /// ``JSONTapeObject``), the path every fallback of the text reader lands on.
    @MainActor
    static func runOverTheParse(records: Data, runs: Int) {
        var envelope = Data(#"{"data":"#.utf8)
        envelope.append(records)
        envelope.append(Data("}".utf8))
        let ours = JSONBodyDecoder()
        let expected = try? JSONDecoder().decode(Envelope<Record>.self, from: envelope).data
        check(expected != nil && (try? ours.decode([Record].self, from: envelope, atKeyPath: "data")) == expected,
              "records at a key path: the generated path and JSONDecoder disagree")
        let times = fastest(runs: runs, [
            { consume(try? JSONDecoder().decode(Envelope<Record>.self, from: envelope)) },
            { consume(try? ours.decode([Record].self, from: envelope, atKeyPath: "data")) },
            { consume(try? ours.decode([JSONBenchmarks.Record].self, from: envelope, atKeyPath: "data")) },
        ])
        print("  §6 records at a key path (read over the parse), \(envelope.count) bytes: JSONDecoder, wrapper model \(format(times[0] * 1000)) ms")
        print("    generated readers        \(format(times[1] * 1000)) ms, \(format(times[0] / times[1], 2))x JSONDecoder   (target >= 5x)")
        print("    Decodable path           \(format(times[2] * 1000)) ms, \(format(times[0] / times[2], 2))x JSONDecoder")
        recordRatio("json-generated-decoding-over-the-parse-vs-jsondecoder", times[0] / times[1], target: 5)
    }

    /// §6 with three snake-case keys per record, under `.convertFromSnakeCase` on both sides:
    /// the strategy Alamofire users most often carry over, with the `Decodable` path beside it.
    @MainActor
    static func runSnakeCase(quick: Bool, runs: Int) {
        let data = JSONBenchmarks.snakeCaseDocument(objects: quick ? 500 : 56_000)
        var ours = JSONBodyDecoder()
        ours.keyDecodingStrategy = .convertFromSnakeCase
        let foundation = JSONDecoder()
        foundation.keyDecodingStrategy = .convertFromSnakeCase
        let expected = try? foundation.decode([SnakeCaseRecord].self, from: data)
        check(expected?.count == (quick ? 500 : 56_000) && (try? ours.decode([SnakeCaseRecord].self, from: data)) == expected,
              "snake-case records: the generated path and JSONDecoder disagree")
        let times = fastest(runs: runs, [
            { consume(try? foundation.decode([SnakeCaseRecord].self, from: data)) },
            { consume(try? ours.decode([SnakeCaseRecord].self, from: data)) },
            { consume(try? ours.decode([JSONBenchmarks.SnakeCaseRecord].self, from: data)) },
        ])
        print("  §6 records with snake-case keys (.convertFromSnakeCase), \(data.count) bytes: JSONDecoder \(format(times[0] * 1000)) ms")
        print("    generated readers        \(format(times[1] * 1000)) ms, \(format(times[0] / times[1], 2))x JSONDecoder   (target >= 8x)")
        print("    Decodable path           \(format(times[2] * 1000)) ms, \(format(times[0] / times[2], 2))x JSONDecoder")
        recordRatio("json-generated-decoding-snake-case-vs-jsondecoder", times[0] / times[1], target: 8)
    }

    /// The §6 records written back: `JSONEncoder` and the generated writers on `Record`, the
    /// `Encodable` path on the shape's own model beside them.
    @MainActor
    static func runEncoding(quick: Bool, runs: Int) {
        let data = JSONBenchmarks.document(objects: quick ? 500 : 56_000)
        guard let records = try? JSONDecoder().decode([Record].self, from: data),
              let plain = try? JSONDecoder().decode([JSONBenchmarks.Record].self, from: data) else {
            return check(false, "the §6 records did not decode for the writers")
        }
        let ours = try? JSONBodyEncoder().encode(records)
        check(ours != nil && ours == (try? JSONBodyEncoder().encode(plain)), "generated writers and the Encodable path write different text")
        check(ours.flatMap { try? JSONDecoder().decode([Record].self, from: $0) } == records, "the generated writers' text reads back differently")
        // Beside them: the same values already in a tree, written by the package's tree writer
        // (no model walked, no encoder's bookkeeping, but a dictionary walked per object).
        guard let ours, let tree = try? ParameterValue(json: ours) else { return check(false, "the generated writers' text did not read back as a tree") }
        let times = fastest(runs: runs, [
            { consume(try? JSONEncoder().encode(records)) },
            { consume(try? JSONBodyEncoder().encode(records)) },
            { consume(try? JSONBodyEncoder().encode(plain)) },
            { consume(try? tree.jsonData()) },
        ])
        print("  §6 records written, \(ours.count) bytes: JSONEncoder \(format(times[0] * 1000)) ms")
        print("    generated writers        \(format(times[1] * 1000)) ms, \(format(times[0] / times[1], 2))x JSONEncoder   (target >= 8x)")
        print("    Encodable path           \(format(times[2] * 1000)) ms, \(format(times[0] / times[2], 2))x JSONEncoder")
        print("    the same values as a ParameterValue tree, written by jsonData() \(format(times[3] * 1000)) ms, "
            + "\(format(times[0] / times[3], 2))x JSONEncoder: generated writers take \(format(times[1] / times[3], 2))x its time")
        recordRatio("json-generated-encoding-vs-jsonencoder", times[0] / times[1], target: 8)
    }

    /// The snake-case records written back under `.convertToSnakeCase` on both sides: the
    /// strategy makes every key a converted one, which the generated writers convert once an
    /// encode.
    @MainActor
    static func runSnakeCaseEncoding(quick: Bool, runs: Int) {
        let data = JSONBenchmarks.snakeCaseDocument(objects: quick ? 500 : 56_000)
        let reader = JSONDecoder()
        reader.keyDecodingStrategy = .convertFromSnakeCase
        guard let records = try? reader.decode([SnakeCaseRecord].self, from: data),
              let plain = try? reader.decode([JSONBenchmarks.SnakeCaseRecord].self, from: data) else {
            return check(false, "the snake-case records did not decode for the writers")
        }
        let foundation = JSONEncoder()
        foundation.keyEncodingStrategy = .convertToSnakeCase
        var ours = JSONBodyEncoder()
        ours.keyEncodingStrategy = .convertToSnakeCase
        let written = try? ours.encode(records)
        check(written != nil && written == (try? ours.encode(plain)), "snake-case records: generated writers and the Encodable path write different text")
        check(written.flatMap { try? reader.decode([SnakeCaseRecord].self, from: $0) } == records, "snake-case records: the generated writers' text reads back differently")
        let times = fastest(runs: runs, [
            { consume(try? foundation.encode(records)) },
            { consume(try? ours.encode(records)) },
            { consume(try? ours.encode(plain)) },
        ])
        print("  §6 records with snake-case keys written (.convertToSnakeCase), \(written?.count ?? 0) bytes: JSONEncoder \(format(times[0] * 1000)) ms")
        print("    generated writers        \(format(times[1] * 1000)) ms, \(format(times[0] / times[1], 2))x JSONEncoder   (target >= 8x)")
        print("    Encodable path           \(format(times[2] * 1000)) ms, \(format(times[0] / times[2], 2))x JSONEncoder")
        recordRatio("json-generated-encoding-snake-case-vs-jsonencoder", times[0] / times[1], target: 8)
    }

    /// One shape: `JSONDecoder` and the generated path on `Generated`, the `Decodable` path on
    /// `Plain` (the same fields, no reader), the floor built by `build`, and the scan alone.
    @MainActor
    static func runShape<Generated: JSONTapeDecodable & Equatable & Encodable, Plain: Decodable>(
        _ name: String, key: String, data: Data, generated: Generated.Type, plain: Plain.Type, target: Double,
        response: HTTPURLResponse, runs: Int, build: @escaping (CodableFloor.Replay) throws -> Generated
    ) {
        let serializer = DecodableResponseSerializer([Generated].self)
        let codable = DecodableResponseSerializer([Plain].self)
        let expected = try? JSONDecoder().decode([Generated].self, from: data)
        let ours = try? serializer.responseObject(for: response, data: data)
        check(expected != nil && ours == expected, "\(name): the generated path and JSONDecoder disagree")
        let script = (try? expected.map { try CodableFloor.record($0) }) ?? nil ?? CodableFloor.Script()
        let floor = { () -> [Generated]? in
            let replay = CodableFloor.Replay(script)
            return try? replay.array { try build(replay) }
        }
        check(floor() == expected, "\(name): the generated floor does not build the records")
        let times = fastest(runs: runs, [
            { consume(try? JSONDecoder().decode([Generated].self, from: data)) },
            { consume(try? serializer.responseObject(for: response, data: data)) },
            { consume(try? codable.responseObject(for: response, data: data)) },
            { consume(floor()) },
            { consume(try? JSONReader.validate(data)) },
        ])
        print("  \(name), \(data.count) bytes: JSONDecoder \(format(times[0] * 1000)) ms")
        print("    generated readers        \(format(times[1] * 1000)) ms, \(format(times[0] / times[1], 2))x JSONDecoder   (target >= \(format(target, 0))x)")
        print("    Decodable path           \(format(times[2] * 1000)) ms, \(format(times[0] / times[2], 2))x JSONDecoder")
        print("    floor: models from values already read \(format(times[3] * 1000)) ms, plus the scan (JSONReader.validate, \(format(times[4] * 1000)) ms): "
            + "JSONDecoder / (floor + scan) \(format(times[0] / (times[3] + times[4]), 2))x, the most a reader after a separate scan can reach "
            + "(the readers read the text as they go, checking it as the scan does, so they may pass it); "
            + "generated readers at \(format(times[1] / (times[3] + times[4]), 2))x that time")
        recordRatio("json-generated-decoding-\(key)vs-jsondecoder", times[0] / times[1], target: target)
    }
}
