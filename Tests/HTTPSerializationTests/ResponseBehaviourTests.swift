import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
#if canImport(FoundationXML)
import FoundationXML
#endif
import EchoServer
import Testing
@testable import HTTPSerialization
@testable import HTTPSerializationCodable
@testable import HTTPSerializationCore
@testable import HTTPSerializationFoundation
@testable import HTTPSerializationImages
@testable import HTTPSerializationXML

@Suite("Response validation: matching rules and AF fixes")
struct ResponseValidationTests {
    @Test("content types match case-insensitively, ignoring parameters")
    func caseAndParameters() throws {
        try JSONResponseSerializer().validate(resp(200, "Application/JSON; charset=UTF-8"), data: jsonFoo)
    }

    @Test("wildcards: type/*, */* and application/*+json", arguments: [
        ("image/*", "image/webp", true), ("image/*", "text/plain", false), ("*/*", "anything/else", true),
        ("application/*+json", "application/problem+json", true), ("application/*+json", "application/json", false),
        ("application/*+xml", "application/atom+xml", true), ("*/*+json", "text/x+json", true),
    ])
    func wildcards(pattern: String, type: String, accepted: Bool) {
        let serializer = HTTPResponseSerializer(acceptableContentTypes: [pattern])
        #expect((try? serializer.validate(resp(200, type), data: Data("x".utf8))) != nil ? accepted : !accepted)
    }

    @Test("structured suffixes on request: application/json accepts application/vnd.api+json")
    func structuredSuffixes() throws {
        var serializer = JSONResponseSerializer()
        #expect(throws: ResponseSerializationError.self) { try serializer.validate(resp(200, "application/vnd.api+json"), data: jsonFoo) }
        serializer.contentTypeMatching.acceptsStructuredSuffixes = true
        try serializer.validate(resp(200, "application/vnd.api+json"), data: jsonFoo)
        #expect(throws: ResponseSerializationError.self) { try serializer.validate(resp(200, "application/vnd.api+xml"), data: jsonFoo) }
    }

    @Test("an optional charset check")
    func charsetCheck() throws {
        var serializer = JSONResponseSerializer()
        serializer.contentTypeMatching.acceptableCharsets = ["utf-8"]
        try serializer.validate(resp(200, "application/json; charset=UTF-8"), data: jsonFoo)
        try serializer.validate(resp(200, "application/json"), data: jsonFoo)
        #expect(throws: ResponseSerializationError.self) { try serializer.validate(resp(200, "application/json; charset=iso-8859-1"), data: jsonFoo) }
    }

    @Test("fix: an unacceptable content type is reported even with an empty body")
    func emptyBodyStillReported() {
        #expect(throws: ResponseSerializationError.self) { try JSONResponseSerializer().validate(resp(200, "text/html"), data: Data()) }
    }

    @Test("fix: the status is checked even when the response has no URL")
    func statusWithoutURL() {
        let response = HTTPURLResponse(url: URL(string: "about:blank")!, statusCode: 500, httpVersion: nil, headerFields: nil)!
        #expect(throws: ResponseSerializationError.self) { try HTTPResponseSerializer().validate(response, data: nil) }
    }

    @Test("a status failure sits on top of a content-type failure, each carrying response and body")
    func chainedErrors() {
        let response = resp(500, "text/html")
        let body = Data("<h1>oops</h1>".utf8)
        do {
            try JSONResponseSerializer().validate(response, data: body)
            Issue.record("accepted")
        } catch let ResponseSerializationError.unacceptableStatusCode(code, context, underlying?) {
            #expect(code == 500)
            #expect(context.data == body)
            #expect(context.urlResponse === response)
            #expect(context.response?.status == 500)
            #expect(context.response?.headerFields[.contentType] == "text/html")
            #expect(underlying == .unacceptableContentType("text/html", response: ResponseContext(response: response, data: body)))
            #expect((ResponseSerializationError.unacceptableStatusCode(code, response: context, underlying: underlying).nsError
                .userInfo[NSUnderlyingErrorKey] as? NSError)?.code == -1016)
        } catch {
            Issue.record("unexpected \(error)")
        }
    }

    @Test("a non-HTTP response passes validation")
    func nonHTTPResponse() throws {
        let response = URLResponse(url: URL(string: "file:///tmp/x")!, mimeType: "text/plain", expectedContentLength: 1, textEncodingName: nil)
        try JSONResponseSerializer().validate(response, data: jsonFoo)
    }
}

