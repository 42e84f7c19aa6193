import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
#if canImport(FoundationXML)
import FoundationXML
#endif
import HTTPSerialization

private final class Recorder: NSObject, XMLParserDelegate {
    var errors = 0
    func parser(_ parser: XMLParser, didStartElement elementName: String, namespaceURI: String?,
                qualifiedName qName: String?, attributes attributeDict: [String: String] = [:]) {}
    func parser(_ parser: XMLParser, foundCharacters string: String) {}
    func parser(_ parser: XMLParser, foundProcessingInstructionWithTarget target: String, data: String?) {}
    func parser(_ parser: XMLParser, parseErrorOccurred parseError: any Error) { errors += 1 }
}

private let response = HTTPURLResponse(url: URL(string: "http://127.0.0.1/")!, statusCode: 200, httpVersion: "HTTP/1.1",
                                       headerFields: ["Content-Type": "application/xml"])!

/// The XML reader in front of FoundationXML, on arbitrary bytes and under both the default
/// and the permissive policy: a typed error or a document, never a crash or a hang; and
/// whatever the reader accepts, FoundationXML parses without reporting an error.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzXML(_ start: UnsafeRawPointer?, _ count: Int) -> CInt {
    var input = FuzzBytes(UnsafeRawBufferPointer(start: start, count: count))
    var policy = XMLReadingPolicy()
    let flags = input.byte()
    policy.allowsEntityDeclarations = flags & 1 != 0
    policy.allowsExternalDTD = flags & 2 != 0
    let data = Data(input.rest())
    let parser: XMLParser?
    do {
        parser = try XMLParserResponseSerializer(readingPolicy: policy).responseObject(for: response, data: data)
    } catch is any HTTPSerializationError {
        return 0
    } catch {
        require(false, "an untyped error: \(error)")
        return 0
    }
    guard let parser else { return 0 }
    let recorder = Recorder()
    parser.delegate = recorder
    let parsed = parser.parse()
    require(parsed && parser.parserError == nil && recorder.errors == 0,
            "accepted, but FoundationXML failed: \(String(decoding: data, as: UTF8.self).debugDescription)")
    return 0
}
