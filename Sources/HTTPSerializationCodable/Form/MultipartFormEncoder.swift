#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import HTTPSerializationCore

/// Encodes `Encodable` models as `multipart/form-data`: multipart-kit's `FormDataEncoder`,
/// into a streaming ``/HTTPSerializationCore/MultipartFormData``.
///
/// Use it to upload a model with files in one value, as a form a browser would send. Fields
/// are named as ``FormEncoder`` names them (`user[name]`, `tags[]`, `items[0][id]` for a list of
/// models, or the ``style``'s key and array encodings), and their values are written as it
/// writes them (dates, booleans, numbers). `Data` values and ``/HTTPSerializationCore/MultipartFile`` values become file
/// parts: `Data` with ``dataContentType`` and its property's key as its file name, a
/// received file with its own name and type, read from its temporary file as the body is sent.
/// A nil optional is left out; an explicit `encodeNil` is written as the style writes null
/// (an empty field by default). The body reads back
/// with ``MultipartFormDecoder`` (or ``FormDecoder`` over a ``/HTTPSerializationCore/MultipartForm``)
/// into the same model.
///
/// ```swift
/// struct Profile: Encodable { var name: String; var tags: [String]; var avatar: Data }
/// let form = try MultipartFormEncoder().encode(Profile(name: "Ada", tags: ["a"], avatar: png))
/// // name=Ada, tags[]=a, and a file part "avatar" (filename="avatar", application/octet-stream)
/// ```
public struct MultipartFormEncoder: Sendable {
    /// How field names, arrays, booleans and dates are written; AFNetworking's by default,
    /// with a list of models indexed, as ``FormEncoder`` writes it. Its data encoding is not
    /// used: data becomes file parts.
    public var style: QueryStringStyle
    /// The deepest nesting encoded before a typed error.
    public var maximumDepth: Int
    /// The `Content-Type` of the file part a `Data` value becomes.
    public var dataContentType: String

    /// An encoder; the defaults write what ``MultipartFormDecoder``'s defaults read.
    public init(
        style: QueryStringStyle = .afNetworking, maximumDepth: Int = ParameterValue.defaultMaximumDepth,
        dataContentType: String = MIMETypes.defaultType
    ) {
        self.style = style
        self.maximumDepth = maximumDepth
        self.dataContentType = dataContentType
    }

    /// A new form holding `value`'s fields and files, with a random boundary or `boundary`.
    ///
    /// - Throws: ``/HTTPSerializationCore/RequestSerializationError/invalidBoundary(_:reason:)``
    ///   for a bad boundary, and what ``encode(_:into:)`` throws.
    public func encode(_ value: some Encodable, boundary: String? = nil) throws -> MultipartFormData {
        var form = try boundary.map { try MultipartFormData(boundary: $0) } ?? MultipartFormData()
        try encode(value, into: &form)
        return form
    }

    /// Appends `value`'s fields and files to `form`, after the parts it has.
    ///
    /// - Throws: ``/HTTPSerializationCore/RequestSerializationError``:
    ///   `invalidParameter` for a value that is not keyed (a bare string, number or array has
    ///   no field name), `nestingTooDeep` past ``maximumDepth``, and the form's own errors (a
    ///   field holding the boundary); any error the model's `encode(to:)` throws.
    public func encode(_ value: some Encodable, into form: inout MultipartFormData) throws {
        let files = MultipartFileMarkers()
        let tree = try ParameterValue(encoding: value, maximumDepth: maximumDepth, json: nil, files: files)
        guard case .dictionary = tree else {
            throw RequestSerializationError.invalidParameter(
                path: "", reason: "\(type(of: value)) encodes \(Self.kind(of: tree)), but a multipart form needs named fields: a keyed model")
        }
        // Parts go into a copy, so a failure part-way leaves the caller's form as it was.
        var result = form
        for pair in queryStringPairs(from: tree, style: style.forEncodableModels) {
            switch pair.value {
            case .data(let data):
                switch files.attachment(for: data) {
                case .file(let file, let keyName)?:
                    try result.appendPart(file: file, name: pair.field, fileName: keyName)
                case .data(let bytes, let keyName)?:
                    try result.appendPart(fileData: bytes, name: pair.field, fileName: keyName, mimeType: dataContentType)
                case nil:
                    // Data inside a ParameterValue the model holds: named by its field.
                    try result.appendPart(fileData: data, name: pair.field, fileName: Self.fileName(forField: pair.field), mimeType: dataContentType)
                }
            case .null:
                try result.appendPart(formData: Data(), name: pair.field)
            default:
                try result.appendPart(formData: style.text(for: pair.value), name: pair.field)
            }
        }
        form = result
    }

    /// The last key of a field name that is not an index: `avatar` for `user[avatar]`,
    /// `photos[]` or `photos[0]`, as ``MultipartFileMarkers/safeFileName(_:)`` makes it safe.
    static func fileName(forField field: String) -> String {
        let keys = field.split(whereSeparator: { $0 == "[" || $0 == "]" })
        return MultipartFileMarkers.safeFileName(keys.last(where: { !$0.allSatisfy(\.isASCIIDigit) }).map(String.init) ?? "")
    }

    private static func kind(of value: ParameterValue) -> String {
        switch value {
        case .array, .set: return "a list"
        case .null: return "null"
        default: return "a single value"
        }
    }
}

private extension Character {
    var isASCIIDigit: Bool { ("0"..."9").contains(self) }
}
