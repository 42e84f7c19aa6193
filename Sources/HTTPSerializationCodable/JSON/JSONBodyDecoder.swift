#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import HTTPSerializationCore

/// Decodes `Decodable` values from JSON with the package's own reader, straight from its
/// parse: no `Any`, no `JSONSerialization`, no intermediate dictionary per object.
///
/// The default decoder of ``DecodableResponseSerializer``. Its options are `JSONDecoder`'s,
/// spelled the same way, so moving a configured `JSONDecoder` over is a matter of copying
/// its settings; errors are `DecodingError`s with the same kinds and coding paths.
///
/// ```swift
/// struct User: Decodable { var userID: Int; var createdAt: Date }
/// var decoder = JSONBodyDecoder()
/// decoder.keyDecodingStrategy = .convertFromSnakeCase
/// decoder.dateDecodingStrategy = .iso8601
/// let user = try decoder.decode(User.self, from: Data(#"{"user_id":7,"created_at":"2024-05-01T12:00:00Z"}"#.utf8))
/// ```
public struct JSONBodyDecoder: ResponseBodyDecoder, Sendable {
    /// How object keys are matched to coding keys.
    public enum KeyDecodingStrategy: Sendable {
        /// Keys are used as written.
        case useDefaultKeys
        /// `snake_case` keys become `camelCase` before matching, as `JSONDecoder` converts them:
        /// `user_id` matches a coding key `userId` (not `userID`); outer underscores are kept.
        case convertFromSnakeCase
        /// Your function maps the path to each key (its last element is the key as written) to the key to
        /// match.
        case custom(@Sendable (_ codingPath: [any CodingKey]) -> any CodingKey)
    }

    /// How `Date` values are read.
    public enum DateDecodingStrategy: Sendable {
        /// `Date`'s own `Decodable` form: seconds since 2001-01-01 as a number.
        case deferredToDate
        /// Seconds since 1970-01-01 as a number.
        case secondsSince1970
        /// Milliseconds since 1970-01-01 as a number.
        case millisecondsSince1970
        /// An ISO 8601 internet date-time string without fractional seconds
        /// (`2024-05-01T12:00:00Z`, `2024-05-01T14:00:00+02:00`), as `JSONDecoder` reads it.
        case iso8601
        /// An ISO 8601 string in the given format, for instance with fractional seconds:
        /// `.formatted(.iso8601.year().month().day().time(includingFractionalSeconds: true))`.
        case formatted(Date.ISO8601FormatStyle)
        /// Your function reads the date from a decoder positioned at the value.
        case custom(@Sendable (_ decoder: any Decoder) throws -> Date)
    }

    /// How `Data` values are read.
    public enum DataDecodingStrategy: Sendable {
        /// `Data`'s own `Decodable` form: an array of byte values.
        case deferredToData
        /// A Base64 string.
        case base64
        /// Your function reads the data from a decoder positioned at the value.
        case custom(@Sendable (_ decoder: any Decoder) throws -> Data)
    }

    /// How floating-point values JSON cannot write (infinity, NaN) are read.
    public enum NonConformingFloatDecodingStrategy: Sendable {
        /// They are not accepted: a string where a number is expected is a type mismatch.
        case `throw`
        /// These exact strings stand for positive infinity, negative infinity and NaN.
        case convertFromString(positiveInfinity: String, negativeInfinity: String, nan: String)

        /// The float `name` stands for, or nil (no names, or not one of them): for the tape
        /// and the text reader alike.
        func value<T: BinaryFloatingPoint>(named name: String) -> T? {
            guard case .convertFromString(let infinity, let negativeInfinity, let nan) = self else { return nil }
            switch name {
            case infinity: return .infinity
            case negativeInfinity: return -.infinity
            case nan: return .nan
            default: return nil
            }
        }
    }

