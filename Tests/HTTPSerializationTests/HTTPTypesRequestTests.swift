import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import HTTPTypes
import Testing
@testable import HTTPSerialization
@testable import HTTPSerializationCodable
@testable import HTTPSerializationCore
@testable import HTTPSerializationFoundation
@testable import HTTPSerializationImages
@testable import HTTPSerializationXML

/// What goes on the wire for a request, whichever form it was built in: the target in origin
/// form, the header fields by lower-cased name, and the body's bytes.
private struct Wire: Equatable, CustomStringConvertible {
    var method: String
    var target: String
    var headers: [String: String]
    var body: Data

    init(_ request: URLRequest) throws {
        method = request.httpMethod ?? "GET"
        var target = RequestTarget(request.url?.absoluteString ?? "")
        target.fragment = nil
        if target.authority != nil, !target.pathAndQuery.hasPrefix("/") { target.pathAndQuery = "/" + target.pathAndQuery }
        self.target = target.urlString
        headers = Dictionary(uniqueKeysWithValues: (request.allHTTPHeaderFields ?? [:]).map { ($0.key.lowercased(), $0.value) })
        if let stream = request.httpBodyStream {
            body = try readAll(stream)
        } else {
            body = request.httpBody ?? Data()
        }
    }

    init(_ serialized: SerializedRequest) async throws {
        method = serialized.request.method.rawValue
        target = RequestTarget(serialized.request).urlString
        var headers: [String: String] = [:]
        for field in serialized.request.headerFields {
            headers[field.name.canonicalName] = serialized.request.headerFields[field.name]
        }
        self.headers = headers
        switch serialized.body {
        case .none: body = Data()
        case .bytes(let data): body = data
        case .multipart(let form): body = try await collectChunks(form, size: 4096)
        case .stream: body = try serialized.body.collect()
        }
    }

    var description: String {
        "\(method) \(target) \(headers.sorted { $0.key < $1.key }) \(String(decoding: body, as: UTF8.self))"
    }
}

@Suite("swift-http-types: requests")
struct HTTPTypesRequestTests {
    static let urls = [
        "http://test.com", "http://x/r?existing=1", "http://x/r?", "http://x/r?a=1&", "http://x/p#fragment",
        "https://example.com:8443/a/b", "http://user:secret@x/y", "http://[::1]:8080/v6", "http://x/%7Euser/a%20b",
    ]
    static let methods = ["GET", "HEAD", "DELETE", "POST", "PUT", "PATCH", "get", "post"]
    static let parameters: [ParameterValue?] = [
        nil, [:], "AF Networking",
        ["name": "bang", "phone": ["mobile": "xx", "home": "xx"], "families": ["father", "mother"], "nums": .set([1, 2])],
        ["key": ":#[]@!$&'()*+,;=/?", "emoji": "👴🏿👷🏻👮🏽", "escaped": "%25 already"],
        ["a": [["x": 1, "y": true], [[3, nil]]], "b": ["c": ["d": 2.5]], "when": .date(Date(timeIntervalSince1970: 0))],
    ]

    /// Every combination of the style's choices that changes the spelling of some value.
    static var styles: [QueryStringStyle] {
        var styles: [QueryStringStyle] = []
        for array in [QueryStringStyle.ArrayEncoding.brackets, .indexed, .repeatedKeys] {
            for key in [QueryStringStyle.KeyEncoding.brackets, .dotted] {
                for bool in [QueryStringStyle.BoolEncoding.numeric, .literal] {
                    for space in [QueryStringStyle.SpaceEncoding.percentEscaped, .plus] {
                        for null in [QueryStringStyle.NullEncoding.bareKey, .emptyValue, .dropKey] {
                            var style = QueryStringStyle.afNetworking
                            style.arrayEncoding = array
                            style.keyEncoding = key
                            style.boolEncoding = bool
                            style.spaceEncoding = space
                            style.nullEncoding = null
                            styles.append(style)
                        }
                    }
                }
            }
        }
        var dates = QueryStringStyle.afNetworking
        dates.dateEncoding = .iso8601
        styles.append(dates)
        return styles
    }

