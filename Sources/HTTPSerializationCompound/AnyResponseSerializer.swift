import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import HTTPSerializationCore

/// Any response serializer with its output as `Any?`, so serializers of different outputs
/// can be listed together.
public struct AnyResponseSerializer: ResponseSerializer {
    private let serialize: @Sendable (ResponseContext) throws -> Any?
    /// The archived form, for the package's own serializers; nil for others.
    let archive: ResponseSerializerArchive?
    /// The wrapped serializer's type, for inspection.
    public let wrappedType: Any.Type

    /// Wraps `serializer`, keeping its archived form when it is one of the package's own.
    public init<Serializer: ResponseSerializer>(_ serializer: Serializer) {
        serialize = { response in try serializer.responseObject(for: response) }
        archive = ResponseSerializerArchive(serializer)
        wrappedType = Serializer.self
    }

    /// The wrapped serializer's output, as `Any?`.
    public func responseObject(for response: ResponseContext) throws -> Any? {
        try serialize(response)
    }
}
