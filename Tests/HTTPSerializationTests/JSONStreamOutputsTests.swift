import Foundation
import HTTPTypes
import Testing
import HTTPSerialization

/// JSON Lines into the outputs of the upper layers: a `Decodable` model and Foundation's `Any`.
@Suite("Streaming: JSON Lines as Decodable models and as Any")
struct JSONLinesOutputsTests {
    struct Entry: Decodable, Equatable {
        let id: Int
        let message: String
    }

    static let head = HTTPResponse(status: .ok, headerFields: [.contentType: "application/jsonl"])

    /// `text` delivered a few bytes at a time.
    static func chunks(_ text: String, size: Int = 3) -> AsyncStream<[UInt8]> {
        let bytes = Array(text.utf8)
        return AsyncStream { continuation in
            for start in stride(from: 0, to: bytes.count, by: size) {
                continuation.yield(Array(bytes[start..<min(start + size, bytes.count)]))
            }
            continuation.finish()
        }
    }

    @Test("each line decodes into the model as it completes; one that does not fit names its line and keeps the DecodingError")
    func decodable() async throws {
        let serializer = JSONStreamResponseSerializer(decoding: Entry.self)
        var entries: [Entry] = []
        do {
            for try await entry in serializer.values(for: Self.head, body: Self.chunks("{\"id\":1,\"message\":\"a\"}\n{\"id\":2,\"message\":\"b\"}\r\n{\"id\":\"3\"}\n")) {
                entries.append(entry)
            }
            Issue.record("no error")
        } catch StreamingResponseError.undecodableValue(let line, let underlying) {
            #expect(line == 3)
            #expect(underlying.error is DecodingError)
        }
        #expect(entries == [Entry(id: 1, message: "a"), Entry(id: 2, message: "b")])
        #expect(try serializer.responseObject(for: Self.head, data: Data("{\"id\":9,\"message\":\"z\"}".utf8)) == [Entry(id: 9, message: "z")])
    }

    @Test("array elements decode into the model one by one; one that does not fit names its index")
    func decodableArrayElements() async throws {
        let head = HTTPResponse(status: .ok, headerFields: [.contentType: "application/json; charset=utf-8"])
        let serializer = JSONStreamResponseSerializer(decoding: Entry.self)
        var entries: [Entry] = []
        do {
            for try await entry in serializer.values(for: head, body: Self.chunks(#"[{"id":1,"message":"a"}, {"id":2,"message":"b"}, {"id":3}]"#)) {
                entries.append(entry)
            }
            Issue.record("no error")
        } catch StreamingResponseError.undecodableElement(let index, let underlying) {
            #expect(index == 3)
            #expect(underlying.error is DecodingError)
        }
        #expect(entries == [Entry(id: 1, message: "a"), Entry(id: 2, message: "b")])
    }

    @Test("Any values are the graph JSONSerialization gives for each line, nulls removed when asked")
    func foundationGraph() async throws {
        let text = "{\"a\":null,\"b\":[1,null,true]}\n\"s\"\n"
        var plain: [Any] = []
        for try await value in JSONStreamResponseSerializer<Any>().values(for: Self.head, body: Self.chunks(text)) { plain.append(value) }
        #expect(plain.count == 2)
        let first = try #require(plain.first as? [String: Any])
        #expect(first["a"] is NSNull)
        #expect((first["b"] as? [Any])?.count == 3)
        #expect(plain.last as? String == "s")

        var trimmed: [Any] = []
        for try await value in JSONStreamResponseSerializer<Any>(removingNulls: true).values(for: Self.head, body: Self.chunks(text)) { trimmed.append(value) }
        let kept = try #require(trimmed.first as? [String: Any])
        #expect(kept["a"] == nil)
        #expect((kept["b"] as? [Any])?.count == 2)
    }
}
