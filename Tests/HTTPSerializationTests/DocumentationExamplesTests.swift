import Foundation
import HTTPSerializationCore
import HTTPSerializationCodable
import Testing

/// The DocC articles' examples, with the imports they show, so their stated outputs stay true.
@Suite("documentation examples")
struct DocumentationExamplesTests {
    @Test("Getting started: the core builds the query string and the JSON request it shows")
    func gettingStartedCore() throws {
        let parameters: ParameterValue = ["q": "swift", "filter": ["tags": ["http", "linux"]]]
        #expect(queryString(from: parameters) == "filter%5Btags%5D%5B%5D=http&filter%5Btags%5D%5B%5D=linux&q=swift")

        let serializer = JSONRequestSerializer(writingOptions: .sortedKeys)
        let serialized = try serializer.httpRequest(method: "POST", urlString: "https://example.com/items",
                                                    parameters: ["name": "pen", "price": 1.5])
        #expect(serialized.request.headerFields[.contentType] == "application/json")
        #expect(serialized.body.data.map { String(decoding: $0, as: UTF8.self) } == #"{"name":"pen","price":1.5}"#)
    }

    @Test("Getting started: a failed response is a ResponseSerializationError carrying the status")
    func gettingStartedResponse() throws {
        struct Item: Decodable { var name: String }
        let items = DecodableResponseSerializer([Item].self)
        var head = HTTPResponse(status: .ok)
        head.headerFields[.contentType] = "application/json"
        let list = try items.responseObject(for: head, data: Data(#"[{"name":"pen"}]"#.utf8))
        #expect(list.map(\.name) == ["pen"])

        head.status = .notFound
        do {
            _ = try items.responseObject(for: head, data: Data("[]".utf8))
            Issue.record("a 404 was accepted")
        } catch let error as ResponseSerializationError {
            #expect(error.context.response?.status.code == 404)
            #expect(error.reason.contains("404"))
        }
    }

    @Test("Multipart article: a form's byte chunks know their length and add up to the encoded body")
    func multipartByteChunks() async throws {
        var form = try MultipartFormData(boundary: "doc-example")
        try form.appendPart(formData: Data("Holiday".utf8), name: "title")
        try form.appendPart(fileData: Data(repeating: 7, count: 1000), name: "photo", fileName: "p.bin",
                            mimeType: "application/octet-stream")
        form.throttleBandwidth(packetSize: 4096, delay: 0)
        let chunks = form.byteChunks(size: 64)
        var collected: [UInt8] = []
        for try await chunk in chunks { collected += chunk }
        #expect(chunks.length == form.contentLength)
        #expect(UInt64(collected.count) == form.contentLength)
        #expect(Data(collected) == (try form.encodedData()))
    }

    @Test("Multipart article: a form over swift-http-types carries its exact length")
    func multipartHTTPRequest() throws {
        let upload = try HTTPRequestSerializer().multipartFormHTTPRequest(
            method: "POST", urlString: "https://example.com/upload", parameters: ["album": ["id": 7]]
        ) { form in
            try form.appendPart(formData: Data("Holiday".utf8), name: "title")
        }
        guard case .multipart(let form) = upload.body else {
            Issue.record("the body is not a multipart form")
            return
        }
        #expect(upload.request.headerFields[.contentLength] == String(form.contentLength))
        #expect(upload.request.headerFields[.contentType] == form.contentType)
        #expect(form.partCount == 2)
    }

    @Test("Alamofire article: URLEncodedFormEncoder's options map onto QueryStringStyle")
    func alamofireStyles() {
        var style = QueryStringStyle.afNetworking
        style.arrayEncoding = .repeatedKeys     // Alamofire's .noBrackets
        style.keyEncoding = .dotted             // Alamofire's keyPathEncoding: .dots
        style.nullEncoding = .emptyValue        // Alamofire's nilEncoding: .dropValue
        style.spaceEncoding = .plus             // Alamofire's spaceEncoding: .plusReplaced
        style.boolEncoding = .literal
        let parameters: ParameterValue = ["a": ["b": [1, 2]], "n": nil, "s": "x y", "t": true]
        #expect(queryString(from: parameters, style: style) == "a.b=1&a.b=2&n=&s=x+y&t=true")
        style.arrayEncoding = .indexed          // Alamofire's .indexInBrackets
        #expect(queryString(from: ["a": [1, 2]], style: style) == "a%5B0%5D=1&a%5B1%5D=2")
    }
}
