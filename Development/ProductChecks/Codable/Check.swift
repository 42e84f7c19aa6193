// README row `HTTPSerializationCodable`: the core, plus Codable models: JSONBodyEncoder,
// JSONBodyDecoder, DecodableResponseSerializer.
import HTTPSerializationCodable

struct CodableItem: Codable { var name: String }

public func checkCodable(_ response: ResponseContext) throws {
    _ = queryString(from: ["a": 1])
    let body = try JSONBodyEncoder().encode(CodableItem(name: "a"))
    _ = try JSONBodyDecoder().decode(CodableItem.self, from: body)
    _ = try DecodableResponseSerializer<CodableItem>().responseObject(for: response)
    _ = try FormDecoder().decode(CodableItem.self, from: "name=a")
    _ = try ParameterValue(encoding: CodableItem(name: "a"))
}
