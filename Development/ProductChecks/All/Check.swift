// README row `HTTPSerialization`: all of the above in one import.
import Foundation
import HTTPSerialization

struct AllItem: Codable { var name: String }

public func checkAll(_ response: ResponseContext, any: [String: Any]) throws {
    _ = queryString(from: ["a": 1])
    _ = try JSONBodyEncoder().encode(AllItem(name: "a"))
    _ = try HTTPRequestSerializer().request(method: "GET", urlString: "http://127.0.0.1/", parameters: any)
    _ = try XMLParserResponseSerializer().responseObject(for: response)
    _ = try ImageResponseSerializer().responseObject(for: response)
    _ = try response.decodingContentEncoding()
}
