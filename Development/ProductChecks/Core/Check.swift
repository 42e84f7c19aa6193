// README row `HTTPSerializationCore`: parameters, query strings, JSON reader and writer,
// multipart, headers, validation, serializers over swift-http-types HTTPRequest/HTTPResponse.
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import HTTPSerializationCore

public func checkCore(_ response: ResponseContext, body: Data) throws {
    let parameters: ParameterValue = ["a": ["b": 1]]
    _ = queryString(from: parameters)
    _ = try ParameterValue(json: body)
    _ = try JSONReader.validate(body)
    _ = try HTTPRequestSerializer(headers: HTTPHeaderFields()).httpRequest(method: "GET", urlString: "http://127.0.0.1/", parameters: parameters)
    _ = try JSONRequestSerializer().httpRequest(method: "POST", urlString: "http://127.0.0.1/", parameters: parameters)
    var form = MultipartFormData()
    try form.appendPart(formData: "a", name: "a")
    try HTTPResponseSerializer().validate(response)
    _ = try FormPairs.parse("a=1")
}
