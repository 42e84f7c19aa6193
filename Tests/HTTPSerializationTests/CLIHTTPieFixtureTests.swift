import Foundation
import HTTPSerCLI
import HTTPSerialization
import Testing

/// `httpser --offline` against HTTPie 3.2.4's `http --offline --ignore-stdin`, recorded by
/// `Scripts/record-httpie-fixtures.sh` into `Fixtures/HTTPie` (CI does not run HTTPie).
///
/// The same method, target, headers that matter and body. Compared loosely only where the
/// case's `differences` says httpser differs on purpose:
/// - JSON bodies are compared as values: httpser sorts keys and writes no spaces.
/// - Query strings and form bodies are compared as decoded pairs, in order: httpser escapes
///   the AFNetworking way (`%20` for a space, `/` and `?` left alone in a query value), HTTPie
///   writes `+` and escapes more.
/// - `Content-Type` is compared without `charset` (HTTPie adds `charset=utf-8` to forms) and
///   `boundary` (random in HTTPie); multipart bodies are compared part by part.
/// - `User-Agent` names each tool, and HTTPie's `Accept-Encoding` and `Connection` are its
///   transport's defaults; none of those is compared.
@Suite("httpser --offline against recorded HTTPie requests")
struct CLIHTTPieFixtureTests {
    struct Case: Decodable, CustomTestStringConvertible, Sendable {
        var name: String
        var args: [String]
        var differences: String?
        var ignore: [String]?
        var testDescription: String { name }
    }

    static let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures/HTTPie")

    static let cases: [Case] = {
        (try? JSONDecoder().decode([Case].self, from: Data(contentsOf: folder.appendingPathComponent("cases.json")))) ?? []
    }()

    /// Headers of one tool, or of its transport, that say nothing about the request.
    static let unrelated: Set<String> = ["user-agent", "accept-encoding", "connection", "content-length"]

    struct Message {
        var method: String
        var path: String
        var query: String?
        var headers: [String: String]
        var body: Data

        init(_ data: Data) throws {
            let separator = Data("\r\n\r\n".utf8)
            let split = try #require(data.range(of: separator))
            let head = String(decoding: data[..<split.lowerBound], as: UTF8.self).components(separatedBy: "\r\n")
            body = Data(data[split.upperBound...])
            let line = head[0].split(separator: " ")
            method = String(line[0])
            let target = String(line[1])
            path = String(target.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false)[0])
            query = target.contains("?") ? String(target[target.index(after: target.firstIndex(of: "?")!)...]) : nil
            var headers: [String: String] = [:]
            for field in head.dropFirst() {
                let colon = try #require(field.firstIndex(of: ":"))
                headers[field[..<colon].lowercased()] = field[field.index(after: colon)...].trimmingCharacters(in: .whitespaces)
            }
            self.headers = headers
        }

        var mediaType: String { headers["content-type"].map { Self.parameters($0).type } ?? "" }

        /// The media type and its parameters, without the ones httpser and HTTPie pick differently.
        static func parameters(_ contentType: String) -> (type: String, rest: [String]) {
            let parts = contentType.split(separator: ";").map { $0.trimmingCharacters(in: .whitespaces).lowercased() }
            let rest = parts.dropFirst().filter { !$0.hasPrefix("boundary=") && !$0.hasPrefix("charset=") }
            return (parts.first ?? "", Array(rest))
        }
    }

    @Test("the recordings are there, at least 20 request shapes")
    func recordingsPresent() {
        #expect(Self.cases.count >= 20)
    }

    @Test("httpser --offline sends what HTTPie would", arguments: cases)
    func sameRequest(_ fixture: Case) async throws {
        let inputs = Self.folder.appendingPathComponent("inputs").path
        let arguments = fixture.args.map { $0.replacingOccurrences(of: "{inputs}", with: inputs) }
        let httpie = try Message(Data(contentsOf: Self.folder.appendingPathComponent(fixture.name + ".http")))
        let (code, output) = try await runHTTPSer(["--offline", "--ignore-stdin"] + arguments)
        #expect(code == 0, "\(output.errors)")
        let ours = try Message(output.output)
        let note = Comment(rawValue: fixture.differences.map { "deliberate difference: \($0)" } ?? "no deliberate difference")

        #expect(ours.method == httpie.method, note)
        #expect(ours.path == httpie.path, note)
        #expect(ours.query.map(Self.pairs) == httpie.query.map(Self.pairs), note)

        let ignored = Self.unrelated.union(fixture.ignore ?? [])
        let names = { (message: Message) in Set(message.headers.keys).subtracting(ignored) }
        #expect(names(ours) == names(httpie), note)
        for name in names(ours).intersection(names(httpie)) {
            if name == "content-type" {
                let (a, b) = (Message.parameters(ours.headers[name]!), Message.parameters(httpie.headers[name]!))
                #expect(a.type == b.type && a.rest == b.rest, "\(name): \(ours.headers[name]!) vs \(httpie.headers[name]!); \(note.rawValue)")
            } else {
                #expect(ours.headers[name] == httpie.headers[name], "\(name); \(note.rawValue)")
            }
        }

        switch httpie.mediaType {
        case "application/json" where !httpie.body.isEmpty:
            #expect(try ParameterValue(json: ours.body) == ParameterValue(json: httpie.body), note)
        case "application/x-www-form-urlencoded":
            #expect(Self.pairs(String(decoding: ours.body, as: UTF8.self)) == Self.pairs(String(decoding: httpie.body, as: UTF8.self)), note)
        case "multipart/form-data":
            let a = try MultipartInteropTests.parse(ours.body, boundary: try Self.boundary(ours))
            let b = try MultipartInteropTests.parse(httpie.body, boundary: try Self.boundary(httpie))
            #expect(a.map(\.headers) == b.map(\.headers), note)
            #expect(a.map(\.body) == b.map(\.body), note)
        default:
            #expect(ours.body == httpie.body, note)
        }
        // Equal bodies must be framed alike (none for a GET without a body, 0 for an empty POST).
        if ours.body == httpie.body, fixture.ignore?.contains("content-length") != true {
            #expect(ours.headers["content-length"] == httpie.headers["content-length"], note)
        }
    }

    static func boundary(_ message: Message) throws -> String {
        let type = try #require(message.headers["content-type"])
        let range = try #require(type.range(of: "boundary="))
        return String(type[range.upperBound...])
    }

    /// Decoded `name=value` pairs in order: `+` and `%XX` decoded, as servers read them.
    static func pairs(_ text: String) -> [[String]] {
        text.split(separator: "&").map { item in
            item.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false).map { part in
                String(part).replacingOccurrences(of: "+", with: " ").removingPercentEncoding ?? String(part)
            }
        }
    }
}
