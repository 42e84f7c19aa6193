import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
#if canImport(FoundationXML)
import FoundationXML
#endif
import HTTPSerialization

private final class Reader: NSObject, XMLParserDelegate {
    func parser(_ parser: XMLParser, didStartElement elementName: String, namespaceURI: String?,
                qualifiedName qName: String?, attributes attributeDict: [String: String] = [:]) {}
    func parser(_ parser: XMLParser, foundCharacters string: String) {}
}

private let types = [nil, "application/json", "application/xml", "text/xml", "application/x-plist", "image/png", "image/jpeg",
                     "image/gif", "text/html", "application/problem+json", "*/*", ""]

/// Every response serializer on arbitrary bytes and content types: a value or a typed
/// error, never a crash, a hang or an untyped error.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzResponses(_ start: UnsafeRawPointer?, _ count: Int) -> CInt {
    var input = FuzzBytes(UnsafeRawBufferPointer(start: start, count: count))
    let status = [200, 204, 404, 500][input.below(4)]
    let type = types[input.below(types.count)]
    let data = Data(input.rest())
    let response = HTTPURLResponse(url: URL(string: "http://127.0.0.1/")!, statusCode: status, httpVersion: "HTTP/1.1",
                                   headerFields: type.map { ["Content-Type": $0] } ?? [:])!
    var image = ImageResponseSerializer()
    image.acceptableContentTypes = nil
    var json = JSONResponseSerializer()
    json.removesKeysWithNullValues = true
    let attempts: [() throws -> Void] = [
        { _ = try HTTPResponseSerializer().responseObject(for: response, data: data) },
        { _ = try json.responseObject(for: response, data: data) },
        { _ = try DecodableResponseSerializer([String: Int]?.self).responseObject(for: response, data: data) },
        {
            let reader = Reader()
            let parser = try XMLParserResponseSerializer().responseObject(for: response, data: data)
            parser?.delegate = reader
            _ = parser?.parse()
        },
        { _ = try XMLDocumentResponseSerializer().responseObject(for: response, data: data) },
        { _ = try PropertyListResponseSerializer().responseObject(for: response, data: data) },
        { _ = try image.responseObject(for: response, data: data) },
    ]
    for attempt in attempts {
        do { try attempt() } catch is any HTTPSerializationError {} catch { require(false, "an untyped error: \(error)") }
    }
    return 0
}
