import HTTPSerializationCore
import Testing

/// A broadcast gives each subscriber every value from the moment it subscribed, in the order
/// sent, ends the ones that fall too far behind, and replays kept values to resuming ones.
@Suite("StreamBroadcast: every subscriber, every value from its start")
struct StreamBroadcastTests {
    static func collect(_ stream: AsyncStream<Int>) async -> [Int] {
        var values: [Int] = []
        for await value in stream { values.append(value) }
        return values
    }

    @Test("two subscribers each receive every value sent after they subscribed, in order; a later one none of the earlier")
    func everySubscriberGetsEveryValue() async {
        let broadcast = StreamBroadcast<Int>()
        let first = broadcast.subscribe()
        broadcast.send(1)
        let second = broadcast.subscribe()
        for value in 2...500 { broadcast.send(value) }
        broadcast.finish()
        let (a, b) = (await Self.collect(first), await Self.collect(second))
        #expect(a == Array(1...500))
        #expect(b == Array(2...500))
    }

    @Test("values sent from many tasks reach every subscriber in one order")
    func concurrentSendsKeepOneOrder() async {
        let broadcast = StreamBroadcast<Int>(bufferLimit: 10_000)
        let streams = (0..<3).map { _ in broadcast.subscribe() }
        await withTaskGroup(of: Void.self) { group in
            for task in 0..<4 {
                group.addTask { for value in 0..<500 { broadcast.send(task * 1000 + value) } }
            }
        }
        broadcast.finish()
        var received: [[Int]] = []
        for stream in streams { received.append(await Self.collect(stream)) }
        #expect(received[0].count == 2000)
        #expect(received[0] == received[1] && received[1] == received[2])
        for task in 0..<4 {
            let own = received[0].filter { $0 / 1000 == task }
            #expect(own == Array(task * 1000..<task * 1000 + 500), "a task's values keep its order")
        }
    }

    @Test("a subscriber more than bufferLimit values behind is ended after what it holds; the others go on")
    func stalledSubscriberIsEnded() async {
        let broadcast = StreamBroadcast<Int>(bufferLimit: 3)
        let stalled = broadcast.subscribe()
        let reader = broadcast.subscribe()
        var iterator = reader.makeAsyncIterator()
        var read: [Int] = []
        for value in 1...6 {
            broadcast.send(value)
            read.append(await iterator.next() ?? -1)
        }
        #expect(read == Array(1...6))
        #expect(broadcast.subscriberCount == 1, "the stalled subscriber is gone")
        broadcast.finish()
        #expect(await Self.collect(stalled) == [1, 2, 3])
    }

    @Test("resuming replays the kept values after the last one seen, then the live ones; an unknown one replays all kept")
    func resumingReplaysHistory() async {
        let broadcast = StreamBroadcast<Int>(history: 5)
        for value in 1...8 { broadcast.send(value) }
        let resumed = broadcast.subscribe(resumingAfter: { $0 == 6 })
        let tooOld = broadcast.subscribe(resumingAfter: { $0 == 1 })
        let fresh = broadcast.subscribe()
        broadcast.send(9)
        broadcast.finish()
        #expect(await Self.collect(resumed) == [7, 8, 9])
        #expect(await Self.collect(tooOld) == [4, 5, 6, 7, 8, 9])
        #expect(await Self.collect(fresh) == [9])
    }

    @Test("Last-Event-ID picks the event to resume after; none means only what comes next")
    func lastEventID() async {
        let broadcast = StreamBroadcast<ServerSentEvent>(history: 10)
        for id in 1...4 { broadcast.send(ServerSentEvent(data: "\(id)", id: String(id))) }
        let resumed = broadcast.subscribe(lastEventID: "2")
        let first = broadcast.subscribe(lastEventID: nil)
        broadcast.send(ServerSentEvent(data: "5", id: "5"))
        broadcast.finish()
        var ids: [[String?]] = []
        for stream in [resumed, first] {
            var seen: [String?] = []
            for await event in stream { seen.append(event.id) }
            ids.append(seen)
        }
        #expect(ids == [["3", "4", "5"], ["5"]])
    }

    @Test("a subscriber whose task is cancelled is removed; after finish a new subscriber ends at once and sends are dropped")
    func cancellationAndFinish() async {
        let broadcast = StreamBroadcast<Int>()
        let stream = broadcast.subscribe()
        let task = Task { await Self.collect(stream) }
        broadcast.send(1)
        task.cancel()
        _ = await task.value
        for _ in 0..<500 where broadcast.subscriberCount > 0 { try? await Task.sleep(nanoseconds: 1_000_000) }
        #expect(broadcast.subscriberCount == 0)
        broadcast.finish()
        broadcast.send(2)
        #expect(await Self.collect(broadcast.subscribe()) == [])
    }
}
