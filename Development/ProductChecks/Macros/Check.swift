// README row `HTTPSerializationMacros`: `@GeneratedJSONCoding` (with the `Macros` trait) and the
// Codable layer it re-exports.
import HTTPSerializationMacros

@GeneratedJSONCoding
struct GeneratedItem: Codable {
    var name: String
    var count: Int?
}

public func checkMacros(_ response: ResponseContext) throws {
    let body = try JSONBodyEncoder().encode(GeneratedItem(name: "a", count: 1))
    _ = try JSONBodyDecoder().decode(GeneratedItem.self, from: body)
    _ = try DecodableResponseSerializer<[GeneratedItem]>().responseObject(for: response)
    let _: any JSONTapeDecodable.Type = GeneratedItem.self
}
