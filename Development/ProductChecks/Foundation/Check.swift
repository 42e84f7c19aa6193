// README row `HTTPSerializationFoundation`: the core and Codable, plus URLRequest/URLResponse,
// URLSession helpers, [String: Any], InputStream parts, NSError.
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import HTTPSerializationFoundation

struct FoundationItem: Codable { var name: String }

public func checkFoundation(_ response: ResponseContext, any: [String: Any], stream: sending InputStream) async throws {
    // The core and the Codable layer come with it.
    _ = queryString(from: ["a": 1])
    _ = try JSONBodyEncoder().encode(FoundationItem(name: "a"))
    _ = try DecodableResponseSerializer<FoundationItem>().responseObject(for: response)
    // Its own.
    let request = try HTTPRequestSerializer().request(method: "GET", urlString: "http://127.0.0.1/", parameters: any)
    _ = try await URLSession.shared.response(for: request, serializer: JSONResponseSerializer())
    var form = MultipartFormData()
    try form.appendPart(inputStream: stream, name: "file", fileName: "a.bin", length: 1, mimeType: "application/octet-stream")
    _ = RequestSerializationError.invalidURL("x").nsError
}