@Suite("JSON and Decodable response serializers")
struct JSONAndDecodableResponseTests {
    struct APIError: Decodable, Equatable { var message: String }
    struct User: Decodable, Equatable { var name: String }

    @Test("a failed status still parses the body and attaches it to the error")
    func statusFailureAttachesBody() {
        do {
            _ = try JSONResponseSerializer().responseObject(for: resp(404, "application/json"), data: Data(#"{"message":"missing"}"#.utf8))
            Issue.record("accepted")
        } catch let ResponseSerializationError.unacceptableStatusCode(_, context, _) {
            #expect(context.decodedBody == ["message": "missing"])
        } catch {
            Issue.record("unexpected \(error)")
        }
    }

    @Test("an unacceptable content type is not parsed; unparsable JSON wraps the status failure")
    func parseErrors() {
        do {
            _ = try JSONResponseSerializer().responseObject(for: resp(500, "application/json"), data: Data("{bad".utf8))
            Issue.record("accepted")
        } catch let ResponseSerializationError.unreadableJSON(reason, _, validation) {
            #expect(reason.offset == 1)
            if case .unacceptableStatusCode(500, _, _)? = validation {} else { Issue.record("no status failure underneath") }
        } catch {
            Issue.record("unexpected \(error)")
        }
    }

    @Test("trailing commas and nesting past the limit are refused on every platform", arguments: ["[1,]", #"{"a":1,}"#, "[[1,],2]"])
    func strictJSON(text: String) {
        #expect(throws: ResponseSerializationError.self) {
            try JSONResponseSerializer().responseObject(for: resp(200, "application/json"), data: Data(text.utf8))
        }
    }

    @Test("nesting is bounded: at the limit it parses, beyond it is an error, never a crash")
    func depthLimit() throws {
        var serializer = JSONResponseSerializer()
        serializer.maximumDepth = 64
        let deep = String(repeating: "[", count: 64) + String(repeating: "]", count: 64)
        #expect(try serializer.responseObject(for: resp(200, "application/json"), data: Data(deep.utf8)) != nil)
        let deeper = String(repeating: "[", count: 100_000)
        #expect(throws: ResponseSerializationError.self) {
            try serializer.responseObject(for: resp(200, "application/json"), data: Data(deeper.utf8))
        }
    }

    @Test("fragments with .fragmentsAllowed; whitespace-only bodies are nil")
    func fragmentsAndWhitespace() throws {
        var serializer = JSONResponseSerializer()
        #expect(throws: ResponseSerializationError.self) { try serializer.responseObject(for: resp(200, "application/json"), data: Data("42".utf8)) }
        serializer.readingOptions = .fragmentsAllowed
        #expect(try serializer.responseObject(for: resp(200, "application/json"), data: Data("42".utf8)) as? Int == 42)
        #expect(try serializer.responseObject(for: resp(200, "application/json"), data: Data(" \r\n\t ".utf8)) == nil)
    }

    @Test("Decodable: decodes, and empty bodies follow the empty-body policy")
    func decodablePolicy() throws {
        #expect(try DecodableResponseSerializer(User.self).responseObject(for: resp(200, "application/json"), data: Data(#"{"name":"Ann"}"#.utf8)) == User(name: "Ann"))
        #expect(try DecodableResponseSerializer(User?.self).responseObject(for: resp(204), data: nil) == nil)
        #expect(try DecodableResponseSerializer(EmptyResponse.self).responseObject(for: resp(205), data: Data()) == EmptyResponse())
        #expect(throws: ResponseSerializationError.self) { try DecodableResponseSerializer(User.self).responseObject(for: resp(204), data: nil) }
        #expect(throws: ResponseSerializationError.self) { try DecodableResponseSerializer(User?.self).responseObject(for: resp(200, "application/json"), data: Data()) }
        var head = URLRequest(url: baseURL)
        head.httpMethod = "HEAD"
        #expect(try DecodableResponseSerializer(User?.self).decode(response: resp(200, "application/json"), data: Data(), request: head) == nil)
        var zeroLength = DecodableResponseSerializer(User?.self)
        let response = resp(200, "application/json", headers: ["Content-Length": "0"])
        #expect(throws: ResponseSerializationError.self) { try zeroLength.responseObject(for: response, data: Data()) }
        zeroLength.treatsZeroContentLengthAsEmpty = true
        #expect(try zeroLength.responseObject(for: response, data: Data()) == nil)
        #expect(try DecodableResponseSerializer(User?.self).responseObject(for: resp(204, "application/json"), data: Data("  ".utf8)) == nil)
    }

    @Test("Decodable: the server's error payload decodes from a failed validation")
    func errorPayload() {
        let serializer = DecodableResponseSerializer(User.self)
        do {
            _ = try serializer.responseObject(for: resp(422, "application/json"), data: Data(#"{"message":"name taken"}"#.utf8))
            Issue.record("accepted")
        } catch {
            #expect(serializer.decodeErrorPayload(APIError.self, from: error) == APIError(message: "name taken"))
            #expect(serializer.decodeErrorPayload(User.self, from: error) == nil)
        }
    }

    @Test("Decodable with a property-list decoder")
    func propertyListDecoder() throws {
        let data = try PropertyListSerialization.data(fromPropertyList: ["name": "Bo"], format: .binary, options: 0)
        let serializer = DecodableResponseSerializer(User.self, decoder: PropertyListDecoder(),
                                                     base: HTTPResponseSerializer(acceptableContentTypes: ["application/x-plist"]))
        #expect(try serializer.responseObject(for: resp(200, "application/x-plist"), data: data) == User(name: "Bo"))
    }
}

@Suite("Property list and XML response safety")
struct MarkupResponseSafetyTests {
    @Test("only XML and binary property lists are read; OpenStep text is refused", arguments: ["abc", #"{ a = b; }"#, "(1, 2)"])
    func openStepRefused(text: String) {
        #expect(throws: ResponseSerializationError.self) {
            try PropertyListResponseSerializer().responseObject(for: resp(200, "application/x-plist"), data: Data(text.utf8))
        }
    }

    @Test("binary property lists are read")
    func binaryPlist() throws {
        let data = try PropertyListSerialization.data(fromPropertyList: ["n": 1], format: .binary, options: 0)
        #expect((try PropertyListResponseSerializer().responseObject(for: resp(200, "application/x-plist"), data: data) as? [String: Int]) == ["n": 1])
    }

    final class TextCollector: NSObject, XMLParserDelegate {
        var text = ""
        func parser(_ parser: XMLParser, foundCharacters string: String) { text += string }
        func parser(_ parser: XMLParser, resolveExternalEntityName name: String, systemID: String?) -> Data? {
            Data("RESOLVED".utf8)
        }
    }

    // Regressions for crashes the fuzz test found in FoundationXML on Linux.

    @Test("fuzz regression: input with no root element (XMLParser says true) is an error, not an XMLDocument crash",
          arguments: [Data("b".utf8), Data([0x12]), Data([0x00, 0xB1, 0x36]), Data("<?xml version=\"1.0\"?>".utf8)])
    func noRootElement(data: Data) {
        #expect(throws: ResponseSerializationError.self) {
            try XMLDocumentResponseSerializer().responseObject(for: resp(200, "application/xml"), data: data)
        }
    }

    @Test("fuzz regression: a UTF-8 document with invalid bytes in a name is refused before FoundationXML traps")
    func invalidUTF8Name() {
        var data = Data(#"<?xml version="1.0" encoding="UTF-8"?><foo attr1="1"><bar>x</bar></foo>"#.utf8)
        data[42] = 0xD9
        #expect(throws: ResponseSerializationError.self) {
            try XMLParserResponseSerializer().responseObject(for: resp(200, "application/xml"), data: data)
        }
        #expect(throws: ResponseSerializationError.self) {
            try XMLDocumentResponseSerializer().responseObject(for: resp(200, "application/xml"), data: data)
        }
    }

    @Test("fuzz regression: an unknown declared encoding is refused; known ones are converted", arguments: [
        ("UTF-9", false), ("x", false), ("ISO-8859-1", true), ("windows-1252", true), ("utf-8", true),
    ])
    func declaredEncodings(name: String, accepted: Bool) {
        let data = Data("<?xml version=\"1.0\" encoding=\"\(name)\"?><a>\u{00E9}</a>".utf8)
        let result = try? XMLParserResponseSerializer().responseObject(for: resp(200, "application/xml"), data: data)
        #expect((result != nil) == accepted)
    }

    @Test("fuzz regression: a processing instruction without data is refused before FoundationXML segfaults", arguments: [
        "<a><?pi?></a>", "<a><?pi   ?></a>", "<?xSequen?><a x\">=a <1x=\"1\"><ba>", "<a><?pi",
        "<?x x=\"1\">n?><a x\"\"1\"><?\"1x \"x=<?xSequen?><a x\">n?=a ><b>t%/b?5",
    ])
    func processingInstructionWithoutData(text: String) {
        #expect(throws: ResponseSerializationError.self) {
            try XMLDocumentResponseSerializer().responseObject(for: resp(200, "application/xml"), data: Data(text.utf8))
        }
        #expect(throws: ResponseSerializationError.self) {
            try XMLParserResponseSerializer().responseObject(for: resp(200, "application/xml"), data: Data(text.utf8))
        }
    }

    @Test("processing instructions with data still parse")
    func processingInstructionWithData() throws {
        let data = Data(#"<?xml version="1.0"?><?xml-stylesheet href="a.css"?><a><?pi data?></a>"#.utf8)
        let document = try XMLDocumentResponseSerializer().responseObject(for: resp(200, "application/xml"), data: data)
        #expect(document.rootElement()?.name == "a")
    }

    @Test("XXE: an external entity naming a local file is refused, by policy or as an external reference, never read")
    func localFileEntity() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let secret = try folder.file("secret.txt", contents: Data("TOP-SECRET-XXE".utf8))
        let xml = Data("""
            <?xml version="1.0"?><!DOCTYPE foo [<!ENTITY xxe SYSTEM "\(secret.absoluteString)">]><foo>a&xxe;b</foo>
            """.utf8)
        let context = ResponseContext(response: resp(200, "application/xml"), data: xml)
        #expect(throws: ResponseSerializationError.unreadableBody(XMLReadingError(.entityDeclarationsNotAllowed, offset: 36), response: context)) {
            try XMLParserResponseSerializer().responseObject(for: resp(200, "application/xml"), data: xml)
        }
        var policy = XMLReadingPolicy()
        policy.allowsEntityDeclarations = true
        let offset = xml.firstRange(of: Data("&xxe;".utf8))!.lowerBound
        let refused = ResponseSerializationError.unreadableBody(XMLReadingError(.externalEntityReference("xxe"), offset: offset), response: context)
        #expect(throws: refused) {
            try XMLParserResponseSerializer(readingPolicy: policy).responseObject(for: resp(200, "application/xml"), data: xml)
        }
        #expect(throws: refused) {
            try XMLDocumentResponseSerializer(readingPolicy: policy).responseObject(for: resp(200, "application/xml"), data: xml)
        }
    }

    @Test("XXE: an external entity declared but never referenced is not fetched from a loopback server")
    func urlEntity() async throws {
        let server = try await EchoServer.start()
        let xml = Data("""
            <?xml version="1.0"?><!DOCTYPE foo [<!ENTITY xxe SYSTEM "\(server.baseURL.absoluteString)/xxe">]><foo>x</foo>
            """.utf8)
        var policy = XMLReadingPolicy()
        policy.allowsEntityDeclarations = true
        let parser = try #require(try XMLParserResponseSerializer(readingPolicy: policy).responseObject(for: resp(200, "application/xml"), data: xml))
        let collector = TextCollector()
        parser.delegate = collector
        _ = parser.parse()
        let document = try XMLDocumentResponseSerializer(readingPolicy: policy).responseObject(for: resp(200, "application/xml"), data: xml)
        _ = document.xmlString
        try await Task.sleep(nanoseconds: 200_000_000)
        #expect(server.requestCount == 0)
        #expect(collector.text == "x")
        try await server.stop()
    }
}

