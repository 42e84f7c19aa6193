import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import HTTPSerializationCore

/// The delegate of one streamed URLSession exchange: hands over the head as soon as it
/// arrives, then the body's chunks in order, pausing the task while too much waits unread.
///
/// `@unchecked Sendable`: every mutable field is in `state`, read and written only under
/// `lock`; `progress` and `removesWhenDone` are immutable. NSObject subclasses cannot state
/// that to the compiler.
final class StreamingTaskReader: NSObject, URLSessionDataDelegate, @unchecked Sendable {
    /// Above this many unread bytes the task is suspended; below `resumeBelow` it goes on.
    /// Not on swift-corelibs-foundation, where suspending a task mid-transfer ends its body
    /// early (seen on Swift 6.3): there every chunk is kept until it is read.
    #if canImport(FoundationNetworking)
    static let suspendAbove = Int.max
    #else
    static let suspendAbove = 1 << 20
    #endif
    static let resumeBelow = 256 << 10

    private struct State {
        var task: URLSessionTask?
        var head: CheckedContinuation<URLResponse, any Error>?
        var waiter: CheckedContinuation<Data?, any Error>?
        var chunks: [Data] = []
        var nextChunk = 0
        var unread = 0
        var suspended = false
        var cancelled = false
        /// Set when the task has ended: nil error for a complete body.
        var end: (any Error)??
    }

    private let lock = NSLock()
    private var state = State()
    private let progress: (@Sendable (TransferProgress) -> Void)?
    private let removesWhenDone: URL?

    init(progress: (@Sendable (TransferProgress) -> Void)?, removesWhenDone: URL?) {
        self.progress = progress
        self.removesWhenDone = removesWhenDone
    }

    /// Starts `task` and waits for its response head.
    func start(_ task: URLSessionTask) async throws -> URLResponse {
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<URLResponse, any Error>) in
                let cancelled = lock.withLock {
                    state.task = task
                    if !state.cancelled { state.head = continuation }
                    return state.cancelled
                }
                if cancelled {
                    task.cancel()
                    continuation.resume(throwing: CancellationError())
                } else {
                    task.resume()
                }
            }
        } onCancel: {
            cancel()
        }
    }

    /// The next chunk of the body, nil after the last, or the failure that ended it.
    func nextChunk() async throws -> Data? {
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Data?, any Error>) in
                enum Outcome { case chunk(Data, resume: URLSessionTask?), end((any Error)?), wait }
                let outcome: Outcome = lock.withLock {
                    if state.nextChunk < state.chunks.count {
                        let chunk = state.chunks[state.nextChunk]
                        state.nextChunk += 1
                        state.unread -= chunk.count
                        if state.nextChunk == state.chunks.count {
                            state.chunks.removeAll(keepingCapacity: true)
                            state.nextChunk = 0
                        }
                        var resume: URLSessionTask?
                        if state.suspended, state.unread < Self.resumeBelow {
                            state.suspended = false
                            resume = state.task
                        }
                        return .chunk(chunk, resume: resume)
                    }
                    if state.cancelled { return .end(CancellationError()) }
                    if let end = state.end { return .end(end) }
                    state.waiter = continuation
                    return .wait
                }
                switch outcome {
                case .chunk(let chunk, let task):
                    task?.resume()
                    continuation.resume(returning: chunk)
                case .end(let error?):
                    continuation.resume(throwing: error)
                case .end(nil):
                    continuation.resume(returning: nil)
                case .wait:
                    break
                }
            }
        } onCancel: {
            cancel()
        }
    }

    /// Stops the exchange: whoever waits gets `CancellationError`.
    func cancel() {
        let (task, head, waiter) = lock.withLock {
            guard state.end == nil, !state.cancelled else { return (URLSessionTask?.none, CheckedContinuation<URLResponse, any Error>?.none, CheckedContinuation<Data?, any Error>?.none) }
            state.cancelled = true
            defer { (state.head, state.waiter) = (nil, nil) }
            return (state.task, state.head, state.waiter)
        }
        head?.resume(throwing: CancellationError())
        waiter?.resume(throwing: CancellationError())
        task?.cancel()
    }

    func urlSession(
        _ session: URLSession, dataTask: URLSessionDataTask, didReceive response: URLResponse,
        completionHandler: @escaping (URLSession.ResponseDisposition) -> Void
    ) {
        let head = lock.withLock {
            defer { state.head = nil }
            return state.head
        }
        head?.resume(returning: response)
        completionHandler(.allow)
    }

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
        let (waiter, suspend) = lock.withLock {
            if let waiter = state.waiter {
                state.waiter = nil
                return (Optional(waiter), false)
            }
            state.chunks.append(data)
            state.unread += data.count
            guard !state.suspended, state.unread > Self.suspendAbove else { return (nil, false) }
            state.suspended = true
            return (nil, true)
        }
        waiter?.resume(returning: data)
        if suspend { dataTask.suspend() }
    }

    func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?) {
        // The session (one per exchange) keeps its delegate until it is invalidated.
        session.finishTasksAndInvalidate()
        if let removesWhenDone { try? FileManager.default.removeItem(at: removesWhenDone) }
        let (head, waiter) = lock.withLock {
            state.end = .some(error)
            defer { (state.head, state.waiter) = (nil, nil) }
            return (state.head, state.waiter)
        }
        head?.resume(throwing: error ?? URLError(.badServerResponse))
        if let error { waiter?.resume(throwing: error) } else { waiter?.resume(returning: nil) }
    }

    func urlSession(
        _ session: URLSession, task: URLSessionTask, didSendBodyData bytesSent: Int64,
        totalBytesSent: Int64, totalBytesExpectedToSend: Int64
    ) {
        progress?(TransferProgress(completed: totalBytesSent, total: totalBytesExpectedToSend > 0 ? totalBytesExpectedToSend : nil))
    }
}

/// Cancels a streamed exchange once nothing can read its body any more.
final class StreamedBodyLifetime: Sendable {
    let reader: StreamingTaskReader

    init(reader: StreamingTaskReader) {
        self.reader = reader
    }

    deinit {
        reader.cancel()
    }
}
