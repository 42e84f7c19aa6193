#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import HTTPTypes
import Testing
@testable import HTTPSerializationCore

/// A body delivered in the chunks a test chooses, counting how many the reader pulled.
struct ChunkedBody: AsyncSequence, Sendable {
    let chunks: [[UInt8]]
    let pulls: PullCounter?

    init(_ chunks: [[UInt8]], pulls: PullCounter? = nil) {
        self.chunks = chunks
        self.pulls = pulls
    }

    /// `bytes` cut at every `size` bytes.
    init(_ bytes: [UInt8], chunkSize size: Int) {
        self.init(stride(from: 0, to: bytes.count, by: Swift.max(size, 1)).map { Array(bytes[$0..<Swift.min($0 + size, bytes.count)]) })
    }

    struct AsyncIterator: AsyncIteratorProtocol {
        var remaining: ArraySlice<[UInt8]>
        let pulls: PullCounter?
        mutating func next() async -> [UInt8]? {
            pulls?.count()
            return remaining.popFirst()
        }
    }

    func makeAsyncIterator() -> AsyncIterator { AsyncIterator(remaining: chunks[...], pulls: pulls) }
}

/// How many chunks were asked for, from any task.
final class PullCounter: Sendable {
    private let storage = LockedCount()
    func count() { storage.add() }
    var value: Int { storage.value }
}

/// A counter behind the package's mutex, so the test target needs nothing else.
final class LockedCount: @unchecked Sendable {
    // Every access holds `lock`.
    private let lock = POSIXMutex()
    private var stored = 0
    func add() { lock.withLock { stored += 1 } }
    var value: Int { lock.withLock { stored } }
}

/// A deterministic generator (SplitMix64), so a failing chunking can be replayed.
struct SplitMix: RandomNumberGenerator {
    var state: UInt64
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

@Suite("Streaming: JSON Lines and text sequences, as the bytes arrive")
struct StreamingJSONLinesTests {
    static func head(_ contentType: String? = "application/x-ndjson", status: Int = 200) -> HTTPResponse {
        var fields = HTTPFields()
        if let contentType { fields[.contentType] = contentType }
        return HTTPResponse(status: .init(code: status), headerFields: fields)
    }

    static func collect<S: StreamingResponseSerializer>(
        _ serializer: S, _ body: ChunkedBody, head: HTTPResponse = head()
    ) async throws -> [S.BodyDecoder.Value] {
        var values: [S.BodyDecoder.Value] = []
        for try await value in serializer.values(for: head, body: body) { values.append(value) }
        return values
    }

    static let lines: [String] = [
        #"{"id":1,"name":"a"}"#, "", #"{"id":2,"name":"caf\u00e9 東京","tags":["x","y"]}"#, "  ", "[1,2.5,-3e2]",
        #""just a string""#, "null", #"{"nested":{"deep":[{"k":true}]}}"#,
    ]

    @Test("every chunking of a body gives the values the whole body gives, in order, CRLF and blank lines included")
    func anyChunking() async throws {
        let text = Self.lines.enumerated().map { $0.offset % 2 == 0 ? $0.element + "\r\n" : $0.element + "\n" }.joined()
        let bytes = Array(text.utf8)
        let expected = try Self.lines.filter { $0.contains { $0 != " " } }
            .map { try ParameterValue(json: Data($0.utf8)) }
        for size in 1...bytes.count {
            #expect(try await Self.collect(JSONStreamResponseSerializer(), ChunkedBody(bytes, chunkSize: size)) == expected, "chunk size \(size)")
        }
        var random = SplitMix(state: 21)
        for _ in 0..<200 {
            var chunks: [[UInt8]] = []
            var start = 0
            while start < bytes.count {
                let size = Int.random(in: 0...9, using: &random)
                chunks.append(Array(bytes[start..<min(start + size, bytes.count)]))
                start += size
            }
            #expect(try await Self.collect(JSONStreamResponseSerializer(), ChunkedBody(chunks)) == expected)
        }
        // The last line needs no line feed.
        #expect(try await Self.collect(JSONStreamResponseSerializer(), ChunkedBody([Array("1\n2".utf8)])) == [1, 2])
    }

    @Test("a line that is not JSON ends the stream with its line number, after the values before it")
    func badLine() async throws {
        var delivered: [ParameterValue] = []
        do {
            for try await value in JSONStreamResponseSerializer().values(for: Self.head(), body: ChunkedBody([Array("1\n\n[2]\n{\"a\":}\n4\n".utf8)])) {
                delivered.append(value)
            }
            Issue.record("no error")
        } catch let error as StreamingResponseError {
            guard case .unreadableJSON(let line, let reading) = error else { Issue.record("got \(error)"); return }
            #expect(line == 4)
            #expect(reading.offset == 5)
        }
        #expect(delivered == [1, [2]])
    }

