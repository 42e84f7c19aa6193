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

@Suite("Configuration: copies and Codable round trips")
struct ConfigurationTests {
    static func customized() throws -> HTTPRequestSerializer {
        var serializer = HTTPRequestSerializer()
        serializer.stringEncoding = .isoLatin1
        try serializer.setValue("a", forHTTPHeaderField: "Z-First")
        try serializer.setAuthorizationHeader(username: "user", password: "password")
        serializer.methodsEncodingParametersInURI = ["GET", "QUERY"]
        serializer.queryStringStyle = QueryStringStyle(
            arrayEncoding: .indexed, keyEncoding: .dotted, boolEncoding: .literal, spaceEncoding: .plus,
            nullEncoding: .dropKey, dateEncoding: .iso8601)
        serializer.maximumParameterDepth = 33
        serializer.timeoutInterval = 12
        serializer.cachePolicy = .returnCacheDataDontLoad
        serializer.allowsCellularAccess = false
        serializer.httpShouldHandleCookies = false
        serializer.httpShouldUsePipelining = true
        serializer.networkServiceType = .video
        return serializer
    }

    static func expectSameFields(_ a: HTTPRequestSerializer, _ b: HTTPRequestSerializer) {
        #expect(a.stringEncoding == b.stringEncoding)
        #expect(a.headers == b.headers)
        #expect(Array(a.headers.map(\.name)) == Array(b.headers.map(\.name)))
        #expect(a.methodsEncodingParametersInURI == b.methodsEncodingParametersInURI)
        #expect(a.maximumParameterDepth == b.maximumParameterDepth)
        #expect(a.timeoutInterval == b.timeoutInterval)
        #expect(a.cachePolicy == b.cachePolicy)
        #expect(a.allowsCellularAccess == b.allowsCellularAccess)
        #expect(a.httpShouldHandleCookies == b.httpShouldHandleCookies)
        #expect(a.httpShouldUsePipelining == b.httpShouldUsePipelining)
        #expect(a.networkServiceType == b.networkServiceType)
        let sample: ParameterValue = ["a b": [["t": true, "n": nil, "d": .date(Date(timeIntervalSince1970: 0))]]]
        #expect(queryString(from: sample, style: a.queryStringStyle) == queryString(from: sample, style: b.queryStringStyle))
    }

    @Test("a copy keeps every field and changing it leaves the original alone")
    func copies() throws {
        let original = try Self.customized()
        var copy = original
        Self.expectSameFields(original, copy)
        try copy.setValue("changed", forHTTPHeaderField: "Z-First")
        copy.timeoutInterval = 1
        #expect(original.value(forHTTPHeaderField: "Z-First") == "a")
        #expect(original.timeoutInterval == 12)
    }

