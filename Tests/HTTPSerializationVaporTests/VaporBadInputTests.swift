#if Vapor
import HTTPSerializationVapor
import ServerTestSupport
import Testing
import Vapor
import VaporTesting

@Suite("Vapor: broken requests over the wire are answered and the server keeps serving")
struct VaporBadInputTests {
    @Test("malformed JSON, 10,000 form pairs, 5,000 parts, a 1 MiB header block and a body that stops midway")
    func brokenRequests() async throws {
        try await withApp(configure: VaporCodersTests.configure) { app in
            try await VaporStreamTests.serving(app) { port in
                let good = BadRequest(name: "good", bytes: Array(
                    "POST /orders HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\nContent-Type: application/x-www-form-urlencoded\r\nContent-Length: 29\r\n\r\nid=1&item=x&tags[]=a&placed=0".utf8),
                    stopsMidway: false, status: 200)
                for bad in BadRequest.all(path: "/orders") {
                    let answer = try await bad.send(port: port)
                    #expect(bad.isAnswered(by: answer), "\(bad.name): \(answer.map(String.init) ?? "closed")")
                    #expect(try await good.send(port: port) == 200, "after \(bad.name)")
                }
            }
        }
    }
}
#endif
