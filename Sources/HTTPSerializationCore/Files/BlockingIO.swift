import Dispatch

/// Runs blocking file calls (`open`, `write`, `close`, `mkstemp`) on threads outside Swift's
/// cooperative pool, which has one thread per core: a write that waits for a slow or throttled
/// disk there stalls every task of the process, where here it stalls only its own.
///
/// Each call gets a serial queue of its own. libdispatch serves serial queues from its
/// overcommit pool, which adds a thread as soon as every one it has is busy, so calls blocked
/// at once do not wait for each other (a concurrent queue shares the width-limited pool, which
/// adds a thread only when its monitor notices the others blocked, about one a second). At
/// most ``limit`` calls run at once, so clients that keep uploads spilling cannot make threads
/// without bound; a call past it waits, suspended, for one to end. The calling task is
/// suspended until its call returns, so what the call touches is touched by one thread at a time.
package enum BlockingIO {
    /// The most calls running at once.
    package static let limit = 64

    /// Admits calls up to ``limit``; immutable once made, its state under its own lock.
    private static let gate = BlockingIOGate(limit: limit)

    /// `body`'s result, computed on a thread outside the cooperative pool.
    package static func run<Result: Sendable>(_ body: @escaping @Sendable () throws -> Result) async throws -> Result {
        await gate.enter()
        return try await withCheckedThrowingContinuation { continuation in
            DispatchQueue(label: "HTTPSerialization.blocking-io").async {
                let result = Swift.Result { try body() }
                gate.leave()
                continuation.resume(with: result)
            }
        }
    }
}

/// Lets at most `limit` callers in at once; the rest wait in order.
///
/// `@unchecked Sendable` is sound: `running` and `waiting` are read and written only inside
/// `lock.withLock`, and a waiter is resumed after the lock is released.
final class BlockingIOGate: @unchecked Sendable {
    private let limit: Int
    private let lock = POSIXMutex()
    private var running = 0
    private var waiting: [CheckedContinuation<Void, Never>] = []

    init(limit: Int) {
        self.limit = limit
    }

    /// Returns when the caller may run.
    func enter() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let admitted: Bool = lock.withLock {
                guard running < limit else {
                    waiting.append(continuation)
                    return false
                }
                running += 1
                return true
            }
            if admitted { continuation.resume() }
        }
    }

    /// Ends a caller's turn, handing it to the first waiting one.
    func leave() {
        let next: CheckedContinuation<Void, Never>? = lock.withLock {
            guard !waiting.isEmpty else {
                running -= 1
                return nil
            }
            return waiting.removeFirst()
        }
        next?.resume()
    }
}
