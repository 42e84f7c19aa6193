#if Hummingbird
// This file imports the adapter and Hummingbird only, as an app does: every name below is
// Hummingbird's and must resolve unqualified, which the adapter's narrow re-exports allow.
import HTTPSerializationHummingbird
import Hummingbird
import HummingbirdTesting
import Testing

@Suite("Hummingbird: an app importing the adapter names Hummingbird's own types unqualified")
struct HummingbirdNamesTests {
    struct Echo: ResponseCodable {
        var text: String
    }

    @Test("RequestBody, Request, Response, ResponseBody, and HTTPError are Hummingbird's; the adapter's types need no core import")
    func frameworkNamesResolve() async throws {
        let router = Router(context: HTTPSerializationBasicRequestContext.self)
        router.post("/echo") { (request: Request, context) -> Response in
            let body: RequestBody = request.body
            let text = String(buffer: try await body.collect(upTo: 1024))
            guard request.uri.path == "/echo" else { throw HTTPError(.notFound) }
            return Response(status: .ok, body: ResponseBody(byteBuffer: ByteBuffer(string: text.uppercased())))
        }
        router.post("/decode") { request, context -> Echo in
            let failure: RequestBodyFailure? = nil
            _ = (JSONBodyDecoder(), FormDecoder(), MultipartFormDecoder(), MultipartParsingLimits(), failure)
            return try await request.decode(as: Echo.self, context: context)
        }
        try await Application(router: router).test(.router) { client in
            try await client.execute(uri: "/echo", method: .post, body: ByteBuffer(string: "quiet")) { response in
                #expect(String(buffer: response.body) == "QUIET")
            }
            try await client.execute(uri: "/decode", method: .post, body: ByteBuffer(string: #"{"text":"hi"}"#)) { response in
                #expect(String(buffer: response.body) == #"{"text":"hi"}"#)
            }
        }
    }
}
#endif