@Suite("Image response serializer")
struct ImageResponseTests {
    let serializer = ImageResponseSerializer()

    @Test("a hand-made RGBA PNG decodes to its exact pixels")
    func pngPixels() throws {
        let png = ImageFixtures.png(width: 3, height: 2) { x, y in [UInt8(x * 80), UInt8(y * 200), 7, UInt8(255 - x)] }
        let image = try #require(try serializer.responseObject(for: resp(200, "image/png"), data: png))
        #expect(image.format == .png)
        #expect((image.width, image.height) == (3, 2))
        for y in 0..<2 { for x in 0..<3 {
            let pixel = try #require(image.pixel(x: x, y: y))
            #expect([pixel.red, pixel.green, pixel.blue, pixel.alpha] == [UInt8(x * 80), UInt8(y * 200), 7, UInt8(255 - x)])
        } }
    }

    @Test("a gray PNG is expanded to opaque RGBA")
    func grayPNG() throws {
        let png = ImageFixtures.png(width: 2, height: 2, colorType: 0) { x, y in [UInt8(x * 100 + y * 10)] }
        let image = try #require(try serializer.responseObject(for: resp(200, "image/png"), data: png))
        let pixel = try #require(image.pixel(x: 1, y: 1))
        #expect([pixel.red, pixel.green, pixel.blue, pixel.alpha] == [110, 110, 110, 255])
    }

