import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing
@testable import HTTPSerialization
@testable import HTTPSerializationCodable
@testable import HTTPSerializationCore
@testable import HTTPSerializationFoundation
@testable import HTTPSerializationImages
@testable import HTTPSerializationXML

/// af-test-cases.md §1: `AFHTTPRequestSerializationTests.m`, in Swift form.
@Suite("AFNetworking parity: HTTP request serialization")
struct AFHTTPRequestSerializationTests {
    let serializer = HTTPRequestSerializer()

    @Test("#1 POST puts parameters in a form body with the form content type")
    func serializesPOSTRequestsProperly() throws {
        let result = try serializer.serialize(request("POST", "http://example.com"), parameters: ["key": "value"])
        #expect(result.value(forHTTPHeaderField: "Content-Type") == "application/x-www-form-urlencoded")
        #expect(result.httpBody == Data("key=value".utf8))
    }

    @Test("#2 POST without parameters still sends an empty form body")
    func serializesPOSTWithoutParameters() throws {
        let result = try serializer.serialize(request("POST", "http://example.com"), parameters: nil)
        #expect(result.value(forHTTPHeaderField: "Content-Type") == "application/x-www-form-urlencoded")
        #expect(result.httpBody == Data())
    }

    @Test("#3 GET puts parameters in the query")
    func serializesQueryParameters() throws {
        let result = try serializer.serialize(request("GET", "http://example.com"), parameters: ["key": "value"])
        #expect(result.url?.query == "key=value")
    }

    @Test("#4 an empty dictionary adds no question mark")
    func emptyDictionaryAddsNoQuestionMark() throws {
        let result = try serializer.serialize(request("GET", "http://example.com"), parameters: [:])
        #expect(result.url?.absoluteString == "http://example.com")
    }

    @Test("#5 reserved characters are escaped except / and ?")
    func escapesURLEncodableQueryParameters() throws {
        let result = try serializer.serialize(request("GET", "http://example.com"), parameters: ["key": " :#[]@!$&'()*+,;=/?"])
        #expect(result.url?.query == "key=%20%3A%23%5B%5D%40%21%24%26%27%28%29%2A%2B%2C%3B%3D/?")
    }

    @Test("#6 already-escaped text is escaped again, never decoded")
    func escapesPercentEncodedQueryParameters() throws {
        let result = try serializer.serialize(
            request("GET", "http://example.com"), parameters: ["key": "%20%21%22%23%24%25%26%27%28%29%2A%2B%2C%2F"])
        #expect(result.url?.query == "key=%2520%2521%2522%2523%2524%2525%2526%2527%2528%2529%252A%252B%252C%252F")
    }

    @Test("#7 a custom query closure's output is used verbatim")
    func usesQuerySerializationClosure() throws {
        var serializer = serializer
        serializer.queryStringSerialization = { _, parameters in
            guard case .dictionary(let entries) = parameters else { return "" }
            return entries.map { key, value in
                guard case .string(let text) = value else { return key }
                return "\(key)**\(text)"
            }.joined(separator: "&")
        }
        let result = try serializer.serialize(request("GET", "http://example.com"), parameters: ["key": "value"])
        #expect(result.url?.query == "key**value")
    }

    @Test("#9 a set header value can be read back")
    func valueForHeaderReturnsSetValue() throws {
        var serializer = serializer
        try serializer.setValue("Actual Value", forHTTPHeaderField: "Set-Header")
        #expect(serializer.value(forHTTPHeaderField: "Set-Header") == "Actual Value")
    }

    @Test("#10 an unset header reads as nil")
    func valueForUnsetHeaderIsNil() {
        #expect(serializer.value(forHTTPHeaderField: "Unset-Header") == nil)
    }

