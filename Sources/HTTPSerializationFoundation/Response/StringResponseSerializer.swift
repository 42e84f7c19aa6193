import Foundation
import HTTPSerializationCore

/// Decodes a body as text, in the charset the response names: Alamofire's
/// `StringResponseSerializer`.
///
/// For plain-text, CSV or HTML endpoints. The `charset` parameter of `Content-Type` chooses
/// the encoding (UTF-8, UTF-16 in either order, US-ASCII, ISO-8859-1, Windows-1252); without
/// one, ``defaultEncoding`` applies. Bytes that are not valid in that encoding are a typed
/// error, never replacement characters. An empty body is `""`, the empty value of text (the
/// umbrella's "Limits and security" article has the empty-body table for every serializer).
///
/// ```swift
/// let text = try StringResponseSerializer().responseObject(for: response, data: body)
/// ```
public struct StringResponseSerializer: HTTPResponseSerializerComposing {
    /// The shared validation; any content type by default.
    public var base: HTTPResponseSerializer
    /// The encoding when the response names no charset; UTF-8 by default (RFC 9110 dropped
    /// HTTP/1.1's ISO-8859-1 default).
    public var defaultEncoding: String.Encoding

    /// A serializer that accepts status 200–299 and any content type.
    public init(base: HTTPResponseSerializer = HTTPResponseSerializer(), defaultEncoding: String.Encoding = .utf8) {
        self.base = base
        self.defaultEncoding = defaultEncoding
    }

    /// The body as text.
    ///
    /// - Throws: validation errors, and
    ///   ``/HTTPSerializationCore/ResponseSerializationError/responseSerializationFailed(reason:response:underlying:validation:)``
    ///   for a charset this serializer does not know or bytes that are not valid in the encoding.
    public func responseObject(for response: ResponseContext) throws -> String {
        let response = try preprocessed(response)
        try base.validate(response)
        guard !response.hasEmptyBody(whitespaceIsEmpty: false), let data = response.data else { return "" }
        let context = response.withoutDecodedBody
        let encoding: String.Encoding
        if let charset = context.contentType?.charset {
            guard let named = Self.encoding(charset: charset) else {
                throw ResponseSerializationError.responseSerializationFailed(
                    reason: "The response's charset \"\(charset)\" is not one this serializer decodes.", response: context)
            }
            encoding = named
        } else {
            encoding = defaultEncoding
        }
        guard let text = String(data: data, encoding: encoding) else {
            throw ResponseSerializationError.responseSerializationFailed(
                reason: "The response is not valid \(encoding) text.", response: context)
        }
        return text
    }

    /// The encoding an IANA charset name stands for, among those decoded here.
    static func encoding(charset: String) -> String.Encoding? {
        switch charset.lowercased() {
        case "utf-8", "utf8": return .utf8
        case "utf-16": return .utf16
        case "utf-16le": return .utf16LittleEndian
        case "utf-16be": return .utf16BigEndian
        case "us-ascii", "ascii": return .ascii
        case "iso-8859-1", "latin1", "iso_8859-1": return .isoLatin1
        case "windows-1252", "cp1252": return .windowsCP1252
        default: return nil
        }
    }
}