    /// How object keys are matched to coding keys; ``KeyDecodingStrategy/useDefaultKeys`` by default.
    public var keyDecodingStrategy: KeyDecodingStrategy = .useDefaultKeys
    /// How dates are read; ``DateDecodingStrategy/deferredToDate`` by default.
    public var dateDecodingStrategy: DateDecodingStrategy = .deferredToDate
    /// How data is read; ``DataDecodingStrategy/base64`` by default.
    public var dataDecodingStrategy: DataDecodingStrategy = .base64
    /// How infinity and NaN are read; `.throw` (not accepted) by default.
    public var nonConformingFloatDecodingStrategy: NonConformingFloatDecodingStrategy = .throw
    /// Values handed to every `init(from:)` as `decoder.userInfo`.
    public var userInfo: [CodingUserInfoKey: any Sendable] = [:]
    /// The deepest nesting of arrays and objects read; deeper documents are a
    /// `DecodingError.dataCorrupted` whose underlying error is ``/HTTPSerializationCore/JSONReadingError``.
    public var maximumDepth: Int = ParameterValue.defaultMaximumDepth
    /// Called whenever a decode of a model with generated readers leaves the fast path and
    /// reads the document again through the parse, with the model and the reason; nil (the
    /// default) asks nothing. For a test that keeps a model on the fast path, or a debug log.
    public var onTextReaderFallback: (@Sendable (TextReaderFallback) -> Void)?

    /// A decoder with `JSONDecoder`'s default strategies.
    public init() {}

    /// Decodes a value of `type` from a JSON document (UTF-8, or UTF-16/32 as the reader detects).
    ///
    /// - Throws: `DecodingError`: `dataCorrupted` with an underlying
    ///   ``/HTTPSerializationCore/JSONReadingError`` for a document that is not JSON, otherwise the kind and
    ///   coding path of the value at fault.
    public func decode<T: Decodable>(_ type: T.Type, from data: Data) throws -> T {
        if let value = decodeFromText(type, data) { return value }
        let decoded: Result<T, any Error>
        do {
            decoded = try JSONTape.withParsed(data, maximumDepth: maximumDepth) { decodeInPlace(type, $0) }
        } catch {
            throw DecodingError.unreadableJSON(error)
        }
        return try decoded.get()
    }

    /// Decodes only the value at `keyPath` inside a JSON document as `type`.
    ///
    /// For a payload inside an envelope (`{"data": {"items": [...]}}`), as Moya's
    /// `map(_:atKeyPath:)`, without a wrapper model: the whole document is checked as
    /// ``decode(_:from:)`` checks it, but only the value at the path is decoded, every value
    /// before it passed over whole. Where an object repeats a key the first is followed, as
    /// `JSONDecoder` decodes it; the path's keys match the document's as written, before the
    /// key decoding strategy.
    ///
    /// ```swift
    /// let items = try JSONBodyDecoder().decode([Item].self, from: body, atKeyPath: "data.items")
    /// ```
    ///
    /// - Throws: ``/HTTPSerializationCore/JSONKeyPathError`` naming the path when it leads
    ///   nowhere; otherwise as ``decode(_:from:)``, with coding paths that start with the key path.
    public func decode<T: Decodable>(_ type: T.Type, from data: Data, atKeyPath keyPath: JSONKeyPath) throws -> T {
        let decoded: Result<T, any Error>
        do {
            decoded = try JSONTape.withParsed(data, maximumDepth: maximumDepth) { reader in
                Result { () throws(JSONKeyPathError) in try reader.resolve(keyPath, repeatedKey: .first) }
                    .mapError { $0 as any Error }
                    .flatMap { decodeInPlace(type, reader, at: $0.entry, path: $0.path) }
            }
        } catch {
            throw DecodingError.unreadableJSON(error)
        }
        return try decoded.get()
    }

    /// Decodes UTF-8 JSON the caller holds (a line of a streamed body); text the reader
    /// refuses is its `JSONReadingError` itself, not wrapped in a `DecodingError`.
    package func decode<T: Decodable>(_ type: T.Type, utf8 bytes: UnsafeBufferPointer<UInt8>) throws -> T {
        if let value = decodeFromText(type, bytes, from: 0) { return value }
        return try JSONTape.withParsed(utf8: bytes, maximumDepth: maximumDepth) { decodeInPlace(type, $0) }.get()
    }

    /// A generated reader's fast path: `type` read straight from the text by
    /// ``JSONTapeDecodable/init(jsonText:)``, when it has a reader and keys are matched as
    /// written or converted from snake case. Nil when it does not apply or the reader stopped;
    /// the tape path then decodes (again), with the same value or the exact error.
    package func decodeFromText<T>(_ type: T.Type, _ data: Data) -> T? {
        guard let reader = textReader(of: type), let (bytes, start) = try? JSONTextEncoding.utf8(data) else { return nil }
        return bytes.withUnsafeBytes { decodeFromText(type, by: reader, $0.bindMemory(to: UInt8.self), from: start) }
    }

