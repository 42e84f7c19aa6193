import Dispatch

/// Runs blocking file calls (`open`, `write`, `close`, `mkstemp`) on threads outside Swift's
/// cooperative pool, which has one thread per core: a write that waits for a slow or throttled
/// disk there stalls every task of the process, where here it stalls only its own.
///
/// Each call gets a serial queue of its own. libdispatch gives serial queues threads from its
/// overcommit pool, which adds a thread whenever every one it has is busy, so calls blocked at
/// once never wait for each other (a concurrent queue would share the cooperative width, and
/// libdispatch adds threads to that only when its monitor notices them blocked, a second or
/// more later). The calling task is suspended until its call returns, so what the call touches
/// is touched by one thread at a time.
package enum BlockingIO {
    /// `body`'s result, computed on a thread outside the cooperative pool.
    package static func run<Result: Sendable>(_ body: @escaping @Sendable () throws -> Result) async throws -> Result {
        try await withCheckedThrowingContinuation { continuation in
            DispatchQueue(label: "HTTPSerialization.blocking-io").async { continuation.resume(with: Swift.Result { try body() }) }
        }
    }
}
