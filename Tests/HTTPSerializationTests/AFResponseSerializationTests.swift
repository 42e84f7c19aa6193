import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
#if canImport(FoundationXML)
import FoundationXML
#endif
import Testing
@testable import HTTPSerialization
@testable import HTTPSerializationCodable
@testable import HTTPSerializationCore
@testable import HTTPSerializationFoundation
@testable import HTTPSerializationImages
@testable import HTTPSerializationXML

@Suite("AFNetworking parity: JSON response serializer (§2b)")
struct AFJSONResponseTests {
    let serializer = JSONResponseSerializer()

    @Test("#5–#7 application/json, text/json and text/javascript are accepted", arguments: ["application/json", "text/json", "text/javascript"])
    func acceptsJSONTypes(type: String) throws {
        try serializer.validate(resp(200, type), data: jsonFoo)
    }

    @Test("#8 nonstandard/json is refused with AF's domain, code and description")
    func refusesNonstandardType() {
        do {
            try serializer.validate(resp(200, "nonstandard/json"), data: jsonFoo)
            Issue.record("nonstandard/json was accepted")
        } catch let error as ResponseSerializationError {
            #expect(error.nsError.domain == "com.alamofire.error.serialization.response")
            #expect(error.nsError.code == -1016)
            #expect(error.localizedDescription == "Request failed: unacceptable content-type: nonstandard/json")
            #expect(error.nsError.userInfo["com.alamofire.serialization.response.error.data"] as? Data == jsonFoo)
        } catch {
            Issue.record("unexpected \(error)")
        }
    }

    @Test("#9 a JSON object becomes a dictionary")
    func dictionaryForObject() throws {
        let object = try serializer.responseObject(for: resp(200, "text/json"), data: jsonFoo)
        #expect((object as? [String: Any])?["foo"] as? String == "bar")
    }

    @Test("#10 invalid JSON is an error")
    func invalidJSON() {
        #expect(throws: ResponseSerializationError.self) {
            try serializer.responseObject(for: resp(200, "text/json"), data: Data("{invalid}".utf8))
        }
    }

    @Test("#11 #12 empty data and a single space are nil without an error")
    func emptyAndSpace() throws {
        #expect(try serializer.responseObject(for: resp(200, "text/json"), data: Data()) == nil)
        #expect(try serializer.responseObject(for: resp(200, "text/json"), data: Data(" ".utf8)) == nil)
    }

    @Test("#13 null keys and null array elements are removed at every level")
    func removesNulls() throws {
        var serializer = serializer
        serializer.removesKeysWithNullValues = true
        let body = Data(#"{"key":"value","nullkey":null,"array":[{"subnullkey":null}],"arrayWithNulls":[null]}"#.utf8)
        let object = try #require(try serializer.responseObject(for: resp(200, "text/json"), data: body) as? [String: Any])
        #expect(object["key"] as? String == "value")
        #expect(object["nullkey"] == nil)
        #expect(((object["array"] as? [Any])?.first as? [String: Any])?.isEmpty == true)
        #expect((object["arrayWithNulls"] as? [Any])?.isEmpty == true)
    }

    @Test("#14–#16 copies and archives keep every field")
    func copyAndArchive() throws {
        var serializer = serializer
        serializer.acceptableStatusCodes = [100]
        serializer.acceptableContentTypes = ["test/type"]
        serializer.readingOptions = .mutableLeaves
        serializer.removesKeysWithNullValues = true
        let copy = serializer
        for candidate in [copy, try roundTrip(serializer)] {
            #expect(candidate.acceptableStatusCodes == [100])
            #expect(candidate.acceptableContentTypes == ["test/type"])
            #expect(candidate.readingOptions == .mutableLeaves)
            #expect(candidate.removesKeysWithNullValues)
        }
        let defaults = try roundTrip(JSONResponseSerializer())
        #expect(defaults.acceptableContentTypes == ["application/json", "text/json", "text/javascript"])
        #expect(defaults.acceptableStatusCodes == Set(200..<300))
    }
}

@Suite("AFNetworking parity: HTTP response serializer (§4)")
struct AFHTTPResponseTests {
    let serializer = HTTPResponseSerializer()

    @Test("#1 every 2xx code is accepted")
    func all2xx() throws {
        for code in 200...299 {
            #expect(serializer.acceptableStatusCodes?.contains(code) == true)
            try serializer.validate(resp(code, "text/html"), data: Data("text".utf8))
        }
    }