    @Test("an archive written when the core stored URLRequest's settings reads the same; JSON and plist keys stay")
    func earlierArchiveReads() throws {
        let archive = Data(#"{"headers":[],"timeoutInterval":7.5,"cachePolicy":1,"allowsCellularAccess":false,"httpShouldHandleCookies":true,"httpShouldUsePipelining":false,"networkServiceType":2}"#.utf8)
        let serializer = try JSONDecoder().decode(HTTPRequestSerializer.self, from: archive)
        #expect(serializer.timeoutInterval == 7.5)
        #expect(serializer.cachePolicy == .reloadIgnoringLocalCacheData)
        #expect(serializer.allowsCellularAccess == false)
        #expect(serializer.httpShouldHandleCookies == true)
        #expect(serializer.httpShouldUsePipelining == false)
        #expect(serializer.networkServiceType == URLRequest.NetworkServiceType(rawValue: 2))
        let written = try JSONSerialization.jsonObject(with: JSONEncoder().encode(serializer)) as? [String: Any]
        #expect(written?["timeoutInterval"] as? Double == 7.5)
        #expect(written?["cachePolicy"] as? Int == 1)
        let plist = try PropertyListDecoder().decode(HTTPRequestSerializer.self, from: PropertyListEncoder().encode(serializer))
        Self.expectSameFields(serializer, plist)
        let whole = try JSONDecoder().decode(HTTPRequestSerializer.self, from: Data(#"{"timeoutInterval":5}"#.utf8))
        #expect(whole.timeoutInterval == 5)
    }

    @Test("a JSON round trip keeps every field of all three serializers")
    func codableRoundTrip() throws {
        let base = try Self.customized()
        let decoded = try JSONDecoder().decode(HTTPRequestSerializer.self, from: JSONEncoder().encode(base))
        Self.expectSameFields(base, decoded)

        let json = JSONRequestSerializer(base: base, writingOptions: [.prettyPrinted, .sortedKeys])
        let decodedJSON = try JSONDecoder().decode(JSONRequestSerializer.self, from: JSONEncoder().encode(json))
        Self.expectSameFields(json.base, decodedJSON.base)
        #expect(decodedJSON.writingOptions == json.writingOptions)

        let plist = PropertyListRequestSerializer(base: base, format: .binary, writeOptions: 0)
        let decodedPlist = try JSONDecoder().decode(PropertyListRequestSerializer.self, from: JSONEncoder().encode(plist))
        Self.expectSameFields(plist.base, decodedPlist.base)
        #expect(decodedPlist.format == .binary)
        #expect(decodedPlist.writeOptions == plist.writeOptions)
    }

    @Test("closures cannot be archived, so encoding them throws instead of dropping them")
    func closuresRefuseArchiving() {
        var serializer = plainSerializer()
        serializer.queryStringSerialization = { _, _ in "" }
        #expect(throws: EncodingError.self) { try JSONEncoder().encode(serializer) }
        var style = QueryStringStyle.afNetworking
        style.dateEncoding = .custom { _ in "" }
        #expect(throws: EncodingError.self) { try JSONEncoder().encode(style) }
    }

    @Test("archived headers are validated on decoding")
    func decodedHeadersValidated() {
        let json = #"{"headers":[{"name":"X","value":"a\r\nb"}]}"#
        #expect(throws: RequestSerializationError.self) {
            try JSONDecoder().decode(HTTPRequestSerializer.self, from: Data(json.utf8))
        }
    }
}

@Suite("Errors")
struct ErrorBridgeTests {
    @Test("errors bridge to AF's request domain with reason and description")
    func nsErrorBridge() {
        let error = RequestSerializationError.invalidURL("http://a b")
        #expect(error.nsError.domain == "com.alamofire.error.serialization.request")
        #expect(error.nsError.code == NSURLErrorBadURL)
        #expect(error.nsError.localizedFailureReason == "The URL string \"http://a b\" is not a valid URL.")
        #expect(error.localizedDescription == "The URL string \"http://a b\" is not a valid URL.")
    }

    @Test("the core's other errors give their own sentence as localizedDescription")
    func otherErrorsDescribeThemselves() {
        let errors: [any Error & CustomStringConvertible] = [
            DownloadError.lengthMismatch(path: "/tmp/a.bin", expected: 10, received: 4),
            StreamingResponseError.lineTooLong(line: 3, limit: 16),
            JSONKeyPathError(keyPath: JSONKeyPath([.key("data"), .index(2)]), found: 1, reason: .indexOutOfRange(2, count: 2)),
        ]
        for error in errors {
            #expect(error.localizedDescription == error.description)
            #expect(!error.localizedDescription.contains("could not be completed"))
        }
    }

    @Test("a Foundation failure is carried as the underlying error")
    func underlyingError() {
        let cause = NSError(domain: NSCocoaErrorDomain, code: 3851)
        let error = RequestSerializationError.invalidPropertyListParameters(reason: "x", underlying: UnderlyingError(cause))
        #expect(error.nsError.userInfo[NSUnderlyingErrorKey] as? NSError == cause)
    }

    @Test("`error as NSError` is AFNetworking's request error: domain, code, description, reason, underlying error")
    func requestErrorsBridgeThroughAsNSError() throws {
        let thrown: any Error = try #require(throws: RequestSerializationError.self) {
            try JSONRequestSerializer(base: plainSerializer()).request(method: "POST", urlString: "http://x", parameters: ["n": .double(.nan)])
        }
        let bridged = thrown as NSError
        #expect(bridged.domain == "com.alamofire.error.serialization.request")
        #expect(bridged.code == NSURLErrorCannotDecodeContentData)
        #expect(bridged.localizedFailureReason == "The `parameters` argument is not valid JSON.")
        #expect(bridged.localizedDescription == "The `parameters` argument is not valid JSON. The value at `n` is invalid: nan is not a JSON number.")
        #expect((RequestSerializationError.invalidURL("") as NSError).code == NSURLErrorBadURL)
        let cause = NSError(domain: NSCocoaErrorDomain, code: 3851)
        let wrapped = RequestSerializationError.invalidPropertyListParameters(reason: "x", underlying: UnderlyingError(cause)) as NSError
        #expect(wrapped.userInfo[NSUnderlyingErrorKey] as? NSError == cause)
    }

    @Test("`error as NSError` is AFNetworking's response error, with the response, the body and the chained content-type failure")
    func responseErrorsBridgeThroughAsNSError() throws {
        let response = resp(500, "text/html")
        let body = Data("<h1>oops</h1>".utf8)
        let thrown: any Error = try #require(throws: ResponseSerializationError.self) {
            try JSONResponseSerializer().responseObject(for: response, data: body)
        }
        let bridged = thrown as NSError
        #expect(bridged.domain == "com.alamofire.error.serialization.response")
        #expect(bridged.code == NSURLErrorBadServerResponse)
        #expect(bridged.localizedDescription == "Request failed: internal server error (500)")
        #expect(bridged.userInfo["com.alamofire.serialization.response.error.response"] as? HTTPURLResponse === response)
        #expect(bridged.userInfo["com.alamofire.serialization.response.error.data"] as? Data == body)
        let underlying = try #require(bridged.userInfo[NSUnderlyingErrorKey] as? NSError)
        #expect(underlying.domain == "com.alamofire.error.serialization.response")
        #expect(underlying.code == NSURLErrorCannotDecodeContentData)
        #expect(underlying.localizedDescription == "Request failed: unacceptable content-type: text/html")
    }

    @Test("both halves are caught at once as any HTTPSerializationError")
    func bothHalvesCatchAsOne() {
        let errors: [any Error] = [
            RequestSerializationError.invalidURL("x"),
            ResponseSerializationError.unacceptableContentType("text/html", response: ResponseContext(response: resp(200, "text/html"), data: nil)),
        ]
        let domains = errors.compactMap { ($0 as? any HTTPSerializationError)?.domain }
        #expect(domains == ["com.alamofire.error.serialization.request", "com.alamofire.error.serialization.response"])
    }
}