    /// `normalize` maps a body to what must agree: binary property lists, written from
    /// dictionaries, may order keys differently from one write to the next.
    private func expectSameWire(
        _ serializer: some HTTPRequestSerializerComposing, _ method: String, _ url: String, _ parameters: ParameterValue?,
        normalize: (Data) throws -> Data = { $0 }, sourceLocation: SourceLocation = #_sourceLocation
    ) async throws {
        let viaURLRequest = Result {
            var wire = try Wire(serializer.request(method: method, urlString: url, parameters: parameters))
            wire.body = try normalize(wire.body)
            return wire
        }
        let viaHTTPTypes: Result<Wire, any Error>
        do {
            var wire = try await Wire(serializer.httpRequest(method: method, urlString: url, parameters: parameters))
            wire.body = try normalize(wire.body)
            viaHTTPTypes = .success(wire)
        } catch {
            viaHTTPTypes = .failure(error)
        }
        switch (viaURLRequest, viaHTTPTypes) {
        case (.success(let a), .success(let b)):
            #expect(a == b, "\(method) \(url)", sourceLocation: sourceLocation)
        case (.failure(let a as RequestSerializationError), .failure(let b as RequestSerializationError)):
            #expect(a == b, "\(method) \(url)", sourceLocation: sourceLocation)
        default:
            Issue.record("\(method) \(url): \(viaURLRequest) against \(viaHTTPTypes)", sourceLocation: sourceLocation)
        }
    }

    @Test("URLRequest and HTTPRequest forms put the same bytes on the wire for every method, URL and query style")
    func formsAgreeForEveryQueryStyle() async throws {
        var checked = 0
        for style in Self.styles {
            var serializer = plainSerializer()
            serializer.queryStringStyle = style
            for method in Self.methods {
                for url in Self.urls {
                    for parameters in Self.parameters {
                        try await expectSameWire(serializer, method, url, parameters)
                        checked += 1
                    }
                }
            }
        }
        #expect(checked == Self.styles.count * Self.methods.count * Self.urls.count * Self.parameters.count)
    }

    @Test("the AFNetworking parity serializers agree in both forms: defaults, auth, JSON, property lists, custom query")
    func parityConfigurationsAgree() async throws {
        var authorized = HTTPRequestSerializer()
        try authorized.setAuthorizationHeader(username: "user", password: "password")
        try authorized.setValue("yes", forHTTPHeaderField: "X-Extra")
        var custom = plainSerializer()
        custom.queryStringSerialization = { request, parameters in
            "method=\(request.method.rawValue)&" + queryString(from: parameters)
        }
        var plist = PropertyListRequestSerializer(base: plainSerializer())
        let json = JSONRequestSerializer(base: authorized, writingOptions: [.sortedKeys, .prettyPrinted])
        for method in Self.methods {
            for url in Self.urls {
                for parameters in Self.parameters {
                    try await expectSameWire(authorized, method, url, parameters)
                    try await expectSameWire(custom, method, url, parameters)
                    try await expectSameWire(json, method, url, parameters)
                    plist.format = .xml
                    try await expectSameWire(plist, method, url, parameters)
                    plist.format = .binary
                    try await expectSameWire(plist, method, url, parameters) { body in
                        guard !body.isEmpty else { return body }
                        let object = try PropertyListSerialization.propertyList(from: body, format: nil)
                        return try PropertyListSerialization.data(fromPropertyList: object, format: .xml, options: 0)
                    }
                }
            }
        }
    }

