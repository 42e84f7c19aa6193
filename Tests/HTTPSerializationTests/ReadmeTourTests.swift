import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing
import HTTPSerialization

/// The README's tour, statement for statement, so the documented outputs stay true.
@Suite("README tour")
struct ReadmeTourTests {
    @Test("the tour's snippets produce the documented results")
    func tour() throws {
        let literal: ParameterValue = [
            "name": "bang",
            "phone": ["mobile": "xx", "home": "xx"],
            "families": ["father", "mother"],
            "nums": .set([1, 2]),
        ]
        let legacy = try ParameterValue(any: ["page": 2, "debug": NSNumber(value: true)] as [String: Any])
        #expect(legacy == ["page": 2, "debug": true])
        struct Search: Encodable { var q: String; var tags: [String] }
        let model = try ParameterValue(encoding: Search(q: "swift", tags: ["http", "linux"]))
        #expect(queryString(from: model) == "q=swift&tags%5B%5D=http&tags%5B%5D=linux")

        #expect(queryString(from: literal)
            == "families%5B%5D=father&families%5B%5D=mother&name=bang&nums=1&nums=2&phone%5Bhome%5D=xx&phone%5Bmobile%5D=xx")
        #expect(percentEscaped(":#[]@!$&'()*+,;=?/") == "%3A%23%5B%5D%40%21%24%26%27%28%29%2A%2B%2C%3B%3D?/")

        var style = QueryStringStyle.afNetworking
        style.arrayEncoding = .indexed
        style.keyEncoding = .dotted
        style.boolEncoding = .literal
        style.spaceEncoding = .plus
        style.nullEncoding = .emptyValue
        style.dateEncoding = .iso8601
        #expect(queryString(from: ["a": ["b": [1, 2]]], style: style) == "a.b%5B0%5D=1&a.b%5B1%5D=2")
        #expect(queryStringPairs(from: ["a": ["b": 1]]) == [QueryStringPair(field: "a[b]", value: 1)])

        var serializer = HTTPRequestSerializer()
        try serializer.setValue("abc", forHTTPHeaderField: "X-Api-Key")
        try serializer.setAuthorizationHeader(username: "user", password: "password")
        serializer.timeoutInterval = 30
        let get = try serializer.request(method: "GET", urlString: "https://example.com/search#top", parameters: ["q": "swift"])
        #expect(get.url?.absoluteString == "https://example.com/search?q=swift#top")
        #expect(get.timeoutInterval == 30)
        let form = try serializer.request(method: "POST", urlString: "https://example.com/form", parameters: ["key": "value"])
        #expect(form.httpBody == Data("key=value".utf8))
        let json = try JSONRequestSerializer().request(method: "POST", urlString: "https://example.com/items", parameters: ["key": "value"])
        #expect(json.httpBody == Data(#"{"key":"value"}"#.utf8))
        var plist = PropertyListRequestSerializer()
        plist.format = .binary
        let binary = try plist.request(method: "POST", urlString: "https://example.com", parameters: ["key": "value"])
        #expect(binary.httpBody?.starts(with: Data("bplist00".utf8)) == true)

        serializer.queryStringSerialization = { request, parameters in
            queryString(from: parameters).replacingOccurrences(of: "%20", with: "+")
        }
        let custom = try serializer.request(method: "GET", urlString: "https://example.com", parameters: ["q": "a b"])
        #expect(custom.url?.query == "q=a+b")
    }
}