    @Test("a JPEG made by libjpeg decodes to its colours within JPEG's tolerance, at the serializer's scale")
    func jpegPixels() throws {
        let jpeg = try #require(ImageFixtures.jpeg(width: 32, height: 16) { x, _ in x < 16 ? [220, 20, 30] : [10, 40, 200] })
        var serializer = serializer
        serializer.imageScale = 2
        let image = try #require(try serializer.responseObject(for: resp(200, "image/jpeg"), data: jpeg))
        #expect(image.format == .jpeg)
        #expect((image.width, image.height, image.scale) == (32, 16, 2))
        let left = try #require(image.pixel(x: 4, y: 8))
        let right = try #require(image.pixel(x: 28, y: 8))
        func close(_ a: UInt8, _ b: UInt8) -> Bool { abs(Int(a) - Int(b)) <= 12 }
        #expect(close(left.red, 220) && close(left.green, 20) && close(left.blue, 30) && left.alpha == 255)
        #expect(close(right.red, 10) && close(right.green, 40) && close(right.blue, 200))
    }

    static let headerFixtures: [(bytes: [UInt8], header: ImageHeader)] = {
        let gif: [UInt8] = Array("GIF89a".utf8) + [0x40, 0x01, 0xF0, 0x00]
        let bmpHead: [UInt8] = Array("BM".utf8) + [UInt8](repeating: 0, count: 12)
        let bmp: [UInt8] = bmpHead + [40, 0, 0, 0, 0x20, 0, 0, 0, 0xF0, 0xFF, 0xFF, 0xFF]
        let icoEntry: [UInt8] = [UInt8](repeating: 0, count: 14)
        let ico: [UInt8] = [0, 0, 1, 0, 2, 0, 16, 16] + icoEntry + [0, 0] + icoEntry
        let tiff: [UInt8] = [0x49, 0x49, 0x2A, 0, 8, 0, 0, 0, 2, 0, 0, 1, 3, 0, 1, 0, 0, 0, 0x80, 0, 0, 0, 1, 1, 4, 0, 1, 0, 0, 0, 0x40, 0, 0, 0]
        let riff: [UInt8] = Array("RIFF".utf8) + [0, 0, 0, 0]
        let webpX: [UInt8] = riff + Array("WEBPVP8X".utf8) + [UInt8](repeating: 0, count: 8) + [99, 0, 0, 49, 0, 0]
        let webpL: [UInt8] = riff + Array("WEBPVP8L".utf8) + [0, 0, 0, 0] + [0x2F, 0x09, 0xC0, 0x04, 0x00]
        return [
            (gif, ImageHeader(format: .gif, width: 320, height: 240)),
            (bmp, ImageHeader(format: .bmp, width: 32, height: 16)),
            (ico, ImageHeader(format: .ico, width: 256, height: 256)),
            (tiff, ImageHeader(format: .tiff, width: 128, height: 64)),
            (webpX, ImageHeader(format: .webp, width: 100, height: 50)),
            (webpL, ImageHeader(format: .webp, width: 10, height: 20)),
        ]
    }()