    @Test("a multipart form gives the same head and bytes in both forms, with its exact Content-Length")
    func multipartFormsAgree() async throws {
        let serializer = plainSerializer()
        let build: (inout MultipartFormData) throws -> Void = { form in
            try form.appendPart(fileData: Data("Data".utf8), name: "DataName", fileName: "DataFileName", mimeType: "data")
            try form.appendPart(formData: Data("value".utf8), name: "field")
        }
        let urlRequest = try serializer.multipartFormRequest(
            method: "POST", urlString: "http://x/upload", parameters: ["key": "value"], boundary: "Boundary+FIXED", constructingBody: build)
        let serialized = try serializer.multipartFormHTTPRequest(
            method: "POST", urlString: "http://x/upload", parameters: ["key": "value"], boundary: "Boundary+FIXED", constructingBody: build)
        let wire = try await Wire(serialized)
        #expect(try Wire(urlRequest) == wire)
        #expect(serialized.request.headerFields[.contentLength] == String(wire.body.count))
        #expect(serialized.body.length == UInt64(wire.body.count))
        #expect(throws: RequestSerializationError.multipartMethodNotAllowed("GET")) {
            try serializer.multipartFormHTTPRequest(method: "GET", urlString: "http://x/upload")
        }
    }

    @Test("an Encodable JSON body is the same in both forms")
    func encodableBodiesAgree() async throws {
        struct Order: Encodable { var orderID: Int; var placedAt: Date }
        var encoder = JSONBodyEncoder()
        encoder.keyEncodingStrategy = .convertToSnakeCase
        encoder.dateEncodingStrategy = .iso8601
        let serializer = JSONRequestSerializer(base: plainSerializer())
        let order = Order(orderID: 7, placedAt: Date(timeIntervalSince1970: 0))
        for method in ["POST", "GET"] {
            let a = try Wire(serializer.request(method: method, urlString: "http://x/o", body: order, encoder: encoder))
            let b = try await Wire(serializer.httpRequest(method: method, urlString: "http://x/o", body: order, encoder: encoder))
            #expect(a == b)
        }
    }

    @Test("serializing an HTTPRequest keeps its own fields first, adds the defaults it lacks, and keeps the body it came with")
    func serializingAnHTTPRequest() throws {
        var serializer = plainSerializer()
        try serializer.setValue("default", forHTTPHeaderField: "X-A")
        try serializer.setValue("default", forHTTPHeaderField: "X-B")
        var head = HTTPRequest(method: .post, scheme: "https", authority: "example.com", path: "/items")
        head.headerFields.append(HTTPField(name: HTTPField.Name("X-B")!, value: "mine"))
        head.headerFields.append(HTTPField(name: .cookie, value: "a=1"))
        head.headerFields.append(HTTPField(name: .cookie, value: "b=2"))
        let kept = try JSONRequestSerializer(base: serializer).serialize(head, body: .bytes(Data("raw".utf8)), parameters: nil)
        #expect(kept.request.headerFields.map(\.name.rawName) == ["X-B", "Cookie", "Cookie", "X-A"])
        #expect(kept.request.headerFields[HTTPField.Name("X-B")!] == "mine")
        #expect(kept.body.data == Data("raw".utf8))
        let form = try serializer.serialize(head, parameters: ["a": "1 2"])
        #expect(form.body.data == Data("a=1%202".utf8))
        #expect(form.request.headerFields[.contentType] == "application/x-www-form-urlencoded")
        #expect(form.request.path == "/items")
    }

    @Test("an HTTPRequest whose target would corrupt the request line is refused")
    func unsafeTargetsAreRefused() {
        let serializer = plainSerializer()
        let cases: [(HTTPRequest, String)] = [
            (HTTPRequest(method: .get, scheme: "http", authority: "x", path: "/a b"), "http://x/a b"),
            (HTTPRequest(method: .get, scheme: "http", authority: "x", path: "/a\r\nX: 1"), "http://x/a  X: 1"),
            (HTTPRequest(method: .get, scheme: "https", authority: "", path: "/"), "https:///"),
            (HTTPRequest(method: .get, scheme: "http", authority: "user@:80", path: "/"), "http://user@:80/"),
        ]
        for (head, text) in cases {
            #expect(throws: RequestSerializationError.invalidURL(text)) { try serializer.serialize(head, parameters: ["a": 1]) }
        }
    }

    @Test("a URL with a host and no path asks for / on the wire, and a URLRequest keeps it as written, fragment included and checked")
    func emptyPathAndFragment() throws {
        let serializer = plainSerializer()
        // As AFNetworking: the URL as written, the query joined to it.
        let built = try serializer.request(method: "GET", urlString: "http://host", parameters: ["q": 1])
        #expect(built.url?.absoluteString == "http://host?q=1")
        let handed = try serializer.serialize(URLRequest(url: URL(string: "http://host?a=1")!), parameters: ["q": 1])
        #expect(handed.url?.absoluteString == "http://host?a=1&q=1")
        // The request line asks for `/` in every form.
        #expect(try serializer.httpRequest(method: "GET", urlString: "http://host", parameters: ["q": 1]).request.path == "/?q=1")
        #expect(try SerializedRequest(built).request.path == "/?q=1")
        #expect(try SerializedRequest(URLRequest(url: URL(string: "http://host")!)).request.path == "/")

        let withFragment = try serializer.request(method: "GET", urlString: "http://host/a#part", parameters: ["q": 1])
        #expect(withFragment.url?.absoluteString == "http://host/a?q=1#part")
        #expect(throws: RequestSerializationError.self) {
            try serializer.request(method: "GET", urlString: "http://host/a#pa^rt", parameters: ["q": 1])
        }
    }

    @Test("a relative URL string stays relative in the HTTPRequest form")
    func relativeTargets() throws {
        let serialized = try plainSerializer().httpRequest(method: "GET", urlString: "url", parameters: ["a": 1])
        #expect(serialized.request.scheme == nil)
        #expect(serialized.request.authority == nil)
        #expect(serialized.request.path == "url?a=1")
    }
}

