// README row `HTTPSerializationXML`: XML and property-list readers and response serializers.
import HTTPSerializationXML

public func checkXML(_ response: ResponseContext) throws {
    _ = queryString(from: ["a": 1])
    _ = try XMLParserResponseSerializer().responseObject(for: response)
    _ = try XMLDocumentResponseSerializer().responseObject(for: response)
    _ = try PropertyListResponseSerializer().responseObject(for: response)
}
