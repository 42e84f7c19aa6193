#if Vapor
// This file imports the adapter and Vapor only, as an app does: every name below is Vapor's
// and must resolve unqualified, which the adapter's narrow re-exports allow.
import HTTPSerializationVapor
import Testing
import Vapor
import VaporTesting

@Suite("Vapor: an app importing the adapter names Vapor's own types unqualified")
struct VaporNamesTests {
    struct Echo: Content {
        var text: String
    }

    @Test("Request, Response, HTTPHeaders, HTTPMethod, HTTPStatus, Abort and Content are Vapor's; the adapter's types need no core import")
    func frameworkNamesResolve() async throws {
        try await withApp(configure: { app in
            app.httpSerializationCoders = HTTPSerializationCoders()
            app.on(HTTPMethod.POST, "echo") { (request: Request) async throws -> Response in
                let headers: HTTPHeaders = ["X-Echo": "1"]
                guard let text = request.body.string else { throw Abort(HTTPStatus.badRequest) }
                let failure: RequestBodyFailure? = nil
                _ = (JSONBodyDecoder(), FormEncoder(), MultipartParsingLimits(), failure)
                return Response(status: .ok, headers: headers, body: .init(string: text.uppercased()))
            }
        }) { app in
            try await app.testing().test(.POST, "echo", body: ByteBuffer(string: "quiet")) { response async throws in
                #expect(response.body.string == "QUIET")
                #expect(response.headers.first(name: "X-Echo") == "1")
            }
        }
    }
}
#endif
