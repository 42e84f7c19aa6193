/// Hands every value sent to it to every subscriber, each from the moment it subscribed: live
/// updates for every client of an event stream, where one shared `AsyncStream` would split
/// the updates between clients and hand a new one everything buffered before it came.
///
/// Each ``subscribe()`` makes a stream of its own; ``send(_:)`` gives the value to every open
/// one. A subscriber whose client has gone away is dropped when its stream's task ends. A
/// subscriber that falls more than ``bufferLimit`` values behind (a stalled client) is ended
/// rather than buffered without bound: an `EventSource` reconnects, and with ``history`` kept a
/// resumable route replays what it missed (``subscribe(resumingAfter:)``).
///
/// ```swift
/// let updates = StreamBroadcast<ServerSentEvent>(history: 100)
/// router.get("updates") { request, context in
///     Response.stream(updates.subscribe(lastEventID: request.lastEventID), writer: ServerSentEventWriter())
/// }
/// updates.send(ServerSentEvent(event: "price", data: "42", id: "17"))
/// ```
///
/// `@unchecked Sendable` is sound: the mutable state (subscribers, kept values and their
/// count, the next id, the finished flag) is private and read or written only inside
/// `state.withLock`, which never calls code of the caller's; the rest is immutable.
public final class StreamBroadcast<Value: Sendable>: @unchecked Sendable {
    /// The most values one subscriber may have waiting, beyond those replayed to it, before it
    /// is ended.
    public let bufferLimit: Int
    /// How many of the latest values are kept for subscribers that resume; 0 keeps none.
    public let history: Int

    private let state = POSIXMutex()
    // Each reached only inside `state.withLock`.
    private var subscribers: [Int: AsyncStream<Value>.Continuation] = [:]
    /// The latest values, the last ``history`` of them kept; up to twice as many are held so
    /// that dropping the oldest costs O(1) a value.
    private var kept: [Value] = []
    /// How many values were sent before `kept.first`.
    private var dropped = 0
    private var nextID = 0
    private var finished = false

    /// A broadcast whose subscribers may fall `bufferLimit` values behind (1,000 by default),
    /// keeping the last `history` values for subscribers that resume (none by default).
    public init(bufferLimit: Int = 1000, history: Int = 0) {
        self.bufferLimit = Swift.max(1, bufferLimit)
        self.history = Swift.max(0, history)
    }

    /// The values sent from now on, until ``finish()``.
    public func subscribe() -> AsyncStream<Value> {
        subscribe(from: nil)
    }

    /// The kept values after the latest one `isLastSeen` picks, then the values sent from now
    /// on: what a client that reconnects missed, with no value twice and none lost between
    /// the two. When no kept value is the last seen (it is older than the ``history``), every
    /// kept value is replayed. `isLastSeen` runs before the broadcast is locked, so it may
    /// call the broadcast.
    public func subscribe(resumingAfter isLastSeen: (Value) -> Bool) -> AsyncStream<Value> {
        let (snapshot, first) = state.withLock { (Array(kept.suffix(history)), dropped + Swift.max(0, kept.count - history)) }
        let start = snapshot.lastIndex(where: isLastSeen).map { first + $0 + 1 } ?? first
        return subscribe(from: start)
    }

    /// Gives `value` to every subscriber, and keeps it for resuming ones when ``history`` is
    /// above 0. Values sent after ``finish()`` are dropped.
    public func send(_ value: Value) {
        let stalled: [AsyncStream<Value>.Continuation] = state.withLock {
            guard !finished else { return [] }
            if history > 0 {
                kept.append(value)
                if kept.count >= 2 * history {
                    dropped += kept.count - history
                    kept.removeFirst(kept.count - history)
                }
            }
            var stalled: [AsyncStream<Value>.Continuation] = []
            // Under the lock, so every subscriber sees the values in the order they were sent.
            for (id, continuation) in subscribers {
                if case .dropped = continuation.yield(value) {
                    subscribers[id] = nil
                    stalled.append(continuation)
                }
            }
            return stalled
        }
        // Outside the lock: finishing runs the stream's termination handler, which takes it.
        for continuation in stalled { continuation.finish() }
    }

    /// Ends every subscriber's stream after the values it has waiting, and every later one at once.
    public func finish() {
        let all: [AsyncStream<Value>.Continuation] = state.withLock {
            finished = true
            defer { subscribers = [:] }
            return Array(subscribers.values)
        }
        for continuation in all { continuation.finish() }
    }

    /// How many subscribers are open.
    public var subscriberCount: Int {
        state.withLock { subscribers.count }
    }

    /// A subscriber's stream, starting with the kept values from number `start` of all sent
    /// (nil: none), registered in the same locked step so that no value falls between.
    private func subscribe(from start: Int?) -> AsyncStream<Value> {
        var made: (AsyncStream<Value>, AsyncStream<Value>.Continuation)?
        state.withLock {
            guard !finished else { return }
            let oldest = dropped + Swift.max(0, kept.count - history)
            let replay = start.map { kept[(Swift.max($0, oldest) - dropped)...] } ?? []
            let (limit, overflow) = bufferLimit.addingReportingOverflow(replay.count)
            var continuation: AsyncStream<Value>.Continuation?
            let stream = AsyncStream<Value>(bufferingPolicy: .bufferingOldest(overflow ? .max : limit)) { continuation = $0 }
            guard let continuation else { return }
            for value in replay { continuation.yield(value) }
            let id = nextID
            nextID += 1
            subscribers[id] = continuation
            continuation.onTermination = { [weak self] _ in self?.remove(id) }
            made = (stream, continuation)
        }
        if let (stream, _) = made { return stream }
        // Finished: a stream that ends at once.
        return AsyncStream { $0.finish() }
    }

    private func remove(_ id: Int) {
        state.withLock { subscribers[id] = nil }
    }
}

extension StreamBroadcast where Value == ServerSentEvent {
    /// The events a client should get: after a reconnection that sent `Last-Event-ID`, the
    /// kept events after the one with that `id`, then every event sent from now on; for a new
    /// client (`lastEventID` nil), the events sent from now on.
    public func subscribe(lastEventID: String?) -> AsyncStream<ServerSentEvent> {
        guard let lastEventID else { return subscribe() }
        return subscribe(resumingAfter: { $0.id == lastEventID })
    }
}
