#if Hummingbird
import HTTPSerializationCore
import HTTPSerializationHummingbird
import Hummingbird
import HummingbirdTesting
import ServerTestSupport
import Testing

@Suite("Hummingbird: broken requests over the wire are answered and the server keeps serving")
struct HummingbirdBadInputTests {
    @Test("malformed JSON, 10,000 form pairs, 5,000 parts, a 1 MiB header block and a body that stops midway")
    func brokenRequests() async throws {
        let router = Router(context: HTTPSerializationBasicRequestContext.self)
        router.post("/orders") { request, context -> HummingbirdCodersTests.Order in
            try await request.decode(as: HummingbirdCodersTests.Order.self, context: context)
        }
        try await Application(router: router).test(.live) { client in
            let port = try #require(client.port)
            for bad in BadRequest.all(path: "/orders") {
                let answer = try await bad.send(port: port)
                #expect(bad.isAnswered(by: answer), "\(bad.name): \(answer.map(String.init) ?? "closed")")
                try await client.execute(uri: "/orders", method: .post, headers: [.contentType: "application/json"],
                                         body: ByteBuffer(string: #"{"id":1,"item":"x","tags":[]}"#)) { response in
                    #expect(response.status == .ok, "after \(bad.name)")
                }
            }
        }
    }
}
#endif
