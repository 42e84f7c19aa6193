import Foundation
import HTTPSerializationCore

extension JSONStreamResponseSerializer where Value == Any {
    /// Values as the graph `JSONSerialization` gives for each line (`[String: Any]`, `[Any]`,
    /// `String`, `NSNumber`, `NSNull`), read by the package's reader as
    /// `JSONResponseSerializer` reads a whole body.
    ///
    /// - Parameter removingNulls: leave out null dictionary values and array elements at every
    ///   level, as `JSONResponseSerializer.removesKeysWithNullValues` does.
    public init(removingNulls: Bool = false) {
        self.init { bytes, depth throws(JSONReadingError) in
            try JSONTape.withParsed(utf8: bytes, maximumDepth: depth) { $0.foundationObject(removingNulls: removingNulls) }
        }
    }
}
