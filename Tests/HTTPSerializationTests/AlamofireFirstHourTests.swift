import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing
import HTTPSerialization

/// The calls an Alamofire user reaches for first, spelled as they would spell them.
@Suite("An Alamofire user's first hour: dictionaries, Encodable forms, dates, text fields, qualified names")
struct AlamofireFirstHourTests {
    struct Opaque {}

    static func bytes(_ request: SerializedRequest) -> Data? {
        if case .bytes(let data) = request.body { return data }
        return nil
    }

    @Test("a [String: Any] or [String: any Sendable] goes straight into parameters:, with ParameterValue(any:)'s result and errors")
    func foundationDictionariesAsParameters() throws {
        let serializer = HTTPRequestSerializer()
        let legacy: [String: Any] = ["page": 2, "tags": NSArray(array: ["a", "b"]), "user": ["name": "Ann Lee"] as [String: Any]]
        let sendable: [String: any Sendable] = ["page": 2, "tags": ["a", "b"], "user": ["name": "Ann Lee"]]
        let url = "https://example.com/search"
        let expected = try serializer.request(method: "GET", urlString: url, parameters: ParameterValue(any: legacy))
        #expect(expected.url?.query == "page=2&tags%5B%5D=a&tags%5B%5D=b&user%5Bname%5D=Ann%20Lee")
        #expect(try serializer.request(method: "GET", urlString: url, parameters: legacy).url == expected.url)
        #expect(try serializer.request(method: "GET", urlString: url, parameters: sendable).url == expected.url)
        #expect(try serializer.httpRequest(method: "GET", urlString: url, parameters: sendable).request.path == "/search?" + (expected.url?.query ?? ""))
        #expect(try serializer.httpRequest(method: .get, url: URL(string: url)!, parameters: legacy).request.path == "/search?" + (expected.url?.query ?? ""))
        var plain = URLRequest(url: URL(string: url)!)
        plain.httpMethod = "POST"
        let post = try serializer.serialize(plain, parameters: legacy)
        #expect(post.httpBody == expected.url?.query.map { Data($0.utf8) })
        let json = try JSONRequestSerializer().httpRequest(method: "POST", urlString: url, parameters: sendable)
        #expect(try ParameterValue(json: Self.bytes(json) ?? Data()) == ParameterValue(any: legacy))
        // A nil dictionary sends no parameters.
        let none: [String: Any]? = nil
        #expect(try serializer.request(method: "GET", urlString: url, parameters: none).url?.query == nil)

        let bad: [String: Any] = ["a": [1, Opaque()] as [Any]]
        #expect(throws: RequestSerializationError.invalidParameter(path: "a[1]", reason: "a value of type Opaque has no parameter form")) {
            try serializer.request(method: "GET", urlString: url, parameters: bad)
        }
        #expect(throws: RequestSerializationError.invalidParameter(path: "a[1]", reason: "a value of type Opaque has no parameter form")) {
            try serializer.multipartFormRequest(method: "POST", urlString: url, parameters: bad)
        }
        #expect(throws: RequestSerializationError.invalidParameter(path: "a[1]", reason: "a value of type Opaque has no parameter form")) {
            try serializer.multipartFormHTTPRequest(method: "POST", urlString: url, parameters: bad)
        }
        var shallow = serializer
        shallow.maximumParameterDepth = 2
        #expect(throws: RequestSerializationError.self) {
            try shallow.request(method: "GET", urlString: url, parameters: ["a": ["b": ["c": 1]]] as [String: Any])
        }
        // Every overload keeps to the serializer's own depth limit, raised or lowered.
        var deep: [String: Any] = ["leaf": 1]
        for _ in 0..<600 { deep = ["k": deep] }
        var roomy = serializer
        roomy.maximumParameterDepth = 700
        #expect(throws: Never.self) { try roomy.serialize(plain, parameters: deep) }
        #expect(throws: Never.self) { try roomy.request(method: "POST", urlString: url, parameters: deep) }
        #expect(throws: RequestSerializationError.self) { try serializer.serialize(plain, parameters: deep) }
    }

    @Test("a multipart request takes a [String: Any] as its leading fields")
    func multipartWithDictionary() throws {
        let legacy: [String: Any] = ["user": ["name": "Ann"] as [String: Any], "n": 1]
        let viaAny = try HTTPRequestSerializer().multipartFormHTTPRequest(method: "POST", urlString: "http://127.0.0.1/", parameters: legacy, boundary: "b0undary")
        let viaTree = try HTTPRequestSerializer().multipartFormHTTPRequest(
            method: "POST", urlString: "http://127.0.0.1/", parameters: ParameterValue(any: legacy), boundary: "b0undary")
        guard case .multipart(let formA) = viaAny.body, case .multipart(let formB) = viaTree.body else {
            Issue.record("the requests carry no form")
            return
        }
        #expect(try formA.encodedData() == formB.encodedData())
        let viaURLRequest = try HTTPRequestSerializer().multipartFormRequest(method: "POST", urlString: "http://127.0.0.1/", parameters: legacy, boundary: "b0undary")
        #expect(viaURLRequest.value(forHTTPHeaderField: "Content-Length") == String(formA.contentLength))
    }

    struct Event: Encodable {
        var name: String
        var at: Date
    }

    @Test("an Encodable form is body:, its dates set in one place: the serializer's query-string style")
    func encodableFormsAndTheirDates() throws {
        let event = Event(name: "launch", at: Date(timeIntervalSince1970: 0))
        var serializer = HTTPRequestSerializer()
        let get = try serializer.request(method: "GET", urlString: "https://example.com/events", body: event)
        #expect(get.url?.query == "at=1970-01-01%2000%3A00%3A00%20%2B0000&name=launch")
        serializer.queryStringStyle.dateEncoding = .iso8601
        let post = try serializer.request(method: "POST", urlString: "https://example.com/events", body: event)
        #expect(post.httpBody.map { String(decoding: $0, as: UTF8.self) } == "at=1970-01-01T00%3A00%3A00Z&name=launch")
        #expect(post.value(forHTTPHeaderField: "Content-Type") == "application/x-www-form-urlencoded")
        // The same style rules the swift-http-types form of the call.
        #expect(Self.bytes(try serializer.httpRequest(method: "POST", urlString: "https://example.com/events", body: event)) == post.httpBody)
        // A JSON body's dates follow its encoder, deferredToDate by default, as JSONEncoder's.
        let json = try JSONRequestSerializer().request(method: "POST", urlString: "https://example.com/events", body: event)
        #expect(try json.httpBody.map { try ParameterValue(json: $0) } == ["at": -978_307_200, "name": "launch"])
    }

    @Test("a text form field is a String, sent as UTF-8, byte for byte the Data form, in memory and streamed")
    func textFormFields() throws {
        var text = try MultipartFormData(boundary: "b0undary")
        var data = try MultipartFormData(boundary: "b0undary")
        let long = String(repeating: "Zoë 🚀 ", count: 40)
        for (index, value) in ["Zoë 🚀", "", long].enumerated() {
            try text.appendPart(formData: value, name: "name\(index)")
            try data.appendPart(formData: Data(value.utf8), name: "name\(index)")
        }
        let expected = try data.encodedData()
        #expect(try text.encodedData() == expected)
        #expect(text.contentLength == data.contentLength)
        // The streamed body, read part by part, agrees too.
        #expect(try readAll(text.makeInputStream()) == readAll(data.makeInputStream()))
        #expect(throws: RequestSerializationError.multipartBoundaryInBody(part: #"part 4 "bad""#)) {
            try text.appendPart(formData: "x\r\n--b0undary", name: "bad")
        }
    }

    @Test("the names Alamofire also exports are spelled with their modules beside it")
    func moduleQualifiedNames() throws {
        var form = HTTPSerializationCore.MultipartFormData()
        try form.appendPart(formData: "swift", name: "q")
        let json = HTTPSerializationFoundation.JSONResponseSerializer()
        let decodable = HTTPSerializationCodable.DecodableResponseSerializer<[String]>()
        #expect(form.partCount == 1)
        #expect(json.base.acceptableContentTypes?.contains("application/json") == true)
        #expect(decodable.emptyResponseCodes == [204, 205])
    }
}
