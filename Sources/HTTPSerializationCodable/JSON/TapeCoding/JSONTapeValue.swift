#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import HTTPSerializationCore

/// One value of a parsed JSON document, as a ``JSONTapeDecodable`` reader gets it.
///
/// Valid only during the reader's call, as it reads memory the decode lends it; it cannot be
/// copied, and readers are handed it `borrowing`, so no code can keep it past its call (the
/// compiler refuses `kept = value`). Part of `@GeneratedJSONCoding`'s runtime, not for hand use.
@_documentation(visibility: internal)
public struct JSONTapeValue: ~Copyable {
    /// The decoder, which outlives every value it hands out, as none can be kept.
    let decoder: JSONTapeDecoder
    @usableFromInline let entry: Int

    init(decoder: JSONTapeDecoder, entry: Int) {
        self.decoder = decoder
        self.entry = entry
    }

    /// Whether the value is JSON `null`.
    @_documentation(visibility: internal)
    public var isNull: Bool { decoder.tape.kind(entry) == .null }

    /// The keys and indexes that lead to the value, as `Decoder.codingPath` gives them.
    @_documentation(visibility: internal)
    public var codingPath: [any CodingKey] { decoder.codingPath }

    /// The decoder's `userInfo`, as `Decoder.userInfo` gives it.
    @_documentation(visibility: internal)
    public var userInfo: [CodingUserInfoKey: Any] { decoder.userInfo }

    /// The value as an object, whose properties are read by key.
    ///
    /// - Throws: `DecodingError.typeMismatch`, or `valueNotFound` for a null, as
    ///   `container(keyedBy:)` throws them.
    @_documentation(visibility: internal)
    public func object() throws -> JSONTapeObject {
        try JSONTapeObject(decoder: decoder, object: entry)
    }

    /// The value as `type`, read by its own reader.
    @inlinable
    @_documentation(visibility: internal)
    public func decode<T: JSONTapeDecodable>(_ type: T.Type = T.self) throws -> T {
        try T(jsonTape: self)
    }

    /// The value as `type`, through its `init(from:)`: for a type without a reader of its own.
    @_documentation(visibility: internal)
    public func decode<T: Decodable>(_ type: T.Type = T.self) throws -> T {
        try decodeThroughDecodable(type)
    }

    /// The value as the raw value of `type`, as `RawRepresentable`'s `init(from:)` reads it:
    /// a raw value no case has is `DecodingError.dataCorrupted`.
    ///
    /// A generated reader for an enum with raw values reads itself this way.
    @_documentation(visibility: internal)
    public func decodeRawValue<T: RawRepresentable>(of type: T.Type) throws -> T where T.RawValue: JSONTapeDecodable {
        let raw = try T.RawValue(jsonTape: self)
        if let value = T(rawValue: raw) { return value }
        throw DecodingError.dataCorrupted(DecodingError.Context(
            codingPath: codingPath, debugDescription: "Cannot initialize \(T.self) from invalid \(T.RawValue.self) value \(raw)"))
    }

    /// The value through the `Decodable` path, whose rules for Foundation's types (and the
    /// decoder's strategies for them) it keeps.
    func decodeThroughDecodable<T: Decodable>(_ type: T.Type) throws -> T {
        try decoder.decodeValue(type, at: entry, site: JSONPathSite(prefix: decoder.path.count), appending: { nil })
    }

    // MARK: Arrays, for the inlined loop of `JSONTapeDecodable.decodeArray(from:)`

    /// How many elements the array at this value holds; a type mismatch (or `valueNotFound`
    /// for a null) when it is not an array.
    @usableFromInline func arrayCount() throws -> Int {
        let tape = decoder.tape
        guard tape.kind(entry) == .array else { throw decoder.containerMismatch(at: entry, path: decoder.codingPath, array: true) }
        return tape.length(entry)
    }

    /// The entry of the element after the one at `element`.
    @usableFromInline func entry(after element: Int) -> Int { decoder.tape.next(element) }

    /// The value at another entry of the same document.
    @usableFromInline func value(at entry: Int) -> JSONTapeValue { JSONTapeValue(decoder: decoder, entry: entry) }

    /// Puts an index on the decoder's path, for ``setIndex(_:)`` to move.
    @usableFromInline func pushIndex() { decoder.path.append(.index(0)) }
    /// The index of the element being read.
    @usableFromInline func setIndex(_ index: Int) { decoder.path[decoder.path.count - 1] = .index(index) }
    /// Takes the index off again.
    @usableFromInline func popIndex() { decoder.path.removeLast() }
}
