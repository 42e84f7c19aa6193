#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The result of an async operation, waited for on the calling thread.
enum BlockingResult<Value: Sendable> {
    /// Runs `operation` in a task and blocks this thread until it has finished.
    static func waiting(_ operation: @escaping @Sendable () async throws -> Value) -> Result<Value, any Error> {
        let slot = Slot()
        Task {
            do {
                slot.fill(.success(try await operation()))
            } catch {
                slot.fill(.failure(error))
            }
        }
        return slot.wait()
    }

    /// One result, filled by a task and taken by the waiting thread.
    ///
    /// `@unchecked Sendable`: `result` is read and written only with `mutex` held, and the
    /// condition is signalled under it.
    private final class Slot: @unchecked Sendable {
        private let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
        private let condition = UnsafeMutablePointer<pthread_cond_t>.allocate(capacity: 1)
        private var result: Result<Value, any Error>?

        init() {
            mutex.initialize(to: pthread_mutex_t())
            condition.initialize(to: pthread_cond_t())
            pthread_mutex_init(mutex, nil)
            pthread_cond_init(condition, nil)
        }

        deinit {
            pthread_cond_destroy(condition)
            pthread_mutex_destroy(mutex)
            condition.deallocate()
            mutex.deallocate()
        }

        func fill(_ value: Result<Value, any Error>) {
            pthread_mutex_lock(mutex)
            result = value
            pthread_cond_signal(condition)
            pthread_mutex_unlock(mutex)
        }

        func wait() -> Result<Value, any Error> {
            pthread_mutex_lock(mutex)
            defer { pthread_mutex_unlock(mutex) }
            while true {
                if let result { return result }
                pthread_cond_wait(condition, mutex)
            }
        }
    }
}
