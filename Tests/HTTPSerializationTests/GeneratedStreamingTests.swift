#if Macros
import Foundation
import HTTPSerialization
import HTTPSerializationMacros
import HTTPTypes
import Testing

/// The streaming and response serializers read a model with a generated reader through that
/// reader, straight from the text (a probe inside the model records which of its own readers
/// ran, and only a reader of the text reaches its text reader), and the JSON request body, the
/// stream writer and event encoding write it through its generated writer.
@Suite("@GeneratedJSONCoding models through their generated readers and writers at every streaming and request entry point")
struct GeneratedStreamingTests {
    /// How a ``Probe`` was read.
    enum Route: Equatable, Sendable { case text, tape, codable }

    /// A value that says which of its readers made it.
    struct Probe: Codable, Equatable, JSONTapeDecodable {
        var x: Int
        var route: Route

        enum CodingKeys: String, CodingKey { case x }

        init(x: Int, route: Route) {
            self.x = x
            self.route = route
        }

        init(from decoder: any Decoder) throws {
            x = try decoder.container(keyedBy: CodingKeys.self).decode(Int.self, forKey: .x)
            route = .codable
        }

        init(jsonTape value: borrowing JSONTapeValue) throws {
            var object = try value.object()
            x = try object.decode(Int.self, forKey: "x")
            route = .tape
        }

        init(jsonText reader: inout JSONTextReader) throws {
            var object = try reader.object()
            let x = try reader.decode(Int.self, forKey: "x", in: &object)
            try reader.close(&object)
            self.x = x
            route = .text
        }
    }

    @GeneratedJSONCoding
    struct Tracked: Codable, Equatable {
        var id: Int
        var probe: Probe
    }

    static func line(_ id: Int) -> String { #"{"id":\#(id),"probe":{"x":\#(id * 10)}}"# }

    /// `text` delivered a few bytes at a time.
    static func chunks(_ text: String, size: Int = 5) -> AsyncStream<[UInt8]> {
        let bytes = Array(text.utf8)
        return AsyncStream { continuation in
            for start in stride(from: 0, to: bytes.count, by: size) {
                continuation.yield(Array(bytes[start..<min(start + size, bytes.count)]))
            }
            continuation.finish()
        }
    }

    static func collect(_ contentType: String, _ body: String) async throws -> [Tracked] {
        let head = HTTPResponse(status: .ok, headerFields: [.contentType: contentType])
        var values: [Tracked] = []
        for try await value in JSONStreamResponseSerializer(decoding: Tracked.self).values(for: head, body: chunks(body)) {
            values.append(value)
        }
        return values
    }

    static let expected = (1...3).map { Tracked(id: $0, probe: Probe(x: $0 * 10, route: .text)) }

    @Test("JSON Lines, JSON text sequences and array elements each read through the generated reader, from the text")
    func framings() async throws {
        let lines = (1...3).map(Self.line).joined(separator: "\n") + "\n"
        #expect(try await Self.collect("application/jsonl", lines) == Self.expected)
        let sequence = (1...3).map { "\u{1E}" + Self.line($0) + "\n" }.joined()
        #expect(try await Self.collect("application/json-seq", sequence) == Self.expected)
        let array = "[" + (1...3).map(Self.line).joined(separator: ", ") + "]"
        #expect(try await Self.collect("application/json", array) == Self.expected)
    }

    @Test("whole bodies, event data and DecodableResponseSerializer read through the generated reader, from the text")
    func wholeBodiesAndEvents() throws {
        let head = HTTPResponse(status: .ok, headerFields: [.contentType: "application/jsonl"])
        let body = Data(((1...3).map(Self.line).joined(separator: "\n")).utf8)
        #expect(try JSONStreamResponseSerializer(decoding: Tracked.self).responseObject(for: head, data: body) == Self.expected)
        let event = ServerSentEvent(data: Self.line(1))
        #expect(try event.decodeData(as: Tracked.self) == Self.expected[0])
        let json = HTTPResponse(status: .ok, headerFields: [.contentType: "application/json"])
        #expect(try DecodableResponseSerializer(Tracked.self).responseObject(for: json, data: Data(Self.line(2).utf8)) == Self.expected[1])
        // The probe tells the routes apart: JSONDecoder takes `init(from:)`, and a custom key
        // strategy, which the text reader leaves to the parse, the tape.
        #expect(try JSONDecoder().decode(Tracked.self, from: Data(Self.line(1).utf8)).probe.route == .codable)
        var custom = JSONBodyDecoder()
        custom.keyDecodingStrategy = .custom { $0.last! }
        #expect(try custom.decode(Tracked.self, from: Data(Self.line(1).utf8)).probe.route == .tape)
    }

    /// A model whose `encode(to:)`, declared in an extension the macro does not see, marks its
    /// text: only output that bypassed the generated writer carries the mark.
    @GeneratedJSONCoding
    struct Written: Codable, Equatable {
        var id: Int
        var name: String
    }

    @Test("the JSON request body, stream writers and event encoding write through the generated writer")
    func writers() throws {
        let model = Written(id: 1, name: "a")
        let generated = #"{"id":1,"name":"a"}"#
        // The mark is there when `encode(to:)` runs: in JSONEncoder's output, and in the
        // package's own `Encodable` path, which sorted keys take.
        #expect(String(decoding: try JSONEncoder().encode(model), as: UTF8.self).contains("viaEncodeTo"))
        var sorted = JSONBodyEncoder()
        sorted.outputFormatting = .sortedKeys
        #expect(String(decoding: try sorted.encode(model), as: UTF8.self).contains("viaEncodeTo"))
        let request = try JSONRequestSerializer().httpRequest(method: "POST", urlString: "http://127.0.0.1/items", body: model)
        guard case .bytes(let body) = request.body else {
            Issue.record("no body bytes")
            return
        }
        #expect(String(decoding: body, as: UTF8.self) == generated)
        var lines: [UInt8] = []
        try JSONStreamWriter<Written>(format: .lines).write(model, index: 1, into: &lines)
        #expect(String(decoding: lines, as: UTF8.self) == generated + "\n")
        #expect(try ServerSentEvent(encoding: model).data == generated)
    }
}

extension GeneratedStreamingTests.Written {
    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(id, forKey: .id)
        try container.encode(name, forKey: .name)
        var marks = encoder.container(keyedBy: Mark.self)
        try marks.encode(true, forKey: .viaEncodeTo)
    }

    enum Mark: String, CodingKey { case viaEncodeTo }
}
#endif
