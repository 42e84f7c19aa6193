import Vapor

/// Vapor's form decoder, in a file of its own so that Vapor's exported names (its
/// `HTTPMethod`, NIO's types) meet nothing of ours.
enum VaporPeer {
    /// Lists are read from `[]`, indices or repeated keys only: Vapor's default also splits
    /// every list value at `,` and `|`, which §3's strings contain.
    static let decoder = URLEncodedFormDecoder(configuration: .init(arraySeparators: []))

    static func decode<T: Decodable>(_ type: T.Type, from query: String) throws -> T {
        try decoder.decode(type, from: query)
    }
}