@Suite("swift-http-types: header fields")
struct HTTPTypesHeaderFieldsTests {
    @Test("HTTPFields convert both ways keeping order, spelling and repeated fields")
    func roundTrip() throws {
        var fields = HTTPFields()
        fields.append(HTTPField(name: HTTPField.Name("X-Trace")!, value: "1"))
        fields.append(HTTPField(name: .setCookie, value: "a=1"))
        fields.append(HTTPField(name: .accept, value: "text/html"))
        fields.append(HTTPField(name: .setCookie, value: "b=2"))
        let headers = try HTTPHeaderFields(fields)
        #expect(headers.map(\.name) == ["X-Trace", "Set-Cookie", "Accept", "Set-Cookie"])
        #expect(headers.value(forHTTPHeaderField: "set-cookie") == "a=1, b=2")
        #expect(headers.httpFields == fields)
        #expect(try HTTPHeaderFields(headers.httpFields) == headers)
    }

    @Test("setting a repeated field replaces all of it in its first position; removing removes every occurrence")
    func repeatedFieldsReplaceAndRemove() throws {
        var headers = HTTPHeaderFields()
        try headers.addValue("1", forHTTPHeaderField: "A")
        try headers.addValue("x", forHTTPHeaderField: "B")
        try headers.addValue("2", forHTTPHeaderField: "a")
        try headers.setValue("3", forHTTPHeaderField: "A")
        #expect(headers.map { "\($0.name)=\($0.value)" } == ["A=3", "B=x"])
        try headers.addValue("4", forHTTPHeaderField: "A")
        try headers.setValue(nil, forHTTPHeaderField: "a")
        #expect(headers.map(\.name) == ["B"])
    }

    @Test("a field HTTPFields accepted leniently but that carries a control character is refused")
    func controlCharactersAreRefused() {
        var fields = HTTPFields()
        fields.append(HTTPField(name: HTTPField.Name("X")!, lenientValue: Array("a\u{1}b".utf8)))
        #expect(throws: RequestSerializationError.invalidHeaderField(name: "X", reason: "the value contains a control character 0x1")) {
            try HTTPHeaderFields(fields)
        }
        #expect(throws: RequestSerializationError.invalidHeaderField(name: "X", reason: "the value contains a control character 0x1")) {
            var head = HTTPRequest(method: .get, scheme: "http", authority: "x", path: "/")
            head.headerFields = fields
            try head.validateForSending()
        }
    }
}