    @Test("#11 an error from the query closure propagates unchanged, even for empty parameters")
    func queryClosureErrorPropagatesUnchanged() {
        let marker = MarkerError(id: UUID())
        var serializer = HTTPRequestSerializer()
        serializer.queryStringSerialization = { _, _ in throw marker }
        #expect(throws: marker) {
            try serializer.request(method: "GET", urlString: "url", parameters: [:])
        }
    }

    @Test("#12 setting a header to nil removes it")
    func headerValueCanBeRemoved() throws {
        var serializer = HTTPRequestSerializer()
        try serializer.setValue("test", forHTTPHeaderField: "TestHeader")
        #expect(serializer.headers.dictionary["TestHeader"] == "test")
        try serializer.setValue(nil, forHTTPHeaderField: "TestHeader")
        #expect(serializer.headers.dictionary["TestHeader"] == nil)
    }

    @Test("#13 1,000 concurrent header mutations on copies neither race nor leak between copies")
    func concurrentHeaderMutationsOnCopies() async throws {
        let original = HTTPRequestSerializer()
        let results = try await withThrowingTaskGroup(of: (Int, String?).self) { group in
            for i in 0..<1000 {
                group.addTask {
                    var copy = original
                    let value = Date(timeIntervalSince1970: TimeInterval(i)).description
                    try copy.setValue(value, forHTTPHeaderField: "FrequentlyUpdatedHeaderField")
                    return (i, copy.value(forHTTPHeaderField: "FrequentlyUpdatedHeaderField"))
                }
            }
            return try await group.reduce(into: [:]) { $0[$1.0] = $1.1 }
        }
        #expect(results.count == 1000)
        for (i, value) in results {
            #expect(value == Date(timeIntervalSince1970: TimeInterval(i)).description)
        }
        #expect(original.value(forHTTPHeaderField: "FrequentlyUpdatedHeaderField") == nil)
    }

    @Test("#14 query string keys are sorted and values escaped")
    func queryStringFromParameters() {
        #expect(queryString(from: ["key": "value", "key1": "value&"]) == "key=value&key1=value%26")
    }

    @Test("#15 percent-escaping keeps only AF's set literal")
    func percentEscapingString() {
        #expect(percentEscaped(":#[]@!$&'()*+,;=?/") == "%3A%23%5B%5D%40%21%24%26%27%28%29%2A%2B%2C%3B%3D?/")
    }

    @Test("#16 emoji are escaped byte by byte without being split")
    func emojiIsProperlyEncoded() throws {
        var parameter = "!"
        while parameter.utf16.count < 50 { parameter += "👴🏿👷🏻👮🏽" }
        #expect(parameter.utf16.count == 61)
        let result = try serializer.request(method: "GET", urlString: "http://test.com", parameters: ["test": .string(parameter)])
        let group = "%F0%9F%91%B4%F0%9F%8F%BF%F0%9F%91%B7%F0%9F%8F%BB%F0%9F%91%AE%F0%9F%8F%BD"
        #expect(result.url?.query == "test=%21" + String(repeating: group, count: 5))
    }

    // Behaviour the AF tests imply without asserting.

    @Test("implied: nested dictionaries, arrays, sets, null and booleans")
    func impliedShapes() {
        #expect(queryString(from: ["a": ["b": 1]]) == "a%5Bb%5D=1")
        #expect(queryString(from: ["a": [1, 2]]) == "a%5B%5D=1&a%5B%5D=2")
        #expect(queryString(from: ["a": .set(["b", "a"])]) == "a=a&a=b")
        #expect(queryString(from: ["a": nil]) == "a")
        #expect(queryString(from: ["t": true, "f": false]) == "f=0&t=1")
    }

    @Test("implied: an existing query is joined with &")
    func existingQueryIsJoined() throws {
        let result = try serializer.serialize(request("GET", "http://x?q=1"), parameters: ["k": "v"])
        #expect(result.url?.absoluteString == "http://x?q=1&k=v")
    }

    @Test("implied: basic auth encodes user:password")
    func basicAuthorization() throws {
        var serializer = serializer
        try serializer.setAuthorizationHeader(username: "user", password: "password")
        #expect(serializer.value(forHTTPHeaderField: "Authorization") == "Basic dXNlcjpwYXNzd29yZA==")
        serializer.clearAuthorizationHeader()
        #expect(serializer.value(forHTTPHeaderField: "Authorization") == nil)
    }

    @Test("implied: default Accept-Language and User-Agent are set on every request")
    func defaultHeadersAreApplied() throws {
        let result = try serializer.request(method: "GET", urlString: "http://example.com")
        #expect(result.value(forHTTPHeaderField: "User-Agent") == DefaultHeaders.userAgent())
        #expect(result.value(forHTTPHeaderField: "Accept-Language") == DefaultHeaders.acceptLanguage())
    }

    @Test("implied: a header set on the request wins over the serializer's default")
    func requestHeaderWinsOverDefault() throws {
        var serializer = plainSerializer()
        try serializer.setValue("foo value", forHTTPHeaderField: "X-Foo")
        try serializer.setValue("bar value", forHTTPHeaderField: "X-Bar")
        var original = request("GET", "http://example.com")
        original.setValue("request value", forHTTPHeaderField: "X-Foo")
        let result = try serializer.serialize(original, parameters: nil)
        #expect(result.value(forHTTPHeaderField: "X-Foo") == "request value")
        #expect(result.value(forHTTPHeaderField: "X-Bar") == "bar value")
    }

    @Test("implied: DELETE carries parameters in the query, PUT and PATCH in the body")
    func methodsEncodingParametersInURI() throws {
        let delete = try serializer.request(method: "DELETE", urlString: "http://x/r", parameters: ["key": "value"])
        #expect(delete.url?.query == "key=value")
        #expect(delete.httpBody == nil)
        for method in ["PUT", "PATCH"] {
            let result = try serializer.request(method: method, urlString: "http://x/r", parameters: ["key": "value"])
            #expect(result.url?.query == nil)
            #expect(bodyText(result) == "key=value")
        }
    }

    @Test("implied: a string parameter posts as =value (nil key, empty name)")
    func topLevelStringParameter() throws {
        let result = try serializer.request(method: "POST", urlString: "http://x/post", parameters: "AF Networking")
        #expect(bodyText(result) == "=AF%20Networking")
    }
}