    @Test("#2 205 with no content type and no body passes; with a body it fails")
    func noContentTypeNoBody() throws {
        var serializer = serializer
        serializer.acceptableContentTypes = ["text/html"]
        try serializer.validate(resp(205), data: nil)
        #expect(throws: ResponseSerializationError.self) { try serializer.validate(resp(205), data: Data("test".utf8)) }
    }

    @Test("#3 205 with no content type and a body is error -1016")
    func noContentTypeWithBody() {
        var serializer = serializer
        serializer.acceptableContentTypes = ["text/html"]
        #expect(throws: ResponseSerializationError.unacceptableContentType(nil, response: ResponseContext(response: resp(205), data: Data("test".utf8)))) {
            try serializer.validate(resp(205), data: Data("test".utf8))
        }
    }

    @Test("#4 every 4xx and 5xx code fails with -1011 and AF's description")
    func all4xx5xx() {
        for code in 400...599 {
            #expect(serializer.acceptableStatusCodes?.contains(code) == false)
            do {
                try serializer.validate(resp(code, "text/html"), data: Data("text".utf8))
                Issue.record("\(code) was accepted")
            } catch let error as ResponseSerializationError {
                #expect(error.nsError.code == -1011)
                #expect(error.localizedDescription == "Request failed: \(HTTPStatusReason.phrase(for: code)) (\(code))")
            } catch {
                Issue.record("unexpected \(error)")
            }
        }
        #expect(HTTPStatusReason.phrase(for: 404) == "not found")
        #expect(HTTPStatusReason.phrase(for: 422) == "client error")
        #expect(HTTPStatusReason.phrase(for: 599) == "server error")
    }

    @Test("#5 a plain 200 text/html response is valid")
    func responseIsValidated() throws {
        try serializer.validate(resp(200, "text/html", url: URL(string: "http://test.com")!), data: Data("text".utf8))
        #expect(try serializer.responseObject(for: resp(200, "text/html"), data: Data("text".utf8)) == Data("text".utf8))
    }

    @Test("#6 #7 copies and archives keep the defaults")
    func copyAndArchive() throws {
        for candidate in [serializer, try roundTrip(serializer)] {
            #expect(candidate.acceptableContentTypes == nil)
            #expect(candidate.acceptableStatusCodes?.count == 100)
        }
    }
}

@Suite("AFNetworking parity: property list response serializer (§5)")
struct AFPropertyListResponseTests {
    let serializer = PropertyListResponseSerializer()

    @Test("#1 an XML plist becomes a dictionary")
    func acceptsPlist() throws {
        let data = try PropertyListSerialization.data(fromPropertyList: ["foo": "bar"], format: .xml, options: 0)
        let object = try serializer.responseObject(for: resp(200, "application/x-plist"), data: data)
        #expect((object as? [String: Any])?["foo"] as? String == "bar")
    }

    @Test("#2 JSON bytes are not a property list")
    func rejectsJSON() {
        #expect(throws: ResponseSerializationError.self) {
            try serializer.responseObject(for: resp(200, "application/x-plist"), data: jsonFoo)
        }
    }

    @Test("#3 a 204 with no data is nil without an error")
    func handles204() throws {
        #expect(try serializer.responseObject(for: resp(204, "application/x-plist"), data: nil) == nil)
    }

    @Test("#4 #5 copies and archives keep every field")
    func copyAndArchive() throws {
        var serializer = serializer
        serializer.acceptableContentTypes = ["test/type"]
        serializer.acceptableStatusCodes = [100]
        serializer.format = .xml
        serializer.readOptions = .mutableContainers
        for candidate in [serializer, try roundTrip(serializer)] {
            #expect(candidate.format == .xml)
            #expect(candidate.readOptions == .mutableContainers)
            #expect(candidate.acceptableContentTypes == ["test/type"])
            #expect(candidate.acceptableStatusCodes == [100])
        }
    }
}

@Suite("AFNetworking parity: XML serializers (§6, §7)")
struct AFXMLResponseTests {
    @Test("§6 #1 #2 §7 #1 #2 application/xml and text/xml are accepted", arguments: ["application/xml", "text/xml"])
    func acceptsXMLTypes(type: String) throws {
        try XMLDocumentResponseSerializer().validate(resp(200, type), data: xmlFoo)
        try XMLParserResponseSerializer().validate(resp(200, type), data: xmlFoo)
    }

    @Test("§6 #3 §7 #3 nonstandard/xml is refused")
    func refusesNonstandard() {
        #expect(throws: ResponseSerializationError.self) { try XMLDocumentResponseSerializer().validate(resp(200, "nonstandard/xml"), data: xmlFoo) }
        #expect(throws: ResponseSerializationError.self) { try XMLParserResponseSerializer().validate(resp(200, "nonstandard/xml"), data: xmlFoo) }
    }