    /// ``decodeFromText(_:_:)`` over UTF-8 text from `start`.
    package func decodeFromText<T>(_ type: T.Type, _ bytes: UnsafeBufferPointer<UInt8>, from start: Int) -> T? {
        guard let reader = textReader(of: type) else { return nil }
        return decodeFromText(type, by: reader, bytes, from: start)
    }

    /// `type`'s reader from the text, when it has one and keys are matched as written or
    /// converted from snake case (a custom conversion may ask for the key's path, which the
    /// text reader does not keep).
    private func textReader<T>(of type: T.Type) -> (any JSONTapeDecodable.Type)? {
        guard let reader = T.self as? any JSONTapeDecodable.Type else { return nil }
        switch keyDecodingStrategy {
        case .useDefaultKeys, .convertFromSnakeCase: return reader
        case .custom:
            onTextReaderFallback?(TextReaderFallback(model: String(reflecting: T.self), reason: .customKeyStrategy))
            return nil
        }
    }

    /// `type` read by `reader` (`type` itself, as a `JSONTapeDecodable`) from the text at `start`.
    private func decodeFromText<T>(_ type: T.Type, by reader: any JSONTapeDecodable.Type, _ bytes: UnsafeBufferPointer<UInt8>, from start: Int) -> T? {
        func read<Reader: JSONTapeDecodable>(_: Reader.Type) -> T? {
            var cursor = JSONTextCursor(bytes, from: start, maximumDepth: maximumDepth)
            if case .convertFromSnakeCase = keyDecodingStrategy { cursor.convertsFromSnakeCase = true }
            var text = JSONTextReader(cursor, options: self)
            // A reader cannot be copied, but one can be swapped with another's in a nested
            // decode (`swap`, or `consume` and put back): a decode that ends with a reader other
            // than its own traps here, before the one it lent can be read once its text is gone.
            defer {
                precondition(text.cursor.readsSameText(as: cursor),
                             "A JSONTextReader was swapped with another decode's: a reader is valid only during its own decode")
            }
            do {
                let value = try text.decode(Reader.self)
                try text.cursor.finishDocument()
                // `Reader` is `T` itself, found by the cast in `textReader(of:)`.
                return unsafeBitCast(value, to: T.self)
            } catch {
                if let onTextReaderFallback {
                    let reason = (error as? JSONTextReader.Unread)?.reason ?? .document
                    onTextReaderFallback(TextReaderFallback(model: String(reflecting: T.self), reason: reason))
                }
                return nil
            }
        }
        return read(reader)
    }

    /// Decodes the value at `entry` (reached by `path`) from a tape over memory valid only during this call.
    private func decodeInPlace<T: Decodable>(
        _ type: T.Type, _ reader: JSONTapeReader, at entry: Int = 0, path: JSONKeyPath = JSONKeyPath([])
    ) -> Result<T, any Error> {
        var document = JSONTapeDocument(borrowing: reader)
        let decoded = decodeRoot(type, from: document, at: entry, path: path)
        // Objects opened during the decode end with it.
        document.endedDecodes &+= 1
        // A type may keep its decoder, or a container, past the decode: then the document
        // must own its memory before the bytes it reads go away.
        if !isKnownUniquelyReferenced(&document) { document.keepReadable() }
        return decoded
    }

    /// The decode itself, in a function of its own so its decoder is released when it returns.
    private func decodeRoot<T: Decodable>(_ type: T.Type, from document: JSONTapeDocument, at entry: Int, path: JSONKeyPath) -> Result<T, any Error> {
        let components = path.components.map { component -> JSONPathComponent in
            switch component {
            case .key(let key): return .key(JSONCodingKey(stringValue: key))
            case .index(let index): return .index(index)
            }
        }
        let decoder = JSONTapeDecoder(document, options: self, entry: entry, path: components)
        return Result { try decoder.decodeValue(type, at: entry, site: JSONPathSite(prefix: components.count), appending: { nil }) }
    }
}

extension DecodingError {
    /// A document the package's reader refused, as `JSONDecoder` reports one: `dataCorrupted`
    /// at the top, the reader's error underneath.
    static func unreadableJSON(_ error: JSONReadingError) -> DecodingError {
        .dataCorrupted(DecodingError.Context(
            codingPath: [], debugDescription: "The given data was not valid JSON: \(error.reasonText) (byte \(error.offset)).",
            underlyingError: error))
    }
}
