import Foundation
import SeededGenerators

/// Bodies written while the client reads them, for the streaming serializers:
///
/// - `/sse?count=N`: server-sent events (a BOM, comments, names, ids, multi-line JSON data,
///   `retry`, LF, CRLF and CR line ends), in seeded pieces of 1 to 61 bytes so boundaries fall
///   inside line ends and UTF-8 sequences, with a pause of `pause` ms (1 by default) after
///   every fourth piece; `hold=1` keeps the connection open after the last event, and
///   `abort=1` closes it there without ending the body (on every route).
/// - `/ndjson?count=N`: one JSON record a line (some CRLF, some blank lines), cut the same way.
/// - `/json-array?count=N`: one JSON array of N records in 64 KiB pieces, made as it is sent
///   (so a body of gigabytes never sits in memory), without pauses.
///
/// `compress=1` on any of them gzips or deflates the body as the request's `Accept-Encoding`
/// asks, flushing with each piece. `seed` changes the pieces' sizes (the content stays).
public enum StreamingRoutes {
    /// The most records or events one response carries.
    static let maximumCount = 50_000_000

    /// A streamed body: its content type, and the pieces to write.
    struct Route {
        var contentType: String
        var compress: Bool
        var holdsOpen: Bool
        var aborts = false
        var pieces: Pieces
    }

    static func route(path: String, query: String?) -> Route? {
        let pairs = FormDecoding.pairs(query ?? "")
        let value = { (name: String) in pairs.first { $0.name == name }?.value }
        let count = min(value("count").flatMap(Int.init).map { max($0, 0) } ?? 20, maximumCount)
        let seed = value("seed").flatMap(UInt64.init) ?? 7
        let pause = min(max(value("pause").flatMap(Int.init) ?? 1, 0), 1000)
        let compress = value("compress") == "1"
        var route: Route
        switch path {
        case "/sse":
            route = Route(contentType: "text/event-stream", compress: compress, holdsOpen: value("hold") == "1",
                         pieces: Pieces(count: count, record: serverSentEvent, sizes: .awkward(SplitMix64(seed: seed)), pauseMilliseconds: pause))
        case "/ndjson":
            route = Route(contentType: "application/x-ndjson", compress: compress, holdsOpen: false,
                         pieces: Pieces(count: count, record: jsonLine, sizes: .awkward(SplitMix64(seed: seed)), pauseMilliseconds: pause))
        case "/json-array":
            route = Route(contentType: "application/json", compress: compress, holdsOpen: false,
                         pieces: Pieces(count: count, record: arrayElement, sizes: .large, pauseMilliseconds: 0))
        default:
            return nil
        }
        route.aborts = value("abort") == "1"
        return route
    }

    /// The whole body `/sse?count=N` sends, for checking what a client decoded.
    public static func serverSentEventsBody(count: Int) -> Data { body(count: count, record: serverSentEvent) }

    /// The whole body `/ndjson?count=N` sends.
    public static func jsonLinesBody(count: Int) -> Data { body(count: count, record: jsonLine) }

    /// The whole body `/json-array?count=N` sends.
    public static func jsonArrayBody(count: Int) -> Data { body(count: count, record: arrayElement) }

    private static func body(count: Int, record: (Int, Int) -> [UInt8]) -> Data {
        var data = Data()
        for index in 0...count { data.append(contentsOf: record(index, count)) }
        return data
    }

    private static let texts = ["plain", "caf\u{E9} cr\u{E8}me", "\u{2713} done", "\u{65E5}\u{672C}\u{8A9E}", "rocket \u{1F680}", "quote \\\" and \\\\"]

    /// Event `index` of `count` (index `count` is what follows the last: nothing).
    private static func serverSentEvent(_ index: Int, _ count: Int) -> [UInt8] {
        guard index < count else { return [] }
        let end = ["\n", "\r\n", "\r"][index % 3]
        var text = index == 0 ? "\u{FEFF}" : ""
        if index % 7 == 0 { text += ": keep-alive \(index)" + end }
        if index % 2 == 1 { text += "event: update" + end }
        text += "id: \(index)" + end
        if index % 10 == 3 { text += "retry: \(1000 + index)" + end }
        let json = #"{"n":\#(index),"text":"\#(texts[index % texts.count])"}"#
        if index % 5 == 4 {
            // The JSON split over two data lines, which the client joins with LF.
            text += "data: " + json.replacingOccurrences(of: ",", with: "," + end + "data: ") + end
        } else {
            text += "data:" + json + end
        }
        return Array((text + end).utf8)
    }

    private static func jsonLine(_ index: Int, _ count: Int) -> [UInt8] {
        guard index < count else { return [] }
        let line = #"{"id":\#(index),"name":"record \#(index) \#(texts[index % texts.count])","score":\#(Double(index) / 4),"tags":["t\#(index % 3)"]}"#
        return Array((line + (index % 4 == 1 ? "\r\n" : "\n") + (index % 50 == 49 ? "\n" : "")).utf8)
    }

    private static func arrayElement(_ index: Int, _ count: Int) -> [UInt8] {
        guard index < count else { return Array("]".utf8) }
        let record = #"{"id":\#(index),"name":"record \#(index)","active":\#(index % 2 == 0),"score":\#(Double(index) / 8),"tags":["a","b\#(index % 5)"]}"#
        return Array(((index == 0 ? "[" : ",") + record).utf8)
    }

    /// The body cut into pieces, its records made only as the pieces need them.
    struct Pieces {
        enum Sizes {
            case awkward(SplitMix64)
            case large
        }

        let count: Int
        let record: (Int, Int) -> [UInt8]
        var sizes: Sizes
        let pauseMilliseconds: Int
        private var nextRecord = 0
        private var pending: [UInt8] = []
        private var start = 0
        private(set) var piecesSent = 0

        init(count: Int, record: @escaping (Int, Int) -> [UInt8], sizes: Sizes, pauseMilliseconds: Int) {
            self.count = count
            self.record = record
            self.sizes = sizes
            self.pauseMilliseconds = pauseMilliseconds
        }

        /// Whether to pause after the piece just taken.
        var pausesNow: Bool { pauseMilliseconds > 0 && piecesSent % 4 == 0 }

        /// The next piece, nil after the last.
        mutating func next() -> [UInt8]? {
            let size: Int
            switch sizes {
            case .awkward(var generator):
                size = generator.range(1, 61)
                sizes = .awkward(generator)
            case .large:
                size = 64 << 10
            }
            while pending.count - start < size, nextRecord <= count {
                if start > 0 {
                    pending.removeFirst(start)
                    start = 0
                }
                pending.append(contentsOf: record(nextRecord, count))
                nextRecord += 1
            }
            let end = min(start + size, pending.count)
            guard end > start else { return nil }
            defer { start = end }
            piecesSent += 1
            return Array(pending[start..<end])
        }
    }
}
