import HTTPSerializationCore
/// An array read in order. A value that fails to decode is not consumed, as in `JSONDecoder`.
struct JSONUnkeyedContainer: UnkeyedDecodingContainer {
    let decoder: JSONTapeDecoder
    let site: JSONPathSite
    let count: Int?
    private(set) var currentIndex = 0
    /// The tape entry of the next element.
    private var next: Int

    init(_ decoder: JSONTapeDecoder, array: Int, site: JSONPathSite) throws {
        let tape = decoder.tape
        guard tape.kind(array) == .array else { throw decoder.containerMismatch(at: array, path: decoder.codingPath(site), array: true) }
        self.decoder = decoder
        self.site = site
        count = tape.length(array)
        next = array + 1
    }

    var isAtEnd: Bool { currentIndex >= count! }
    var codingPath: [any CodingKey] { decoder.codingPath(site) }

    /// The coding path of the next element, for errors.
    private func elementPath() -> [any CodingKey] { decoder.codingPath(site, appending: .index(currentIndex)) }

    /// The next element's entry; at the end, `valueNotFound` for `type`.
    private func element<T>(_ type: T.Type, _ message: String = "Unkeyed container is at end.") throws -> Int {
        guard isAtEnd else { return next }
        throw DecodingError.valueNotFound(type, DecodingError.Context(codingPath: elementPath(), debugDescription: message))
    }

    /// The next element's entry unless it is null or the container is at its end (then it moves on).
    private mutating func presentElement() -> Int? {
        guard !isAtEnd else { return nil }
        guard decoder.tape.kind(next) != .null else {
            advance()
            return nil
        }
        return next
    }

    private mutating func advance() {
        next = decoder.tape.next(next)
        currentIndex += 1
    }

    /// Moves past the element just read (reached only when reading it succeeded).
    @inline(__always)
    private mutating func take<T>(_ type: T.Type, _ value: T) -> T {
        advance()
        return value
    }

    @inline(__always)
    private mutating func takeIfPresent<T>(_ value: T?) -> T? {
        if value != nil { advance() }
        return value
    }

    mutating func decodeNil() throws -> Bool {
        guard decoder.tape.kind(try element(Never.self)) == .null else { return false }
        advance()
        return true
    }

    mutating func decode(_ type: Bool.Type) throws -> Bool { try take(type, decoder.bool(at: element(type), path: elementPath)) }
    mutating func decode(_ type: String.Type) throws -> String { try take(type, decoder.string(at: element(type), path: elementPath)) }
    mutating func decode(_ type: Double.Type) throws -> Double { try take(type, decoder.floatingPoint(at: element(type), path: elementPath)) }
    mutating func decode(_ type: Float.Type) throws -> Float { try take(type, decoder.floatingPoint(at: element(type), path: elementPath)) }
    mutating func decode(_ type: Int.Type) throws -> Int { try take(type, decoder.integer(at: element(type), path: elementPath)) }
    mutating func decode(_ type: Int8.Type) throws -> Int8 { try take(type, decoder.integer(at: element(type), path: elementPath)) }
    mutating func decode(_ type: Int16.Type) throws -> Int16 { try take(type, decoder.integer(at: element(type), path: elementPath)) }
    mutating func decode(_ type: Int32.Type) throws -> Int32 { try take(type, decoder.integer(at: element(type), path: elementPath)) }
    mutating func decode(_ type: Int64.Type) throws -> Int64 { try take(type, decoder.integer(at: element(type), path: elementPath)) }
    mutating func decode(_ type: UInt.Type) throws -> UInt { try take(type, decoder.integer(at: element(type), path: elementPath)) }
    mutating func decode(_ type: UInt8.Type) throws -> UInt8 { try take(type, decoder.integer(at: element(type), path: elementPath)) }
    mutating func decode(_ type: UInt16.Type) throws -> UInt16 { try take(type, decoder.integer(at: element(type), path: elementPath)) }
    mutating func decode(_ type: UInt32.Type) throws -> UInt32 { try take(type, decoder.integer(at: element(type), path: elementPath)) }
    mutating func decode(_ type: UInt64.Type) throws -> UInt64 { try take(type, decoder.integer(at: element(type), path: elementPath)) }
    @available(macOS 15.0, iOS 18.0, watchOS 11.0, tvOS 18.0, visionOS 2.0, *)
    mutating func decode(_ type: Int128.Type) throws -> Int128 { try take(type, decoder.integer(at: element(type), path: elementPath)) }
    @available(macOS 15.0, iOS 18.0, watchOS 11.0, tvOS 18.0, visionOS 2.0, *)
    mutating func decode(_ type: UInt128.Type) throws -> UInt128 { try take(type, decoder.integer(at: element(type), path: elementPath)) }
    mutating func decode<T: Decodable>(_ type: T.Type) throws -> T {
        let index = currentIndex
        return take(type, try decoder.decodeValue(type, at: element(type), site: site, appending: { .index(index) }))
    }

