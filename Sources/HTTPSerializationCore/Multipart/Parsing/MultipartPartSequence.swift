#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// The parts of a multipart body as it arrives: each part's head, then its body as an async
/// sequence of its own, so a 10 GiB file part is never held in memory.
///
/// Made by `MultipartBodyParser.parts(of:contentType:limits:)` from an async sequence. Read the
/// parts in order, one at a time: asking for the next part skips what is left of the current
/// one's body. Memory stays bounded by one chunk of the body and the limits.
///
/// ```swift
/// for try await part in try MultipartBodyParser.parts(of: request.body, contentType: contentType) {
///     if part.head.isFile {
///         for try await chunk in part.body { try file.write(contentsOf: chunk) }
///     } else {
///         let value = try await part.body.collect(upTo: 64 << 10)
///     }
/// }
/// ```
public struct MultipartPartSequence<Body: AsyncSequence>: AsyncSequence where Body.Element: Sequence<UInt8> {
    /// One part: its head and its body still to be read.
    public typealias Element = MultipartStreamedPart<Body>

    let body: Body
    let parser: MultipartBodyParser

    /// Starts reading the body; a body is read once.
    public func makeAsyncIterator() -> AsyncIterator {
        AsyncIterator(reader: MultipartStreamReader(source: body.makeAsyncIterator(), parser: parser))
    }

    /// Hands on each part as its head is read.
    public struct AsyncIterator: AsyncIteratorProtocol {
        let reader: MultipartStreamReader<Body>

        /// The next part, nil after the last, or the error that stopped the body.
        public mutating func next() async throws -> MultipartStreamedPart<Body>? {
            guard let head = try await reader.nextPart() else { return nil }
            return MultipartStreamedPart(head: head, body: MultipartPartBody(reader: reader, part: reader.partNumber))
        }
    }
}

/// One part of a streamed multipart body: its head, and its body to read before the next part.
public struct MultipartStreamedPart<Body: AsyncSequence> where Body.Element: Sequence<UInt8> {
    /// The part's header block, read.
    public let head: MultipartPartHead
    /// The part's body, chunk by chunk.
    public let body: MultipartPartBody<Body>
}

/// The body of one streamed part, chunk by chunk as the multipart body arrives.
///
/// It can be read once, and only until the next part is asked for.
public struct MultipartPartBody<Body: AsyncSequence>: AsyncSequence where Body.Element: Sequence<UInt8> {
    /// Bytes of the part, in order.
    public typealias Element = [UInt8]

    let reader: MultipartStreamReader<Body>
    let part: Int

    /// Starts reading the part's body.
    public func makeAsyncIterator() -> AsyncIterator {
        AsyncIterator(reader: reader, part: part)
    }

    /// Hands on the part's bytes as they arrive.
    public struct AsyncIterator: AsyncIteratorProtocol {
        let reader: MultipartStreamReader<Body>
        let part: Int

        /// The next bytes of the part, nil at its end.
        public mutating func next() async throws -> [UInt8]? {
            try await reader.nextBodyChunk(of: part)
        }
    }

    /// The whole body of the part, up to `limit` bytes: for fields and small files.
    ///
    /// - Throws: ``MultipartParsingError/fieldTooLarge(name:limit:)`` past `limit`, or what
    ///   reading the body throws.
    public func collect(upTo limit: Int) async throws -> Data {
        var data = Data()
        for try await chunk in self {
            guard data.count + chunk.count <= limit else {
                throw MultipartParsingError.fieldTooLarge(name: reader.currentName ?? "", limit: limit)
            }
            data.append(contentsOf: chunk)
        }
        return data
    }
}

extension MultipartBodyParser {
    /// The parts of a body arriving as an async sequence of chunks (async-http-client's or a
    /// server's request body, a file read in pieces, any `AsyncSequence` of bytes).
    ///
    /// - Throws: ``MultipartParsingError/notMultipart(contentType:)`` or
    ///   ``MultipartParsingError/invalidBoundary(_:reason:)`` at once; the other
    ///   ``MultipartParsingError``s come while reading.
    public static func parts<Body: AsyncSequence>(
        of body: Body, contentType: String, limits: MultipartParsingLimits = MultipartParsingLimits()
    ) throws(MultipartParsingError) -> MultipartPartSequence<Body> where Body.Element: Sequence<UInt8> {
        MultipartPartSequence(body: body, parser: try MultipartBodyParser(contentType: contentType, limits: limits))
    }
}

/// Drives one parser over one body for a part sequence and the bodies of its parts, which
/// share it: events a chunk completes wait in a queue until asked for.
///
/// A reference because a part's body and the part sequence read the same stream; like the
/// iterators it serves, it belongs to one task at a time.
final class MultipartStreamReader<Body: AsyncSequence> where Body.Element: Sequence<UInt8> {
    private enum Queued {
        case head(MultipartPartHead)
        case body([UInt8])
        case end
    }

    private var source: Body.AsyncIterator
    private var parser: MultipartBodyParser
    private var queue: [Queued] = []
    private var nextQueued = 0
    private var sourceEnded = false
    /// A fault met while reading a chunk, thrown once the events before it have been handed on.
    private var pendingError: (any Error)?
    /// The part whose body is being read (from 1), and whether its end has been passed.
    private(set) var partNumber = 0
    private var inPart = false
    private(set) var currentName: String?

    init(source: Body.AsyncIterator, parser: MultipartBodyParser) {
        self.source = source
        self.parser = parser
    }

    /// Skips what is left of the current part, then reads to the next head.
    func nextPart() async throws -> MultipartPartHead? {
        while let event = try await nextEvent() {
            switch event {
            case .head(let head):
                partNumber += 1
                inPart = true
                currentName = head.name
                return head
            case .body:
                continue
            case .end:
                inPart = false
            }
        }
        return nil
    }

    /// The next bytes of part `part`, nil once it has ended or a later part has been asked for.
    func nextBodyChunk(of part: Int) async throws -> [UInt8]? {
        guard part == partNumber, inPart else { return nil }
        while let event = try await nextEvent() {
            switch event {
            case .body(let bytes):
                return bytes
            case .end:
                inPart = false
                return nil
            case .head:
                // A head cannot come before the current part's end; the parser orders them.
                return nil
            }
        }
        return nil
    }

    private func nextEvent() async throws -> Queued? {
        while nextQueued == queue.count {
            queue.removeAll(keepingCapacity: true)
            nextQueued = 0
            if let pendingError {
                self.pendingError = nil
                throw pendingError
            }
            if sourceEnded { return nil }
            try Task.checkCancellation()
            guard let chunk = try await source.next() else {
                sourceEnded = true
                try parser.finish()
                continue
            }
            do {
                try feed(chunk)
            } catch {
                // Parts the chunk completed before the fault are handed on first.
                sourceEnded = true
                pendingError = error
            }
        }
        defer { nextQueued += 1 }
        return queue[nextQueued]
    }

    private func feed(_ chunk: Body.Element) throws {
        let handle: (MultipartBodyParser.Event) -> Void = { [self] event in
            switch event {
            case .head(let head): queue.append(.head(head))
            case .body(let bytes): queue.append(.body(bytes.withUnsafeBufferPointer { Array($0) }))
            case .end: queue.append(.end)
            }
        }
        try chunk.withChunkBytes { try parser.parse(unsafeBytes: UnsafeRawBufferPointer($0), handle) }
    }
}