    @Test("a line past the limit fails as soon as it passes, however it is chunked, holding no more than the limit")
    func lineLimit() async throws {
        var serializer = JSONStreamResponseSerializer()
        serializer.maximumLineLength = 16
        let long = Array("[1]\n\"" .utf8) + Array(repeating: UInt8(ascii: "a"), count: 10_000)
        for size in [1, 7, 10_005] {
            await #expect(throws: StreamingResponseError.lineTooLong(line: 2, limit: 16)) {
                _ = try await Self.collect(serializer, ChunkedBody(long, chunkSize: size))
            }
        }
        #expect(try await Self.collect(serializer, ChunkedBody([Array("[\"0123456789ab\"]\r\n".utf8)])).count == 1)
        var nested = JSONStreamResponseSerializer()
        nested.maximumDepth = 3
        await #expect(throws: StreamingResponseError.self) {
            _ = try await Self.collect(nested, ChunkedBody([Array("[[[[1]]]]\n".utf8)]))
        }
    }

    @Test("RFC 7464 text sequences: each value after an RS, numbered from 1, read by content type or by choice")
    func textSequences() async throws {
        let body = Array("\u{1E}{\"a\":1}\n\u{1E}[2,\n3]\n\u{1E}\"x\"\n".utf8)
        let expected: [ParameterValue] = [["a": 1], [2, 3], "x"]
        for size in [1, 2, 5, body.count] {
            #expect(try await Self.collect(JSONStreamResponseSerializer(), ChunkedBody(body, chunkSize: size), head: Self.head("application/json-seq")) == expected)
        }
        var chosen = JSONStreamResponseSerializer()
        chosen.format = .textSequence
        #expect(try await Self.collect(chosen, ChunkedBody([body])) == expected)
        do {
            _ = try await Self.collect(chosen, ChunkedBody([Array("\u{1E}1\n\u{1E}[1,".utf8)]))
            Issue.record("no error")
        } catch StreamingResponseError.unreadableJSON(let line, let reading) {
            #expect(line == 2)
            #expect(reading.offset == 3)
            guard case .unexpectedEnd = reading.reason else { Issue.record("got \(reading)"); return }
        }
    }

    @Test("the head is checked before the body: a refused type reads nothing, a refused status carries the body's start")
    func headFirst() async throws {
        let pulls = PullCounter()
        await #expect(throws: ResponseSerializationError.self) {
            _ = try await Self.collect(JSONStreamResponseSerializer(), ChunkedBody([Array("1\n".utf8)], pulls: pulls), head: Self.head("text/html"))
        }
        #expect(pulls.value == 0)

        do {
            _ = try await Self.collect(JSONStreamResponseSerializer(), ChunkedBody([Array("{\"error\":".utf8), Array("\"quota\"}\n".utf8)]), head: Self.head(status: 429))
            Issue.record("no error")
        } catch let error as ResponseSerializationError {
            guard case .unacceptableStatusCode(429, let context, _) = error else { Issue.record("got \(error)"); return }
            #expect(context.data == Data("{\"error\":\"quota\"}\n".utf8))
        }

        // No content type: an empty body passes, a byte fails.
        #expect(try await Self.collect(JSONStreamResponseSerializer(), ChunkedBody([[], []]), head: Self.head(nil)).isEmpty)
        await #expect(throws: ResponseSerializationError.self) {
            _ = try await Self.collect(JSONStreamResponseSerializer(), ChunkedBody([[], Array("1\n".utf8)]), head: Self.head(nil))
        }
    }

    @Test("values come as soon as their line completes, and a cancelled reader stops pulling the body")
    func incrementalAndCancellable() async throws {
        let pulls = PullCounter()
        let endless = ChunkedBody(Array(repeating: Array("7\n".utf8), count: 100_000), pulls: pulls)
        var iterator = JSONStreamResponseSerializer().values(for: Self.head(), body: endless).makeAsyncIterator()
        #expect(try await iterator.next() == 7)
        #expect(pulls.value == 1)

        let reader = Task {
            var count = 0
            for try await _ in JSONStreamResponseSerializer().values(for: Self.head(), body: endless) {
                count += 1
                if count == 10 { withUnsafeCurrentTask { $0?.cancel() } }
            }
            return count
        }
        await #expect(throws: CancellationError.self) { _ = try await reader.value }
        #expect(pulls.value < 1_000)
    }

    @Test("as a whole-body serializer it gives every value, and an empty body gives none")
    func wholeBody() throws {
        let serializer = JSONStreamResponseSerializer()
        #expect(try serializer.responseObject(for: Self.head(), data: Data("1\n[2]\n".utf8)) == [1, [2]])
        #expect(try serializer.responseObject(for: Self.head(), data: Data()).isEmpty)
        #expect(try serializer.responseObject(for: Self.head(), data: nil).isEmpty)
        let error = #expect(throws: StreamingResponseError.self) {
            try serializer.responseObject(for: Self.head(), data: Data("\n x\n".utf8))
        }
        guard case .unreadableJSON(2, let reading)? = error else { Issue.record("got \(String(describing: error))"); return }
        #expect(reading.offset == 1)
    }

    @Test("a top-level array gives its elements as they complete, whatever the chunking, the same as reading it whole")
    func arrayElements() async throws {
        let text = #" [ {"a":[1,{"b":"],[\""}]}, "x,]\\", 12.5e1 ,true,null, [[],{}] ,"", -0 ] "#
        let whole = try ParameterValue(json: Data(text.utf8))
        guard case .array(let elements) = whole else { Issue.record("not an array"); return }
        let expected = Array(elements)
        let bytes = Array(text.utf8)
        let json = Self.head("application/json")
        for size in 1...bytes.count {
            #expect(try await Self.collect(JSONStreamResponseSerializer(), ChunkedBody(bytes, chunkSize: size), head: json) == expected, "chunk size \(size)")
        }
        var chosen = JSONStreamResponseSerializer()
        chosen.format = .array
        #expect(try await Self.collect(chosen, ChunkedBody([Array("[1,2]".utf8)])) == [1, 2])
        #expect(try await Self.collect(chosen, ChunkedBody([Array("[]".utf8)])).isEmpty)
        #expect(try await Self.collect(chosen, ChunkedBody([Array(" \n".utf8)])).isEmpty)
    }

    @Test("an array that is not one, an element that is not JSON, a huge element and an unclosed array are typed errors")
    func arrayFaults() async throws {
        var serializer = JSONStreamResponseSerializer()
        serializer.format = .array
        serializer.maximumLineLength = 32
        func fault(_ text: String) async -> (StreamingResponseError?, [ParameterValue]) {
            var values: [ParameterValue] = []
            do {
                for try await value in serializer.values(for: Self.head(), body: ChunkedBody(Array(text.utf8), chunkSize: 3)) { values.append(value) }
                return (nil, values)
            } catch {
                return (error as? StreamingResponseError, values)
            }
        }
        let trailingComma = await fault("[1,]")
        guard case .unreadableArray(let comma)? = trailingComma.0 else { Issue.record("got \(trailingComma)"); return }
        #expect(comma.offset == 3 && trailingComma.1 == [1])
        let missingComma = await fault("[1 2]")
        guard case .unreadableArray(let missing)? = missingComma.0 else { Issue.record("got \(missingComma)"); return }
        #expect(missing.offset == 3)
        guard case .unreadableArray(let object)? = await fault(" {}").0 else { Issue.record("an object read as an array"); return }
        #expect(object.offset == 1)
        guard case .unreadableArray(let after)? = await fault("[1] x").0 else { Issue.record("data after the array"); return }
        #expect(after.offset == 4)
        let badElement = await fault("[1, tru, 3]")
        guard case .unreadableElement(2, _)? = badElement.0 else { Issue.record("got \(badElement)"); return }
        #expect(badElement.1 == [1])
        let huge = await fault("[1, \"" + String(repeating: "a", count: 100) + "\"]")
        #expect(huge.0 == .elementTooLarge(index: 2, limit: 32))
        let unclosed = await fault("[1, [2, 3]")
        guard case .truncated? = unclosed.0 else { Issue.record("got \(unclosed)"); return }
        #expect(unclosed.1 == [1, [2, 3]])
    }

    @Test("the line splitter ends lines at CR, LF and CRLF, a CRLF split across chunks counting once")
    func anyLineEnd() throws {
        let text = Array("a\rb\nc\r\nd\r\r\ne".utf8)
        for size in 1...text.count {
            var splitter = LineSplitter(terminator: .anyLineEnd, maximumLength: 8)
            var lines: [String] = []
            for chunk in ChunkedBody(text, chunkSize: size).chunks {
                try chunk.withUnsafeBufferPointer { bytes in
                    try splitter.split(bytes) { line, _ in lines.append(String(decoding: line, as: UTF8.self)) }
                }
            }
            #expect(lines == ["a", "b", "c", "d", ""], "chunk size \(size)")
            #expect(splitter.takeUnterminated() == Array("e".utf8))
        }
    }
}
