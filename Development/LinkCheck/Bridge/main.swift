// Serializes a request on the core and hands it to async-http-client; nothing is sent.
// `Scripts/link-check.sh --bridge` checks what this links.
import AsyncHTTPClient
import HTTPSerializationAsyncHTTPClient
import HTTPSerializationCore

let serialized = try HTTPRequestSerializer(headers: HTTPHeaderFields())
    .httpRequest(method: "GET", urlString: "http://127.0.0.1/x", parameters: ["a": ["b": 1]])
print(try HTTPClientRequest(serialized).url)
