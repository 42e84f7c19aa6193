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

/// A serializer with no default headers, so requests in tests are reproducible.
func plainSerializer() -> HTTPRequestSerializer {
    HTTPRequestSerializer(headers: HTTPHeaderFields())
}

func request(_ method: String = "GET", _ url: String) -> URLRequest {
    var request = URLRequest(url: URL(string: url)!)
    request.httpMethod = method
    return request
}

func bodyText(_ request: URLRequest) -> String? {
    request.httpBody.map { String(decoding: $0, as: UTF8.self) }
}

/// An error with an identity, to prove an error is propagated unchanged.
struct MarkerError: Error, Equatable {
    let id: UUID
}