    @Test("§6 #4 valid XML becomes a document whose root is foo")
    func documentForValidXML() throws {
        let document = try XMLDocumentResponseSerializer().responseObject(for: resp(200, "application/xml"), data: xmlFoo)
        #expect(document.rootElement()?.name == "foo")
        #expect(document.rootElement()?.elements(forName: "bar").first?.stringValue == "someValue")
    }

    @Test("§6 #5 truncated, mismatched and empty XML are errors, never a crash", arguments: ["<foo", "<a><b></a></b>", "", "   ", "not xml"])
    func invalidXML(text: String) {
        #expect(throws: ResponseSerializationError.self) {
            try XMLDocumentResponseSerializer().responseObject(for: resp(200, "application/xml"), data: Data(text.utf8))
        }
    }

    @Test("§7 #4 valid XML gives an unstarted parser that parses it")
    func parserForValidXML() throws {
        let parser = try #require(try XMLParserResponseSerializer().responseObject(for: resp(200, "application/xml"), data: xmlFoo))
        #expect(parser.parse())
    }

    @Test("§6 #6 §7 #5 copies and archives keep every field")
    func copyAndArchive() throws {
        var document = XMLDocumentResponseSerializer()
        document.acceptableStatusCodes = [100]
        document.acceptableContentTypes = ["test/type"]
        document.options = XMLNode.Options(rawValue: 1)
        for candidate in [document, try roundTrip(document)] {
            #expect(candidate.acceptableStatusCodes == [100])
            #expect(candidate.acceptableContentTypes == ["test/type"])
            #expect(candidate.options.rawValue == 1)
        }
        var parser = XMLParserResponseSerializer()
        parser.acceptableStatusCodes = [100]
        parser.acceptableContentTypes = ["test/type"]
        for candidate in [parser, try roundTrip(parser)] {
            #expect(candidate.acceptableStatusCodes == [100])
            #expect(candidate.acceptableContentTypes == ["test/type"])
        }
    }
}

@Suite("AFNetworking parity: compound and image serializers (§8, §9)")
struct AFCompoundAndImageTests {
    static func compound() -> CompoundResponseSerializer {
        CompoundResponseSerializer([AnyResponseSerializer(ImageResponseSerializer()), AnyResponseSerializer(JSONResponseSerializer())])
    }

    @Test("§8 #1 the JSON serializer answers after the image serializer declines")
    func compoundSerializes() throws {
        let object = try Self.compound().responseObject(for: resp(200, "application/json", url: URL(string: "http://test.com")!), data: Data(#"{"key":"value"}"#.utf8))
        #expect((object as? [String: Any])?["key"] as? String == "value")
    }

    @Test("§8 #2 #3 copies and archives keep the children in order and the base fields")
    func compoundCopyAndArchive() throws {
        var compound = Self.compound()
        compound.acceptableStatusCodes = [100]
        compound.acceptableContentTypes = ["test/type"]
        for candidate in [compound, try roundTrip(compound)] {
            #expect(candidate.serializers.count == 2)
            #expect(candidate.serializers[0].wrappedType is ImageResponseSerializer.Type)
            #expect(candidate.serializers[1].wrappedType is JSONResponseSerializer.Type)
            #expect(candidate.acceptableStatusCodes == [100])
            #expect(candidate.acceptableContentTypes == ["test/type"])
        }
    }

    @Test("§9 #1–#4 image serializer copies and archives keep every field")
    func imageCopyAndArchive() throws {
        let defaults = try roundTrip(ImageResponseSerializer())
        #expect(defaults.acceptableContentTypes == [
            "image/tiff", "image/jpeg", "image/gif", "image/png", "image/ico", "image/x-icon",
            "image/bmp", "image/x-bmp", "image/x-xbitmap", "image/x-win-bitmap",
        ])
        #expect(defaults.acceptableStatusCodes == Set(200..<300))
        var custom = ImageResponseSerializer()
        custom.acceptableContentTypes = ["test/type"]
        custom.acceptableStatusCodes = [100]
        custom.automaticallyInflatesResponseImage.toggle()
        custom.imageScale *= 2
        custom.maximumPixelCount = 1234
        for candidate in [custom, try roundTrip(custom)] {
            #expect(candidate.acceptableContentTypes == ["test/type"])
            #expect(candidate.acceptableStatusCodes == [100])
            #expect(candidate.automaticallyInflatesResponseImage == false)
            #expect(abs(candidate.imageScale - 2) <= 0.001)
            #expect(candidate.maximumPixelCount == 1234)
        }
    }
}
