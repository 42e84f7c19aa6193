import Foundation

/// The peer: AFNetworking's query serialization written the way AF wrote it, on Foundation:
/// recursive pair collection, keys sorted by description, `addingPercentEncoding` with AF's set.
enum ReferenceQueryEncoder {
    static let allowed: CharacterSet = {
        var set = CharacterSet.urlQueryAllowed
        set.remove(charactersIn: ":#[]@!$&'()*+,;=")
        return set
    }()

    static func escape(_ string: String) -> String {
        string.addingPercentEncoding(withAllowedCharacters: allowed) ?? ""
    }

    static func queryString(_ parameters: [String: Any]) -> String {
        pairs(key: nil, value: parameters)
            .map { escape($0.0) + "=" + escape("\($0.1)") }
            .joined(separator: "&")
    }

    private static func pairs(key: String?, value: Any) -> [(String, Any)] {
        var result: [(String, Any)] = []
        if let dictionary = value as? [String: Any] {
            for nestedKey in dictionary.keys.sorted() {
                let field = key.map { "\($0)[\(nestedKey)]" } ?? nestedKey
                result += pairs(key: field, value: dictionary[nestedKey]!)
            }
        } else if let array = value as? [Any] {
            for element in array { result += pairs(key: "\(key ?? "")[]", value: element) }
        } else {
            result.append((key ?? "", value))
        }
        return result
    }
}
