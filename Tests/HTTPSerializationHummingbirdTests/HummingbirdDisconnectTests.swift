#if Hummingbird
import Foundation
import HTTPSerializationCore
import HTTPSerializationHummingbird
import Hummingbird
import HummingbirdTesting
import ServerTestSupport
import Testing

@Suite("Hummingbird: a streamed response goes at its client's pace and stops when the client goes away")
struct HummingbirdDisconnectTests {
    @Test("a client that stops reading stops the route's reading of its source, and reading again resumes it")
    func backPressure() async throws {
        let taken = EndlessEvents.Counter(), retaken = EndlessEvents.Counter()
        let router = Router(context: HTTPSerializationBasicRequestContext.self)
        router.get("/fast") { _, _ in Response.stream(EndlessBlocks(taken: taken), writer: BlockWriter()) }
        router.get("/again") { _, _ in Response.stream(EndlessBlocks(taken: retaken), writer: BlockWriter()) }
        try await Application(router: router).test(.live) { client in
            let port = try #require(client.port)
            // Unread, the body fills the socket buffers and Hummingbird's writer, then the
            // source waits: the count settles (an unpaced source makes thousands of blocks a
            // second). Where it settles varies, 3 to 40 MiB here: NIO's async writer hears
            // that the socket is full from the event loop, so on a busy machine more blocks
            // are queued first. The bound only catches a writer that never waits.
            let pacing = try await LoopbackClient.pacing(port: port, path: "/fast", taken: taken, retry: "/again", retaken: retaken)
            #expect(pacing.failure == nil)
        }
    }

    @Test("a client that hangs up mid-stream ends the route's reading of an endless source")
    func clientGoesAway() async throws {
        let taken = EndlessEvents.Counter()
        let router = Router(context: HTTPSerializationBasicRequestContext.self)
        router.get("/forever") { _, _ in Response.stream(EndlessEvents(taken: taken), writer: ServerSentEventWriter()) }
        try await Application(router: router).test(.live) { client in
            let port = try #require(client.port)
            let received = try await LoopbackClient.readThenHangUp(port: port, path: "/forever", bytes: 50_000)
            #expect(received >= 50_000)
            // Once the hang-up is seen the source is read no more: the count holds still (at
            // 1 ms a value it would otherwise grow by hundreds in the half second).
            let settled = try await taken.settled()
            #expect(settled != nil, "the source was still being read after the client left (\(taken.value) values)")
        }
    }
}
#endif
