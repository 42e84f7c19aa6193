import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import HTTPSerializationCore

/// Validates a response and reads its property-list body: AFNetworking's
/// `AFPropertyListResponseSerializer`, on the package's own readers.
///
/// XML and binary property lists are read without `PropertyListSerialization` (which hangs on
/// shared binary objects, truncates 128-bit integers and crashes on hostile XML on Linux), and
/// returned in its shape: `[String: Any]`, `[Any]`, `String`, numbers, `Bool`, `Date`, `Data`.
/// The OpenStep text format is refused: it turns almost any text into a value.
@dynamicMemberLookup
public struct PropertyListResponseSerializer: HTTPResponseSerializerComposing {
    /// AFNetworking's property-list content type, `application/x-plist`.
    public static let defaultContentTypes: Set<String> = ["application/x-plist"]

    /// The shared validation: acceptable status codes and content types.
    public var base: HTTPResponseSerializer
    /// Kept for AFNetworking parity and archiving; reading detects the format itself.
    public var format: PropertyListSerialization.PropertyListFormat
    /// Kept for AFNetworking parity and archiving: the values are Swift values, so mutability
    /// options have nothing to change.
    public var readOptions: PropertyListSerialization.ReadOptions
    /// Containers nested deeper than this are refused.
    public var maximumDepth = ParameterValue.defaultMaximumDepth

    /// A property-list serializer over `base`; `format` and `readOptions` are kept, not used.
    public init(
        base: HTTPResponseSerializer = HTTPResponseSerializer(acceptableContentTypes: PropertyListResponseSerializer.defaultContentTypes),
        format: PropertyListSerialization.PropertyListFormat = .xml, readOptions: PropertyListSerialization.ReadOptions = []
    ) {
        self.base = base
        self.format = format
        self.readOptions = readOptions
    }

    /// The property list, or nil for a missing or empty body.
    ///
    /// - Throws: ``/HTTPSerializationCore/ResponseSerializationError/unreadableBody(_:response:)``
    ///   with a ``PropertyListReadingError``: the reader's reason and byte offset.
    public func responseObject(for response: ResponseContext) throws -> Any? {
        let response = try preprocessed(response)
        try base.validate(response)
        guard !response.hasEmptyBody(whitespaceIsEmpty: true), let data = response.data else { return nil }
        do {
            return try Self.read(data, maximumDepth: maximumDepth).foundationObject()
        } catch {
            throw ResponseSerializationError.unreadableBody(error, response: response.withoutDecodedBody)
        }
    }

    /// Binary (`bplist`) or XML (`<`, after an optional byte-order mark and white space).
    static func read(_ data: Data, maximumDepth: Int) throws(PropertyListReadingError) -> PropertyListValue {
        let start = data.first { !(XMLCharacters.isSpace($0) || $0 == 0xEF || $0 == 0xBB || $0 == 0xBF || $0 == 0xFE || $0 == 0xFF || $0 == 0) }
        guard data.starts(with: Array("bplist".utf8)) || start == UInt8(ascii: "<") else {
            throw PropertyListReadingError(.unsupportedFormat)
        }
        return try PropertyListValue.read(data, maximumDepth: maximumDepth)
    }
}
