import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import HTTPSerializationCore

/// Tries serializers in order and returns the first value one yields: AFNetworking's
/// `AFCompoundResponseSerializer`. Errors of serializers that fail are discarded; when none
/// yields a value, the compound's own validation decides.
///
/// ```swift
/// let compound = CompoundResponseSerializer([AnyResponseSerializer(ImageResponseSerializer()),
///                                            AnyResponseSerializer(JSONResponseSerializer())])
/// ```
@dynamicMemberLookup
public struct CompoundResponseSerializer: HTTPResponseSerializerComposing {
    /// The validation that decides when no serializer yields a value.
    public var base: HTTPResponseSerializer
    /// The serializers to try, in order.
    public var serializers: [AnyResponseSerializer]

    /// A compound that tries `serializers` in order, then falls back to `base`, which by default
    /// accepts status codes 200–299 and any content type.
    public init(_ serializers: [AnyResponseSerializer], base: HTTPResponseSerializer = HTTPResponseSerializer()) {
        self.serializers = serializers
        self.base = base
    }

    /// The first non-nil value a serializer yields; otherwise what `base` returns: the body,
    /// once it has validated the response.
    public func responseObject(for response: ResponseContext) throws -> Any? {
        let response = try preprocessed(response)
        for serializer in serializers {
            if let value = try? serializer.responseObject(for: response) {
                // The child applied its own rules; the compound's checks still have their say.
                try base.runValidators(on: response)
                return value
            }
        }
        // Validated, not preprocessed again.
        try base.validate(response)
        return response.data
    }
}
