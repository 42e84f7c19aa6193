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

@Suite("Request serializers: URLs, methods and bodies")
struct RequestSerializerBehaviourTests {
    @Test("the query goes before a #fragment (AFNetworking put it after)", arguments: [
        ("http://x/p#frag", "http://x/p?k=v#frag"),
        ("http://x/p?q=1#frag", "http://x/p?q=1&k=v#frag"),
        ("http://x/p?", "http://x/p?k=v"),
        ("http://x/p?q=1&", "http://x/p?q=1&k=v"),
        ("http://x/p", "http://x/p?k=v"),
    ])
    func queryBeforeFragment(url: String, expected: String) throws {
        let result = try plainSerializer().serialize(request("GET", url), parameters: ["k": "v"])
        #expect(result.url?.absoluteString == expected)
    }

    @Test("an unparsable URL string is a typed error", arguments: ["", "http://exa mple.com", "http://[::1"])
    func invalidURL(url: String) {
        #expect(throws: RequestSerializationError.invalidURL(url)) {
            try plainSerializer().request(method: "GET", urlString: url)
        }
    }

    @Test("a method that is not a token is a typed error")
    func invalidMethod() {
        #expect(throws: RequestSerializationError.invalidHTTPMethod("GET / HTTP/1.1\r\nX: y")) {
            try plainSerializer().request(method: "GET / HTTP/1.1\r\nX: y", urlString: "http://x")
        }
    }

    @Test("a custom query closure's output that is not valid in a URL is a typed error")
    func customQueryNotURLSafe() {
        var serializer = plainSerializer()
        serializer.queryStringSerialization = { _, _ in "a b" }
        #expect(throws: RequestSerializationError.self) {
            try serializer.request(method: "GET", urlString: "http://x", parameters: ["k": "v"])
        }
    }

    @Test("method matching for the URI is case-insensitive and configurable")
    func methodMatching() throws {
        var serializer = plainSerializer()
        #expect(try serializer.request(method: "get", urlString: "http://x", parameters: ["a": 1]).url?.query == "a=1")
        serializer.methodsEncodingParametersInURI = ["GET"]
        let delete = try serializer.request(method: "DELETE", urlString: "http://x", parameters: ["a": 1])
        #expect(delete.url?.query == nil)
        #expect(bodyText(delete) == "a=1")
    }

    @Test("an existing Content-Type is kept")
    func contentTypeKept() throws {
        var original = request("POST", "http://x")
        original.setValue("text/plain", forHTTPHeaderField: "Content-Type")
        let result = try plainSerializer().serialize(original, parameters: ["a": 1])
        #expect(result.value(forHTTPHeaderField: "Content-Type") == "text/plain")
    }

    @Test("a custom query closure output that the string encoding cannot hold is a typed error")
    func stringEncodingFailure() {
        var serializer = plainSerializer()
        serializer.stringEncoding = .ascii
        serializer.queryStringSerialization = { _, _ in "名前=値" }
        #expect(throws: RequestSerializationError.stringEncodingFailed(encoding: String.Encoding.ascii.rawValue)) {
            try serializer.request(method: "POST", urlString: "http://x", parameters: ["k": "v"])
        }
    }

    @Test("request properties apply only when set")
    func requestProperties() throws {
        let untouched = try plainSerializer().request(method: "GET", urlString: "http://x")
        let reference = URLRequest(url: URL(string: "http://x")!)
        #expect(untouched.timeoutInterval == reference.timeoutInterval)
        #expect(untouched.cachePolicy == reference.cachePolicy)
        var serializer = plainSerializer()
        serializer.timeoutInterval = 5
        serializer.cachePolicy = .reloadIgnoringLocalCacheData
        serializer.allowsCellularAccess = false
        serializer.httpShouldHandleCookies = false
        serializer.networkServiceType = .background
        let result = try serializer.request(method: "GET", urlString: "http://x")
        #expect(result.timeoutInterval == 5)
        #expect(result.cachePolicy == .reloadIgnoringLocalCacheData)
        #expect(result.allowsCellularAccess == false)
        #expect(result.httpShouldHandleCookies == false)
        #expect(result.networkServiceType == .background)
    }

    @Test("parameters deeper than the limit are refused by every serializer")
    func depthLimitInSerializers() {
        var deep: ParameterValue = "leaf"
        for _ in 0..<20 { deep = [deep] }
        var base = plainSerializer()
        base.maximumParameterDepth = 10
        #expect(throws: RequestSerializationError.nestingTooDeep(path: "", limit: 10)) {
            try base.request(method: "GET", urlString: "http://x", parameters: ["a": deep])
        }
        #expect(throws: RequestSerializationError.nestingTooDeep(path: "", limit: 10)) {
            try JSONRequestSerializer(base: base).request(method: "POST", urlString: "http://x", parameters: deep)
        }
        #expect(throws: RequestSerializationError.nestingTooDeep(path: "", limit: 10)) {
            try PropertyListRequestSerializer(base: base).request(method: "POST", urlString: "http://x", parameters: deep)
        }
    }

    @Test("JSON at the default depth limit is written without exhausting the stack")
    func jsonAtDepthLimit() throws {
        var deep: ParameterValue = 1
        for _ in 0..<ParameterValue.defaultMaximumDepth { deep = [deep] }
        let result = try JSONRequestSerializer(base: plainSerializer()).request(method: "POST", urlString: "http://x", parameters: deep)
        #expect(result.httpBody?.count == 2 * ParameterValue.defaultMaximumDepth + 1)
    }
}