    @Test("GIF, BMP, ICO, TIFF and WebP are measured from their headers and reported as not decoded, never as images",
          arguments: 0..<6)
    func headerSizes(fixture: Int) throws {
        let (bytes, expected) = Self.headerFixtures[fixture]
        let data = Data(bytes)
        let (format, width, height) = (expected.format, expected.width, expected.height)
        let header = try #require(ImageHeader(data: data))
        #expect(header == ImageHeader(format: format, width: width, height: height))
        var serializer = serializer
        serializer.acceptableContentTypes = nil
        #if canImport(UIKit) || canImport(AppKit)
        _ = try? serializer.responseObject(for: resp(200), data: data)
        #else
        #expect(throws: ResponseSerializationError.unreadableBody(ImageReadingError(.notDecoded(format)), response: ResponseContext(response: resp(200), data: data))) {
            try serializer.responseObject(for: resp(200), data: data)
        }
        #endif
    }

    @Test("a decompression bomb is refused from its header before decoding")
    func pixelCap() throws {
        try expectRefused(ImageFixtures.pngClaiming(width: 100_000, height: 100_000), width: 100_000, height: 100_000, limit: 16_777_216)
        var small = serializer
        small.maximumPixelCount = 5
        let png = ImageFixtures.png(width: 3, height: 2) { _, _ in [1, 2, 3, 4] }
        #expect(throws: ResponseSerializationError.self) { try small.responseObject(for: resp(200, "image/png"), data: png) }
    }

    @Test("corrupt and truncated images are typed errors")
    func corruptImages() throws {
        let png = ImageFixtures.png(width: 8, height: 8) { x, y in [UInt8(x), UInt8(y), 0, 255] }
        #expect(throws: ResponseSerializationError.self) { try serializer.responseObject(for: resp(200, "image/png"), data: png.prefix(60)) }
        var flipped = png
        flipped[40] ^= 0xFF
        #expect(throws: ResponseSerializationError.self) { try serializer.responseObject(for: resp(200, "image/png"), data: flipped) }
        #expect(throws: ResponseSerializationError.self) { try serializer.responseObject(for: resp(200, "image/png"), data: Data("not an image".utf8)) }
        #expect(try serializer.responseObject(for: resp(200, "image/png"), data: Data()) == nil)
    }
}

