#if Vapor
import Foundation

/// Vapor passes key paths (`req.content.get(at:)`, `req.query[_:at:]`) as `userInfo`; a
/// decoder takes them on top of its own, Vapor's entries winning.
func adding<Decoder>(_ userInfo: [CodingUserInfoKey: any Sendable], to decoder: Decoder,
                     at field: WritableKeyPath<Decoder, [CodingUserInfoKey: any Sendable]>) -> Decoder {
    var decoder = decoder
    decoder[keyPath: field].merge(userInfo) { _, given in given }
    return decoder
}
#endif
