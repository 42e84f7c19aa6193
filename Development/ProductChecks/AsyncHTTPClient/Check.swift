// README row `HTTPSerializationAsyncHTTPClient`: the async-http-client bridge (with the
// package trait AsyncHTTPClient). It brings the core.
import AsyncHTTPClient
import HTTPSerializationAsyncHTTPClient

public func checkAsyncHTTPClient(_ client: HTTPClient) async throws {
    let request = try HTTPRequestSerializer().httpRequest(method: "GET", urlString: "http://127.0.0.1/", parameters: ["a": 1])
    _ = try HTTPClientRequest(request)
    _ = try await client.execute(request, serializer: HTTPResponseSerializer())
}
