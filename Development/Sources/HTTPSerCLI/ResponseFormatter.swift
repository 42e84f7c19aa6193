import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
#if canImport(FoundationXML)
import FoundationXML
#endif
import HTTPSerialization

/// Shows a response body with the serializer that fits its content type: pretty JSON, XML,
/// a property list as JSON, an image summary, or the raw bytes.
enum ResponseFormatter {
    static func format(_ response: HTTPURLResponse, data: Data) throws -> Data {
        guard !data.isEmpty else { return Data() }
        let type = response.mimeType?.lowercased() ?? ""
        let any = HTTPResponseSerializer(acceptableStatusCodes: nil, acceptableContentTypes: nil)
        if type.hasSuffix("/json") || type.hasSuffix("+json") || type == "text/javascript" {
            let object = try JSONResponseSerializer(base: any, readingOptions: .fragmentsAllowed).responseObject(for: response, data: data)
            return try pretty(object ?? NSNull())
        }
        if type.hasSuffix("/xml") || type.hasSuffix("+xml") {
            let document = try XMLDocumentResponseSerializer(base: any).responseObject(for: response, data: data)
            return Data((document.xmlString(options: [.nodePrettyPrint]) + "\n").utf8)
        }
        if type == "application/x-plist" {
            let object = try PropertyListResponseSerializer(base: any).responseObject(for: response, data: data)
            return (try? pretty(object as Any)) ?? Data("\(object ?? "")\n".utf8)
        }
        if type.hasPrefix("image/") {
            var images = ImageResponseSerializer()
            images.base = any
            let decoded: PlatformImage?
            do {
                decoded = try images.responseObject(for: response, data: data)
            } catch ResponseSerializationError.imageNotDecoded(let format, _) {
                let size = ImageHeader(data: data).map { "\($0.width) × \($0.height) pixels, " } ?? ""
                return Data("\(format.rawValue.uppercased()) image, \(size)not decoded on this platform\n".utf8)
            }
            guard let image = decoded else { return Data() }
            #if canImport(UIKit) || canImport(AppKit)
            return Data("image, \(image.size.width) × \(image.size.height) points\n".utf8)
            #else
            return Data("\(image.format.rawValue.uppercased()) image, \(image.width) × \(image.height) pixels, decoded to RGBA\n".utf8)
            #endif
        }
        return data
    }

    static func pretty(_ object: Any) throws -> Data {
        try JSONSerialization.data(withJSONObject: object, options: [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes, .fragmentsAllowed])
            + Data("\n".utf8)
    }

    /// `HTTP/1.1 200 OK` and the headers, sorted, for standard error.
    static func head(_ response: HTTPURLResponse) -> String {
        var text = "HTTP/1.1 \(response.statusCode) \(HTTPURLResponse.localizedString(forStatusCode: response.statusCode))\n"
        for (name, value) in response.allHeaderFields.map({ ("\($0.key)", "\($0.value)") }).sorted(by: { $0.0 < $1.0 }) {
            text += "\(name): \(value)\n"
        }
        return text
    }
}