@Suite("JSON and property-list request serializers")
struct BodySerializerTests {
    @Test("JSON: GET still uses the query string; nil parameters add no body")
    func jsonURIAndNil() throws {
        let json = JSONRequestSerializer(base: plainSerializer())
        let get = try json.request(method: "GET", urlString: "http://x", parameters: ["a": 1])
        #expect(get.url?.query == "a=1")
        #expect(get.httpBody == nil)
        let post = try json.request(method: "POST", urlString: "http://x", parameters: nil)
        #expect(post.httpBody == nil)
        #expect(post.value(forHTTPHeaderField: "Content-Type") == nil)
    }

    @Test("JSON: a top-level scalar needs .fragmentsAllowed (Foundation would abort)")
    func jsonFragments() throws {
        #expect(throws: RequestSerializationError.self) {
            try JSONRequestSerializer(base: plainSerializer()).request(method: "POST", urlString: "http://x", parameters: "text")
        }
        let json = JSONRequestSerializer(base: plainSerializer(), writingOptions: [.fragmentsAllowed])
        #expect(bodyText(try json.request(method: "POST", urlString: "http://x", parameters: "text")) == #""text""#)
    }

    @Test("JSON: data, dates and sets are refused with the path of the value")
    func jsonRefusals() throws {
        let json = JSONRequestSerializer(base: plainSerializer())
        for (value, expectedPath) in [(ParameterValue.data(Data()), "a.b"), (.date(Date()), "a.b"), (.set([1]), "a.b")] {
            do {
                _ = try json.request(method: "POST", urlString: "http://x", parameters: ["a": ["b": value]])
                Issue.record("\(value) was accepted")
            } catch let RequestSerializationError.invalidJSONParameters(reason, _) {
                #expect(reason.contains("`\(expectedPath)`"))
            }
        }
    }

    @Test("JSON: writing options are honoured, null and decimals are written")
    func jsonOptionsAndValues() throws {
        let json = JSONRequestSerializer(base: plainSerializer(), writingOptions: [.sortedKeys, .withoutEscapingSlashes])
        let result = try json.request(method: "POST", urlString: "http://x", parameters: [
            "z": nil, "a": "x/y", "d": .decimal(Decimal(string: "1.5")!), "b": true,
        ])
        #expect(bodyText(result) == #"{"a":"x/y","b":true,"d":1.5,"z":null}"#)
    }

    @Test("plist: binary on request, null and sets refused, OpenStep refused before Foundation crashes")
    func plistFormats() throws {
        var plist = PropertyListRequestSerializer(base: plainSerializer())
        plist.format = .binary
        let result = try plist.request(method: "POST", urlString: "http://x", parameters: ["key": "value", "n": 1, "d": .data(Data([1]))])
        #expect(result.httpBody?.starts(with: Data("bplist00".utf8)) == true)
        var format = PropertyListSerialization.PropertyListFormat.xml
        let decoded = try PropertyListSerialization.propertyList(from: result.httpBody!, format: &format) as? NSDictionary
        #expect(format == .binary)
        #expect(decoded?["key"] as? String == "value")
        #expect(throws: RequestSerializationError.self) {
            try plist.request(method: "POST", urlString: "http://x", parameters: ["n": nil])
        }
        #expect(throws: RequestSerializationError.self) {
            try plist.request(method: "POST", urlString: "http://x", parameters: ["s": .set([1])])
        }
        plist.format = .openStep
        #expect(throws: RequestSerializationError.self) {
            try plist.request(method: "POST", urlString: "http://x", parameters: ["key": "value"])
        }
    }

    @Test("composed serializers read and write the base's properties and headers")
    func composition() throws {
        var json = JSONRequestSerializer(base: plainSerializer())
        json.timeoutInterval = 7
        try json.setValue("v", forHTTPHeaderField: "X-Json")
        #expect(json.base.timeoutInterval == 7)
        let result = try json.request(method: "POST", urlString: "http://x", parameters: ["a": 1])
        #expect(result.timeoutInterval == 7)
        #expect(result.value(forHTTPHeaderField: "X-Json") == "v")
    }
}
