#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import HTTPTypes

/// The values of a streamed response body, validated and decoded as they arrive.
///
/// Made by ``StreamingResponseSerializer/values(for:body:requestMethod:request:)``. Each iteration
/// reads one pass over the body: no value is buffered beyond what one chunk completes, and
/// memory stays bounded by the serializer's limits whatever the body's size.
public struct ResponseValueStream<Serializer: StreamingResponseSerializer, Body: AsyncSequence>: AsyncSequence
where Body.Element: Sequence<UInt8> {
    /// One decoded value.
    public typealias Element = Serializer.BodyDecoder.Value

    let serializer: Serializer
    let response: HTTPResponse
    let body: Body
    let requestMethod: HTTPRequest.Method?
    let request: HTTPRequest?

    /// The most of an error response's body kept on its validation error.
    static var maximumErrorBodyLength: Int { 1 << 20 }

    /// Starts reading the body.
    public func makeAsyncIterator() -> AsyncIterator {
        AsyncIterator(stream: self, body: body.makeAsyncIterator())
    }

    /// Reads the body chunk by chunk and hands on the values each completes.
    public struct AsyncIterator: AsyncIteratorProtocol {
        private let stream: ResponseValueStream
        private var body: Body.AsyncIterator
        private var state = State.head
        private var ready: [Element] = []
        private var nextReady = 0

        private enum State {
            case head
            /// Validated; `checksFirstByte` when a response without a content type must
            /// prove its body empty.
            case reading(Serializer.BodyDecoder, checksFirstByte: Bool)
            /// The body failed after the values in `ready`: they go first, then the error.
            case failed(any Error)
            case done
        }

        init(stream: ResponseValueStream, body: Body.AsyncIterator) {
            self.stream = stream
            self.body = body
        }

        /// The next value, nil after the last, or the error that ended the body.
        public mutating func next() async throws -> Element? {
            while true {
                if nextReady < ready.count {
                    defer { nextReady += 1 }
                    return ready[nextReady]
                }
                ready.removeAll(keepingCapacity: true)
                nextReady = 0
                switch state {
                case .done:
                    return nil
                case .failed(let error):
                    state = .done
                    throw error
                case .head:
                    do {
                        state = .reading(try await start(), checksFirstByte: needsFirstByteCheck)
                    } catch {
                        state = .done
                        throw error
                    }
                case .reading(var decoder, let checksFirstByte):
                    state = .done
                    try Task.checkCancellation()
                    // Values a chunk completed before a fault in it are delivered before the fault.
                    do {
                        guard let chunk = try await body.next() else {
                            try decoder.finish(into: &ready)
                            continue
                        }
                        var sawBytes = false
                        try chunk.withChunkBytes { bytes in
                            sawBytes = !bytes.isEmpty
                            if checksFirstByte, sawBytes {
                                // The content-type rule alone: the caller's checks saw the head, and this is not the whole body.
                                try stream.serializer.base.rulesOnly.validate(context(data: Data(bytes)))
                            }
                            try decoder.decode(Span(_unsafeElements: bytes), into: &ready)
                        }
                        state = .reading(decoder, checksFirstByte: checksFirstByte && !sawBytes)
                    } catch {
                        state = .failed(error)
                    }
                }
            }
        }

        private func context(data: Data?) -> ResponseContext {
            ResponseContext(response: stream.response, data: data, requestMethod: stream.requestMethod, request: stream.request)
        }

        /// A response without a content type passes validation only with an empty body.
        private var needsFirstByteCheck: Bool {
            stream.serializer.base.typeRule(for: context(data: nil)) != nil && stream.response.headerFields[.contentType] == nil
        }

        /// Validates the head; a status failure reads the start of the body to carry it.
        private mutating func start() async throws -> Serializer.BodyDecoder {
            do {
                try stream.serializer.base.validate(context(data: nil))
            } catch let error as ResponseSerializationError where error.isStatusFailure {
                var collected = Data()
                while collected.count < ResponseValueStream.maximumErrorBodyLength, let chunk = try await body.next() {
                    collected.append(contentsOf: chunk.prefix(ResponseValueStream.maximumErrorBodyLength - collected.count))
                }
                try stream.serializer.base.validate(context(data: collected))
                throw error
            }
            return try stream.serializer.makeBodyDecoder(for: stream.response)
        }

    }
}

extension ResponseValueStream: Sendable where Body: Sendable {}

extension ResponseSerializationError {
    /// A refused status: the body is read (up to a limit) to carry the server's payload. A
    /// refused type or a check's refusal is thrown before the body is read, as a stream that
    /// passed its status may never end.
    var isStatusFailure: Bool {
        if case .unacceptableStatusCode = self { return true }
        return false
    }
}
