import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Validates a response and reads its property-list body: AFNetworking's
/// `AFPropertyListResponseSerializer`. XML and binary property lists only: the OpenStep
/// reader turns almost any text (a bare word, some JSON) into a value.
@dynamicMemberLookup
public struct PropertyListResponseSerializer: HTTPResponseSerializerComposing {
    public static let defaultContentTypes: Set<String> = ["application/x-plist"]

    public var base: HTTPResponseSerializer
    /// Kept for AFNetworking parity and archiving; reading detects the format itself.
    public var format: PropertyListSerialization.PropertyListFormat
    public var readOptions: PropertyListSerialization.ReadOptions

    public init(
        base: HTTPResponseSerializer = HTTPResponseSerializer(acceptableContentTypes: PropertyListResponseSerializer.defaultContentTypes),
        format: PropertyListSerialization.PropertyListFormat = .xml, readOptions: PropertyListSerialization.ReadOptions = []
    ) {
        self.base = base
        self.format = format
        self.readOptions = readOptions
    }

    /// The property list, or nil for a missing or empty body.
    public func responseObject(for response: URLResponse?, data: Data?) throws -> Any? {
        try base.validate(response, data: data)
        guard let data, !data.isEmpty else { return nil }
        let context = ResponseContext(response: response as? HTTPURLResponse, data: data)
        // Only XML ("<") and binary ("bplist") bodies go to Foundation: its text reader turns
        // almost anything into a value, and leaks its error when it fails.
        let start = data.first { !(UInt8(ascii: " ") == $0 || $0 == 0x09 || $0 == 0x0A || $0 == 0x0D || $0 == 0xEF || $0 == 0xBB || $0 == 0xBF) }
        guard data.starts(with: Array("bplist".utf8)) || start == UInt8(ascii: "<") else {
            throw HTTPSerializationError.responseSerializationFailed(
                reason: "The response is not an XML or binary property list.", response: context)
        }
        var detected = PropertyListSerialization.PropertyListFormat.xml
        let object: Any
        do {
            object = try PropertyListSerialization.propertyList(from: data, options: readOptions, format: &detected)
        } catch {
            throw HTTPSerializationError.responseSerializationFailed(
                reason: "The response is not a valid property list.", response: context, underlying: error as NSError)
        }
        guard detected == .xml || detected == .binary else {
            throw HTTPSerializationError.responseSerializationFailed(
                reason: "The response is not an XML or binary property list.", response: context)
        }
        return object
    }
}
