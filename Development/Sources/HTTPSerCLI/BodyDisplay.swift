import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif
import HTTPSerialization

/// How a body is shown: formatted by the package's own readers and writers when `--pretty`
/// asks (JSON re-indented with sorted keys, XML indented, a property list as JSON),
/// coloured on request, and replaced by a notice when it is binary and bound for a terminal.
enum BodyDisplay {
    static let binaryNotice = """
        +-----------------------------------------+
        | NOTE: binary data not shown in terminal |
        +-----------------------------------------+

        """

    /// Whether bytes are binary as HTTPie judges it: they hold a NUL.
    static func isBinary(_ data: Data) -> Bool {
        data.contains(0)
    }

    /// The text to print for a whole body.
    static func render(_ data: Data, contentType: String?, pretty: Pretty, terminal: Bool) -> Data {
        if terminal && isBinary(data) { return Data((binaryNotice + imageSummary(data)).utf8) }
        let type = mediaType(contentType)
        var text: Data = data
        var isJSON = false
        if pretty.formats, !data.isEmpty, let formatted = format(data, type: type) {
            (text, isJSON) = formatted
        } else {
            isJSON = isJSONType(type)
        }
        // What a server sent must not drive the terminal; --pretty=none asks for the bytes.
        if terminal && pretty != .none { text = TerminalText.sanitized(text) }
        if pretty.colors, isJSON, let string = String(data: text, encoding: .utf8) {
            text = Data(Highlighter.json(string).utf8)
        }
        // A terminal gets a final line break; a pipe or file gets the bytes as they are.
        if terminal, text.last != UInt8(ascii: "\n") { text.append(UInt8(ascii: "\n")) }
        return text
    }

    static func mediaType(_ contentType: String?) -> String {
        (contentType ?? "").split(separator: ";").first.map { $0.trimmingCharacters(in: .whitespaces).lowercased() } ?? ""
    }

    static func isJSONType(_ type: String) -> Bool {
        type.hasSuffix("/json") || type.hasSuffix("+json") || type == "text/javascript" || type == "application/javascript"
    }

    /// The formatted body and whether it is JSON now; nil leaves the body as it came (a body
    /// that does not parse is shown raw, as HTTPie does).
    private static func format(_ data: Data, type: String) -> (Data, Bool)? {
        if isJSONType(type) {
            guard let value = try? ParameterValue(json: data),
                  let pretty = try? value.jsonData(options: [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]) else { return nil }
            return (pretty + Data("\n".utf8), true)
        }
        if type == "application/x-plist" {
            let any = HTTPResponseSerializer(acceptableStatusCodes: nil, acceptableContentTypes: nil)
            guard let object = try? PropertyListResponseSerializer(base: any).responseObject(for: nil, data: data),
                  let json = try? JSONSerialization.data(withJSONObject: object as Any, options: [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes, .fragmentsAllowed])
            else { return nil }
            return (json + Data("\n".utf8), true)
        }
        if type.hasSuffix("/xml") || type.hasSuffix("+xml") {
            let any = HTTPResponseSerializer(acceptableStatusCodes: nil, acceptableContentTypes: nil)
            guard let document = try? XMLDocumentResponseSerializer(base: any).responseObject(for: nil, data: data) else { return nil }
            return (Data((document.xmlString(options: [.nodePrettyPrint]) + "\n").utf8), false)
        }
        return nil
    }

    /// `PNG image, 4 × 3 pixels` for an image the package can read the size of.
    private static func imageSummary(_ data: Data) -> String {
        guard let header = ImageHeader(data: data) else { return "" }
        return "\(header.format.rawValue.uppercased()) image, \(header.width) × \(header.height) pixels\n"
    }
}
