import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import EchoServer
import Testing
import HTTPSerialization

/// The API tour (the DocC article `APITour`, once the README's), statement for statement, so
/// the documented outputs stay true; and the README's client and stream snippets, run.
@Suite("README and API tour")
struct ReadmeTourTests {
    @Test("the README's client request and stream run as written, against a loopback server")
    func readmeSnippets() async throws {
        let server = try await EchoServer.start()
        let base = server.baseURL.absoluteString
        struct Item: Decodable { var name: String }
        do {
            let answer = "/respond?status=200&type=application/json&body=%7B%22name%22%3A%22pen%22%7D"
            let request = try JSONRequestSerializer().httpRequest(
                method: "POST", urlString: base + answer, parameters: ["name": "pen", "price": 1.5])
            let result = try await URLSession.shared.response(for: request, serializer: DecodableResponseSerializer(Item.self))
            #expect(result.output.name == "pen")

            let events = try HTTPRequestSerializer().httpRequest(method: "GET", urlString: base + "/sse?count=3&pause=0")
            let streamed = try await URLSession.shared.stream(for: events)
            var received: [ServerSentEvent] = []
            for try await event in streamed.values(ServerSentEventsResponseSerializer()) {
                received.append(event)
            }
            #expect(received.count == 3)
        } catch {
            try await server.stop()
            throw error
        }
        try await server.stop()
    }

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
        struct Order: Encodable { var orderID: Int; var placedAt: Date }
        var encoder = JSONBodyEncoder()
        encoder.keyEncodingStrategy = .convertToSnakeCase
        encoder.dateEncodingStrategy = .iso8601
        let order = try JSONRequestSerializer().request(method: "POST", urlString: "https://example.com/orders",
                                                        body: Order(orderID: 7, placedAt: Date(timeIntervalSince1970: 0)), encoder: encoder)
        #expect(try order.httpBody.map { try ParameterValue(json: $0) } == ["order_id": 7, "placed_at": "1970-01-01T00:00:00Z"])
        #expect(order.value(forHTTPHeaderField: "Content-Type") == "application/json")
        struct Filter: Encodable { var q: String; var since: Date }
        serializer.queryStringStyle.dateEncoding = .iso8601
        let search = try serializer.request(method: "GET", urlString: "https://example.com/search",
                                            body: Filter(q: "swift", since: Date(timeIntervalSince1970: 0)))
        #expect(search.url?.absoluteString == "https://example.com/search?q=swift&since=1970-01-01T00%3A00%3A00Z")
        let dictionary: [String: Any] = ["page": 2, "debug": NSNumber(value: true)]
        let fromDictionary = try serializer.request(method: "GET", urlString: "https://example.com/search", parameters: dictionary)
        #expect(fromDictionary.url?.absoluteString == "https://example.com/search?debug=1&page=2")
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

    @Test("the multipart snippets produce the documented requests and bodies")
    func multipartTour() async throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let photo = try folder.file("photo.png", contents: Data([0x89, 0x50, 0x4E, 0x47]))
        let bodyFile = folder.url.appendingPathComponent("body.bin")

        let serializer = HTTPRequestSerializer()
        let upload = try serializer.multipartFormRequest(
            method: "POST", urlString: "https://example.com/upload", parameters: ["album": ["id": 7]]
        ) { form in
            try form.appendPart(fileURL: photo, name: "photo")
            try form.appendPart(fileData: Data("notes".utf8), name: "notes", fileName: "notes.txt", mimeType: "text/plain")
        }
        #expect(upload.value(forHTTPHeaderField: "Content-Type")?.hasPrefix("multipart/form-data; boundary=Boundary-") == true)
        let bodyBytes = try readAll(try #require(upload.httpBodyStream))
        let body = String(decoding: bodyBytes, as: UTF8.self)
        #expect(body.contains("name=\"album[id]\"\r\n\r\n7\r\n"))
        #expect(body.contains("name=\"photo\"; filename=\"photo.png\"\r\nContent-Type: image/png\r\n"))
        #expect(upload.value(forHTTPHeaderField: "Content-Length") == String(bodyBytes.count))

        var form = try MultipartFormData(boundary: "fixed-for-snapshots")
        try form.appendPart(formData: "Ann", name: "user")
        try form.appendPart(streamFactory: { InputStream(data: Data(count: 1024)) },
                            name: "blob", fileName: "blob.bin", length: 1024, mimeType: "application/octet-stream")
        form.throttleBandwidth(packetSize: 16 * 1024, delay: 0.2)
        let request = try serializer.request(method: "POST", urlString: "https://example.com/upload", multipartForm: form)
        #expect(request.value(forHTTPHeaderField: "Content-Length") == String(form.contentLength))
        let small = try form.encodedData()
        #expect(try readAll(form.makeInputStream()) == small)
        var chunked = Data()
        for try await chunk in form.chunks() { chunked += chunk }
        #expect(chunked == small)
        try await form.writeEncodedBody(to: bodyFile)
        #expect(try Data(contentsOf: bodyFile) == small)

        let fileRequest = try await serializer.request(withMultipartFormRequest: upload, writingStreamContentsTo: bodyFile)
        #expect(fileRequest.httpBodyStream == nil)
        #expect(try Data(contentsOf: bodyFile).count == Int(upload.value(forHTTPHeaderField: "Content-Length")!))
    }

    @Test("the response snippets behave as documented")
    func responseTour() throws {
        let response = resp(404, "application/json")
        let data = Data(#"{"message":"no such user"}"#.utf8)
        let noContent = resp(204)

        let json = JSONResponseSerializer()
        #expect(throws: ResponseSerializationError.self) { try json.responseObject(for: response, data: data) }
        #expect(try json.responseObject(for: resp(200, "application/json"), data: data) != nil)

        struct User: Decodable { var name: String }
        struct APIError: Decodable { var message: String }
        let users = DecodableResponseSerializer(User.self)
        do {
            _ = try users.responseObject(for: response, data: data)
            Issue.record("a 404 was accepted")
        } catch {
            #expect(users.decodeErrorPayload(APIError.self, from: error)?.message == "no such user")
        }
        #expect(try DecodableResponseSerializer(User?.self).responseObject(for: noContent, data: nil) == nil)

        var decoder = JSONBodyDecoder()
        decoder.keyDecodingStrategy = .convertFromSnakeCase
        decoder.dateDecodingStrategy = .iso8601
        let snakeUsers = DecodableResponseSerializer(User.self, decoder: decoder)
        #expect(try snakeUsers.responseObject(for: resp(200, "application/json"), data: Data(#"{"name":"a"}"#.utf8)).name == "a")

        var relaxed = HTTPResponseSerializer(acceptableContentTypes: ["image/*", "application/*+json"])
        relaxed.contentTypeMatching.acceptsStructuredSuffixes = true
        relaxed.acceptableStatusCodes = Set(200..<400)
        try relaxed.validate(resp(302, "application/problem+json"), data: data)
        try relaxed.validate(resp(200, "image/webp"), data: data)
    }
}
