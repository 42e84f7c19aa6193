import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
@testable import HTTPSerialization
@testable import HTTPSerializationCodable
@testable import HTTPSerializationCore
@testable import HTTPSerializationFoundation
@testable import HTTPSerializationImages
@testable import HTTPSerializationXML

let baseURL = URL(string: "http://127.0.0.1:9")!

/// af-test-cases' `resp(code, CT)`: an HTTP/1.1 response with one Content-Type header, or none.
func resp(_ code: Int, _ contentType: String? = nil, url: URL? = baseURL, headers: [String: String] = [:]) -> HTTPURLResponse {
    var fields = headers
    if let contentType { fields["Content-Type"] = contentType }
    return HTTPURLResponse(url: url ?? baseURL, statusCode: code, httpVersion: "HTTP/1.1", headerFields: fields)!
}

let jsonFoo = Data(#"{"foo":"bar"}"#.utf8)
let xmlFoo = Data(#"<?xml version="1.0" encoding="UTF-8"?><foo attr1="1" attr2="2"><bar>someValue</bar></foo>"#.utf8)

func roundTrip<T: Codable>(_ value: T) throws -> T {
    try JSONDecoder().decode(T.self, from: JSONEncoder().encode(value))
}
