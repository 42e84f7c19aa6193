import Foundation
import SeededGenerators

/// Docs/Benchmarks.md §10: an event feed, records whose fields are Foundation's value types
/// (a UUID, two URLs, two dates) beside an enum and plain text, written once with ISO 8601
/// dates and once with dates in milliseconds since 1970, from the same draws.
enum EventFeed {
    /// The record as a `JSONDecoder` user writes it, with no generated reader.
    struct Event: Codable, Equatable {
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

    /// How the feed writes its dates.
    enum Dates { case iso8601, milliseconds }

    static let kinds = ["push", "pull_request", "issues", "release", "fork", "watch"]

    /// §10: `objects` records, seed 8.
    static func document(objects: Int, dates: Dates) -> Data {
        var generator = SplitMix64(seed: 8)
        func slug(_ lo: Int, _ hi: Int) -> String {
            String((0..<generator.range(lo, hi)).map { _ in alnum[Int(generator.below(62))] })
        }
        func written(_ seconds: UInt64, _ milli: UInt64) -> String {
            switch dates {
            case .milliseconds: return "\(seconds * 1000 + milli)"
            case .iso8601: return "\"\(iso8601(seconds))\""
            }
        }
        var text = "["
        for i in 0..<objects {
            let u1 = generator.next(), u2 = generator.next()
            let kind = kinds[Int(generator.below(6))]
            let actor = slug(3, 16), repo = slug(2, 24)
            let created = 1_700_000_000 + generator.below(60_000_000), createdMilli = generator.below(1000)
            let updated = created + generator.below(86_400), updatedMilli = generator.below(1000)
            let version = generator.below(10)
            if i > 0 { text += "," }
            text += #"{"id":\#(i),"uuid":"\#(uuid(u1, u2))","kind":"\#(kind)","actor":"\#(actor)","#
            text += #""repo":"https://api.example.com/repos/\#(actor)/\#(repo)","avatar":"https://avatars.example.com/u/\#(i)?v=\#(version)","#
            text += #""created":\#(written(created, createdMilli)),"updated":\#(written(updated, updatedMilli))}"#
        }
        text += "]"
        return Data(text.utf8)
    }

    static let alnum = Array("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789")

    /// `u1` and `u2` as a UUID's text, upper-case hex as `UUID.uuidString` writes it.
    static func uuid(_ u1: UInt64, _ u2: UInt64) -> String {
        let hex = String(format: "%016llX%016llX", u1, u2)
        let characters = Array(hex)
        return [0..<8, 8..<12, 12..<16, 16..<20, 20..<32].map { String(characters[$0]) }.joined(separator: "-")
    }

    /// Seconds since 1970 (after 1970) as `YYYY-MM-DDThh:mm:ssZ`, in the proleptic Gregorian
    /// calendar: the civil date of a day count, by 400-year eras from a March-based year.
    static func iso8601(_ seconds: UInt64) -> String {
        let days = Int(seconds / 86_400) + 719_468, time = Int(seconds % 86_400)
        let era = days / 146_097, dayOfEra = days - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let shiftedMonth = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * shiftedMonth + 2) / 5 + 1
        let month = shiftedMonth < 10 ? shiftedMonth + 3 : shiftedMonth - 9
        let year = yearOfEra + era * 400 + (month <= 2 ? 1 : 0)
        return String(format: "%04d-%02d-%02dT%02d:%02d:%02dZ", year, month, day, time / 3600, time / 60 % 60, time % 60)
    }
}
