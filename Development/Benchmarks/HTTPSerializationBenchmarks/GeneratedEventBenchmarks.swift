import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import HTTPSerialization
import HTTPSerializationMacros

/// Issue 63: the §10 event feed, whose records hold Foundation's value types (a UUID, two
/// URLs, two dates) and an enum, through generated readers under `.iso8601` and
/// `.millisecondsSince1970`, against `JSONDecoder` under the same strategy.
extension GeneratedJSONBenchmarks {
    /// §10's record, with a generated reader.
    @GeneratedJSONCoding
    struct Event: Codable, Equatable {
        @GeneratedJSONCoding
        enum Kind: String, Codable { case push, pullRequest = "pull_request", issues, release, fork, watch }
        var id: Int
        var uuid: UUID
        var kind: Kind
        var actor: String
        var repo: URL
        var avatar: URL
        var created: Date
        var updated: Date
    }

    @MainActor
    static func runEvents(quick: Bool, runs: Int) {
        let count = quick ? 500 : 20_000
        let iso = EventFeed.document(objects: count, dates: .iso8601)
        let milliseconds = EventFeed.document(objects: count, dates: .milliseconds)
        // The two documents hold the same instants, to the second.
        let isoRecords = try? isoDecoder().decode([Event].self, from: iso)
        let millisecondRecords = try? millisecondsDecoder().decode([Event].self, from: milliseconds)
        check(isoRecords?.count == count && millisecondRecords.map { $0.map(\.created.timeIntervalSince1970).map(floor) } == isoRecords?.map(\.created.timeIntervalSince1970),
              "§10: the ISO 8601 and millisecond feeds do not hold the same instants")
        var ours = JSONBodyDecoder()
        ours.dateDecodingStrategy = .iso8601
        runEventFeed("§10 event feed, ISO 8601 dates (.iso8601)", key: "iso8601", data: iso, ours: ours, foundation: isoDecoder(), runs: runs)
        ours.dateDecodingStrategy = .millisecondsSince1970
        runEventFeed("§10 event feed, dates in milliseconds (.millisecondsSince1970)", key: "milliseconds", data: milliseconds, ours: ours,
                     foundation: millisecondsDecoder(), runs: runs)
    }

    static func isoDecoder() -> JSONDecoder {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .iso8601
        return decoder
    }

    static func millisecondsDecoder() -> JSONDecoder {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .millisecondsSince1970
        return decoder
    }

    /// One feed: `JSONDecoder`, the generated readers, the `Decodable` path on the plain model,
    /// and a floor: the same records built from their fields' text already split out (the
    /// UUID, URLs and dates parsed from it as a decoder must), with no JSON read.
    @MainActor
    static func runEventFeed(_ name: String, key: String, data: Data, ours: JSONBodyDecoder, foundation: JSONDecoder, runs: Int) {
        let expected = try? foundation.decode([Event].self, from: data)
        check(expected != nil && (try? ours.decode([Event].self, from: data)) == expected, "\(name): the generated path and JSONDecoder disagree")
        let plain = try? foundation.decode([EventFeed.Event].self, from: data)
        check(plain != nil && (try? ours.decode([EventFeed.Event].self, from: data)) == plain, "\(name): the Decodable path and JSONDecoder disagree")
        let fields = (expected ?? []).map { event in
            (event.id, event.uuid.uuidString, event.kind.rawValue, event.actor, event.repo.absoluteString, event.avatar.absoluteString,
             event.created.timeIntervalSinceReferenceDate, event.updated.timeIntervalSinceReferenceDate)
        }
        let floor = { () -> [Event] in
            fields.map { field in
                Event(id: field.0, uuid: UUID(uuidString: field.1)!, kind: Event.Kind(rawValue: field.2)!, actor: field.3,
                      repo: URL(string: field.4)!, avatar: URL(string: field.5)!,
                      created: Date(timeIntervalSinceReferenceDate: field.6), updated: Date(timeIntervalSinceReferenceDate: field.7))
            }
        }
        check(floor() == expected, "\(name): the floor does not build the records")
        let times = fastest(runs: runs, [
            { consume(try? foundation.decode([Event].self, from: data)) },
            { consume(try? ours.decode([Event].self, from: data)) },
            { consume(try? ours.decode([EventFeed.Event].self, from: data)) },
            { consume(floor()) },
        ])
        print("  \(name), \(data.count) bytes: JSONDecoder \(format(times[0] * 1000)) ms")
        print("    generated readers        \(format(times[1] * 1000)) ms, \(format(times[0] / times[1], 2))x JSONDecoder   (target >= 6x)")
        print("    Decodable path           \(format(times[2] * 1000)) ms, \(format(times[0] / times[2], 2))x JSONDecoder")
        print("    floor: the records built from their fields' text, UUIDs and URLs parsed, no JSON read \(format(times[3] * 1000)) ms: "
            + "JSONDecoder / floor \(format(times[0] / times[3], 2))x; generated readers at \(format(times[1] / times[3], 2))x the floor")
        recordRatio("json-generated-decoding-events-\(key)-vs-jsondecoder", times[0] / times[1], target: 6)
    }
}