@Suite("Async bodies with a known length")
struct MultipartByteChunksTests {
    @Test("byteChunks yields the encoded body, its length is Content-Length, and a second iteration yields it again")
    func byteChunksReplayWithKnownLength() async throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let file = try folder.file("data.bin", contents: Data((0..<100_000).map { UInt8(truncatingIfNeeded: $0 &* 31) }))
        var form = try MultipartFormData(boundary: "Boundary+BYTES")
        try form.appendPart(fileURL: file, name: "file")
        try form.appendPart(formData: Data("value".utf8), name: "field")
        let expected = try form.encodedData()
        let chunks = form.byteChunks(size: 7_000)
        #expect(chunks.length == UInt64(expected.count))
        for _ in 0..<2 {
            var collected: [UInt8] = []
            var sizes: [Int] = []
            for try await chunk in chunks {
                collected += chunk
                sizes.append(chunk.count)
            }
            #expect(Data(collected) == expected)
            #expect(sizes.dropLast().allSatisfy { $0 == 7_000 })
        }
    }

    @Test("a part that fails mid-body ends byteChunks with the part's typed error")
    func byteChunksReportFailures() async throws {
        var form = try MultipartFormData(boundary: "b")
        try form.appendPart(streamFactory: { () throws -> any MultipartPartStream in ShortStream() },
                            name: "s", fileName: "s", length: 10, mimeType: "x/y")
        await #expect(throws: RequestSerializationError.multipartLengthMismatch(part: #"part 1 "s" (s)"#, declared: 10, actual: 3)) {
            for try await _ in form.byteChunks() {}
        }
    }
}

@Suite("Multipart part streams that misbehave")
struct MultipartPartStreamFailureTests {
    private func encode(_ stream: @escaping @Sendable () -> any MultipartPartStream) throws {
        var form = try MultipartFormData(boundary: "b")
        try form.appendPart(streamFactory: { stream() }, name: "s", fileName: "s", length: 10, mimeType: "x/y")
        _ = try form.encodedData()
    }

    @Test("an InputStream that claims more bytes than it was given room for is a typed error, never counted")
    func inputStreamClaimingTooMuchIsRefused() throws {
        var form = try MultipartFormData(boundary: "b")
        try form.appendPart(inputStream: ClaimingInputStream(count: 9999), name: "s", fileName: "s", length: 10, mimeType: "x/y")
        #expect(throws: RequestSerializationError.multipartSourceUnavailable(
            part: #"part 1 "s" (s)"#, reason: "the stream reported 9999 bytes read into a buffer of 10")) {
            _ = try form.encodedData()
        }
    }

    @Test("a stream's own error is reported for its part, with a MultipartStreamError's reason as given")
    func streamErrorsNameThePart() {
        #expect(throws: RequestSerializationError.multipartSourceUnavailable(part: #"part 1 "s" (s)"#, reason: "the disk went away")) {
            try encode { ThrowingStream(error: MultipartStreamError(reason: "the disk went away")) }
        }
        #expect(throws: RequestSerializationError.multipartSourceUnavailable(part: #"part 1 "s" (s)"#, reason: "the stream failed: unplugged")) {
            try encode { ThrowingStream(error: Unplugged()) }
        }
    }
}

private struct Unplugged: Error, CustomStringConvertible {
    var description: String { "unplugged" }
}

/// An `InputStream` subclass that reports `count` bytes read whatever room it was given.
private final class ClaimingInputStream: InputStream {
    let count: Int
    init(count: Int) {
        self.count = count
        super.init(data: Data())
    }
    override func open() {}
    override var streamStatus: Stream.Status { .open }
    override var hasBytesAvailable: Bool { true }
    override func read(_ buffer: UnsafeMutablePointer<UInt8>, maxLength length: Int) -> Int { count }
}

/// A part stream whose first read throws `error`.
private final class ThrowingStream: MultipartPartStream {
    let error: any Error
    init(error: any Error) { self.error = error }
    func read(into buffer: inout OutputSpan<UInt8>) throws { throw error }
    func close() {}
}

/// A part stream that delivers three bytes of the ten it is declared with.
private final class ShortStream: MultipartPartStream {
    private var sent = false

    func read(into buffer: inout OutputSpan<UInt8>) throws {
        guard !sent else { return }
        sent = true
        buffer.append(repeating: 0x61, count: min(3, buffer.freeCapacity))
    }

    func close() {}
}
