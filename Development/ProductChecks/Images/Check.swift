// README row `HTTPSerializationImages`: the image response serializer.
import HTTPSerializationImages

public func checkImages(_ response: ResponseContext) throws {
    _ = queryString(from: ["a": 1])
    _ = try ImageResponseSerializer().responseObject(for: response)
}
