import Foundation
import HTTPTypes
import HTTPSerializationCore

/// Serializes parameters as a property-list body: AFNetworking's
/// `AFPropertyListRequestSerializer`, XML by default and binary on request.
///
/// ```swift
/// var plist = PropertyListRequestSerializer()
/// plist.format = .binary
/// let request = try plist.request(method: "POST", urlString: "https://example.com", parameters: ["key": "value"])
/// ```
@dynamicMemberLookup
public struct PropertyListRequestSerializer: HTTPRequestSerializerComposing {
    /// The shared configuration: default headers, request properties and the methods that take a query.
    public var base: HTTPRequestSerializer
    /// `.xml` (AFNetworking's default) or `.binary`; `.openStep` cannot be written.
    public var format: PropertyListSerialization.PropertyListFormat
    /// Passed to `PropertyListSerialization`; currently unused by Foundation.
    public var writeOptions: PropertyListSerialization.WriteOptions

    /// A property-list serializer over `base` (by default with AFNetworking's headers); XML by default.
    public init(
        base: HTTPRequestSerializer = HTTPRequestSerializer(),
        format: PropertyListSerialization.PropertyListFormat = .xml,
        writeOptions: PropertyListSerialization.WriteOptions = 0
    ) {
        self.base = base
        self.format = format
        self.writeOptions = writeOptions
    }

    /// Writes `parameters` as a property list, with `Content-Type: application/x-plist` unless one is
    /// set; methods that take a query get a query string, and without parameters `body` is kept.
    ///
    /// - Throws:
    ///   ``/HTTPSerializationCore/RequestSerializationError/invalidPropertyListParameters(reason:underlying:)``
    ///   for null, sets, or the OpenStep format (Foundation crashes writing it).
    public func serialize(_ request: HTTPRequest, body: RequestBody, parameters: ParameterValue?) throws -> SerializedRequest {
        try base.serializeBody(request, body: body, parameters: parameters, contentType: "application/x-plist", encode: data(for:))
    }

    private func data(for parameters: ParameterValue) throws -> Data {
        guard format == .xml || format == .binary else {
            throw RequestSerializationError.invalidPropertyListParameters(
                reason: "Only the XML and binary formats can be written.")
        }
        let object = try FoundationObjectConversion.object(
            from: parameters, for: .propertyList, maximumDepth: base.maximumParameterDepth)
        do {
            return try PropertyListSerialization.data(fromPropertyList: object, format: format, options: writeOptions)
        } catch {
            throw RequestSerializationError.invalidPropertyListParameters(
                reason: error.localizedDescription, underlying: UnderlyingError(error))
        }
    }
}