    mutating func decodeIfPresent(_ type: Bool.Type) throws -> Bool? { try takeIfPresent(presentElement().map { try decoder.bool(at: $0, path: elementPath) }) }
    mutating func decodeIfPresent(_ type: String.Type) throws -> String? { try takeIfPresent(presentElement().map { try decoder.string(at: $0, path: elementPath) }) }
    mutating func decodeIfPresent(_ type: Double.Type) throws -> Double? { try takeIfPresent(presentElement().map { try decoder.floatingPoint(at: $0, path: elementPath) }) }
    mutating func decodeIfPresent(_ type: Float.Type) throws -> Float? { try takeIfPresent(presentElement().map { try decoder.floatingPoint(at: $0, path: elementPath) }) }
    mutating func decodeIfPresent(_ type: Int.Type) throws -> Int? { try takeIfPresent(presentElement().map { try decoder.integer(at: $0, path: elementPath) }) }
    mutating func decodeIfPresent(_ type: Int8.Type) throws -> Int8? { try takeIfPresent(presentElement().map { try decoder.integer(at: $0, path: elementPath) }) }
    mutating func decodeIfPresent(_ type: Int16.Type) throws -> Int16? { try takeIfPresent(presentElement().map { try decoder.integer(at: $0, path: elementPath) }) }
    mutating func decodeIfPresent(_ type: Int32.Type) throws -> Int32? { try takeIfPresent(presentElement().map { try decoder.integer(at: $0, path: elementPath) }) }
    mutating func decodeIfPresent(_ type: Int64.Type) throws -> Int64? { try takeIfPresent(presentElement().map { try decoder.integer(at: $0, path: elementPath) }) }
    mutating func decodeIfPresent(_ type: UInt.Type) throws -> UInt? { try takeIfPresent(presentElement().map { try decoder.integer(at: $0, path: elementPath) }) }
    mutating func decodeIfPresent(_ type: UInt8.Type) throws -> UInt8? { try takeIfPresent(presentElement().map { try decoder.integer(at: $0, path: elementPath) }) }
    mutating func decodeIfPresent(_ type: UInt16.Type) throws -> UInt16? { try takeIfPresent(presentElement().map { try decoder.integer(at: $0, path: elementPath) }) }
    mutating func decodeIfPresent(_ type: UInt32.Type) throws -> UInt32? { try takeIfPresent(presentElement().map { try decoder.integer(at: $0, path: elementPath) }) }
    mutating func decodeIfPresent(_ type: UInt64.Type) throws -> UInt64? { try takeIfPresent(presentElement().map { try decoder.integer(at: $0, path: elementPath) }) }
    @available(macOS 15.0, iOS 18.0, watchOS 11.0, tvOS 18.0, visionOS 2.0, *)
    mutating func decodeIfPresent(_ type: Int128.Type) throws -> Int128? { try takeIfPresent(presentElement().map { try decoder.integer(at: $0, path: elementPath) }) }
    @available(macOS 15.0, iOS 18.0, watchOS 11.0, tvOS 18.0, visionOS 2.0, *)
    mutating func decodeIfPresent(_ type: UInt128.Type) throws -> UInt128? { try takeIfPresent(presentElement().map { try decoder.integer(at: $0, path: elementPath) }) }
    mutating func decodeIfPresent<T: Decodable>(_ type: T.Type) throws -> T? {
        let index = currentIndex
        return takeIfPresent(try presentElement().map { try decoder.decodeValue(type, at: $0, site: site, appending: { .index(index) }) })
    }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type) throws -> KeyedDecodingContainer<NestedKey> {
        let entry = try element(KeyedDecodingContainer<NestedKey>.self)
        let container = try JSONKeyedContainer<NestedKey>(decoder, object: entry, site: site.appending(.index(currentIndex)))
        advance()
        return KeyedDecodingContainer(container)
    }

    mutating func nestedUnkeyedContainer() throws -> any UnkeyedDecodingContainer {
        let entry = try element((any UnkeyedDecodingContainer).self, "Cannot get nested unkeyed container -- unkeyed container is at end.")
        let container = try JSONUnkeyedContainer(decoder, array: entry, site: site.appending(.index(currentIndex)))
        advance()
        return container
    }

    mutating func superDecoder() throws -> any Decoder {
        let entry = try element((any Decoder).self, "Cannot get superDecoder() -- unkeyed container is at end.")
        let superDecoder = decoder.detachedDecoder(at: entry, path: decoder.components(site, appending: .index(currentIndex)))
        advance()
        return superDecoder
    }
}