@Suite("Image decoding: corrupt data, colour spaces and budgets")
struct ImageHardeningTests {
    let serializer = ImageResponseSerializer()

    #if !canImport(UIKit) && !canImport(AppKit)
    @Test("a truncated JPEG is an error, not a gray-filled image; allowsCorruptJPEGData opts back in")
    func truncatedJPEG() throws {
        let jpeg = try #require(ImageFixtures.jpeg(width: 64, height: 64) { x, y in [UInt8(x * 4), UInt8(y * 4), 128] })
        let truncated = jpeg.prefix(jpeg.count * 6 / 10)
        let context = ResponseContext(response: resp(200, "image/jpeg"), data: truncated)
        #expect(throws: ResponseSerializationError.unreadableBody(
            ImageReadingError(.corrupt(format: .jpeg, detail: "Premature end of JPEG file")), response: context)) {
            try serializer.responseObject(for: resp(200, "image/jpeg"), data: truncated)
        }
        var lenient = serializer
        lenient.allowsCorruptJPEGData = true
        let image = try #require(try lenient.responseObject(for: resp(200, "image/jpeg"), data: truncated))
        #expect((image.width, image.height) == (64, 64))
    }

    @Test("CMYK and YCCK JPEGs decode to RGBA", arguments: [false, true])
    func cmykJPEG(ycck: Bool) throws {
        // Stored (inverted) samples: red is c=255 m=0 y=0 k=255; blue is c=0 m=0 y=255 k=255.
        let jpeg = try #require(ImageFixtures.jpegCMYK(width: 16, height: 8, ycck: ycck) { x, _ in
            x < 8 ? [255, 0, 0, 255] : [0, 0, 255, 255]
        })
        let image = try #require(try serializer.responseObject(for: resp(200, "image/jpeg"), data: jpeg))
        func close(_ a: UInt8, _ b: UInt8) -> Bool { abs(Int(a) - Int(b)) <= 16 }
        let left = try #require(image.pixel(x: 2, y: 4))
        let right = try #require(image.pixel(x: 13, y: 4))
        #expect(close(left.red, 255) && close(left.green, 0) && close(left.blue, 0) && left.alpha == 255)
        #expect(close(right.red, 0) && close(right.green, 0) && close(right.blue, 255))
    }
    #endif

    @Test("a small body that asks for a large pixel buffer is refused before decoding")
    func decodeBudget() throws {
        // 10,000 × 10,000 is within the 100-megapixel cap, but 400 MB of RGBA for ~70 bytes is not.
        try expectRefused(ImageFixtures.pngClaiming(width: 10_000, height: 10_000), width: 10_000, height: 10_000, limit: 16_777_216)
        let budget = ImageDecodeBudget()
        #expect(budget.bytes(forBodySize: 2_400) == 64 << 20)            // a 2.4 KB JPEG: 64 MiB, not 400 MB
        #expect(budget.bytes(forBodySize: 97_000) == 198_656_000)        // a 97 KB PNG: under 200 MB
        #expect(budget.bytes(forBodySize: 3_000_000) == 256 << 20)        // a 3 MB photo: the 256 MiB ceiling
        #expect(budget.bytes(forBodySize: Int.max) == 256 << 20)
    }
}

/// Expects `png` to be refused from its header as too large, with this limit.
private func expectRefused(_ png: Data, width: Int, height: Int, limit: Int) throws {
    #expect(throws: ResponseSerializationError.unreadableBody(
        ImageReadingError(.tooLarge(width: width, height: height, limit: limit)), response: ResponseContext(response: resp(200, "image/png"), data: png))) {
        try ImageResponseSerializer().responseObject(for: resp(200, "image/png"), data: png)
    }
}
