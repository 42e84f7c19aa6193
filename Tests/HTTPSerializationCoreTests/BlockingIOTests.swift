import Dispatch
import HTTPSerializationCore
import Testing

/// Blocking file calls run outside Swift's cooperative pool: however many wait at once, tasks
/// on the pool keep running.
@Suite("BlockingIO: blocking calls leave the cooperative pool free")
struct BlockingIOTests {
    @Test("64 calls blocked at once, far more than the pool has threads, while this task on the pool sees them all and releases them",
          .timeLimit(.minutes(1)))
    func blockedCallsLeaveThePoolFree() async throws {
        let gate = DispatchSemaphore(value: 0)
        let started = DispatchSemaphore(value: 0)
        let blocked = BlockingIO.limit
        try await withThrowingTaskGroup(of: Int.self) { group in
            for index in 0..<blocked {
                group.addTask {
                    try await BlockingIO.run {
                        started.signal()
                        gate.wait()
                        return index
                    }
                }
            }
            // Polled without blocking. Were the calls on the pool's threads, at most as many as it
            // has could start and this task could not run; on a width-limited queue of
            // libdispatch's, a thread would be added about once a second, 64 taking past the
            // time limit.
            var running = 0
            while running < blocked {
                if started.wait(timeout: .now()) == .success { running += 1 } else { try await Task.sleep(nanoseconds: 1_000_000) }
            }
            for _ in 0..<blocked { gate.signal() }
            var finished: Set<Int> = []
            for try await index in group { finished.insert(index) }
            #expect(finished == Set(0..<blocked))
        }
    }

    @Test("a call's error reaches the caller")
    func errorsReachTheCaller() async {
        struct Refused: Error {}
        await #expect(throws: Refused.self) { try await BlockingIO.run { throw Refused() } }
    }
}

extension BlockingIOTests {
    @Test("a call past the limit waits, suspended, until one running ends", .timeLimit(.minutes(1)))
    func callsPastTheLimitWait() async throws {
        let gate = DispatchSemaphore(value: 0)
        let started = DispatchSemaphore(value: 0)
        let calls = BlockingIO.limit + 1
        try await withThrowingTaskGroup(of: Void.self) { group in
            for _ in 0..<calls {
                group.addTask {
                    try await BlockingIO.run {
                        started.signal()
                        gate.wait()
                    }
                }
            }
            var running = 0
            while running < BlockingIO.limit {
                if started.wait(timeout: .now()) == .success { running += 1 } else { try await Task.sleep(nanoseconds: 1_000_000) }
            }
            // Given time to start, the last call has not: it waits for a turn.
            try await Task.sleep(nanoseconds: 50_000_000)
            #expect(started.wait(timeout: .now()) == .timedOut)
            gate.signal()
            while started.wait(timeout: .now()) != .success { try await Task.sleep(nanoseconds: 1_000_000) }
            for _ in 0..<BlockingIO.limit { gate.signal() }
            try await group.waitForAll()
        }
    }
}
