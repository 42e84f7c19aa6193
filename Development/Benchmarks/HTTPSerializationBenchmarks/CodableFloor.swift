import Foundation

/// The least a `Decodable` decode can cost: the model's own `init(from:)` calls, one keyed
/// container per object, and its strings, arrays and structs built and freed, with no JSON
/// read at all. Values are replayed in the order the model's `encode(to:)` wrote them (the
/// order its `init(from:)` asks for them), keys are never looked at, and strings are copied
/// from bytes without validation, as a decoder does once its scanner has vetted the text.
///
/// `JSONDecoder`'s time over this floor is the most any `Decodable` decoder could reach on a
/// document; the benchmark prints it beside the measured ratio.
enum CodableFloor {
    enum Value {
        case string(start: Int, count: Int, isASCII: Bool)
        case int(Int)
        case double(Double)
        case bool(Bool)
        /// An array of this many elements follows.
        case elements(Int)
    }

    /// What `value` encodes to, in order, with the text of its strings in one buffer.
    struct Script {
        var values: [Value] = []
        var text: [UInt8] = []
    }

    static func record<T: Encodable>(_ value: T) throws -> Script {
        let recorder = Recorder()
        try value.encode(to: recorder)
        return recorder.script
    }

    static func decode<T: Decodable>(_ type: T.Type, replaying script: Script) throws -> T {
        try T(from: Replay(script))
    }

    static func unsupported(_ what: String) -> DecodingError {
        .dataCorrupted(DecodingError.Context(codingPath: [], debugDescription: "the Codable floor replays models of strings, integers, doubles, booleans, arrays and structs, not \(what)"))
    }

    // MARK: Recording

    final class Recorder: Encoder {
        var script = Script()
        var codingPath: [any CodingKey] { [] }
        var userInfo: [CodingUserInfoKey: Any] { [:] }

        func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
            KeyedEncodingContainer(KeyedRecorder<Key>(recorder: self))
        }

        func unkeyedContainer() -> any UnkeyedEncodingContainer {
            script.values.append(.elements(0))
            return UnkeyedRecorder(recorder: self, slot: script.values.count - 1)
        }

        func singleValueContainer() -> any SingleValueEncodingContainer { UnkeyedRecorder(recorder: self, slot: nil) }

        func add(_ string: String) {
            script.values.append(.string(start: script.text.count, count: string.utf8.count, isASCII: string.utf8.allSatisfy { $0 < 0x80 }))
            script.text.append(contentsOf: string.utf8)
        }

        func add<T: Encodable>(_ value: T) throws {
            switch value {
            case let string as String: add(string)
            case let int as Int: script.values.append(.int(int))
            case let double as Double: script.values.append(.double(double))
            case let bool as Bool: script.values.append(.bool(bool))
            default: try value.encode(to: self)
            }
        }
    }

    struct KeyedRecorder<Key: CodingKey>: KeyedEncodingContainerProtocol {
        let recorder: Recorder
        var codingPath: [any CodingKey] { [] }
        func encodeNil(forKey key: Key) throws { throw EncodingError.invalidValue(key, .init(codingPath: [], debugDescription: "null")) }
        func encode<T: Encodable>(_ value: T, forKey key: Key) throws { try recorder.add(value) }
        func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type, forKey key: Key) -> KeyedEncodingContainer<NestedKey> {
            recorder.container(keyedBy: keyType)
        }
        func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer { recorder.unkeyedContainer() }
        func superEncoder() -> any Encoder { recorder }
        func superEncoder(forKey key: Key) -> any Encoder { recorder }
    }

    /// An array's elements (counted into its `.elements` slot), or a single value (no slot).
    struct UnkeyedRecorder: UnkeyedEncodingContainer, SingleValueEncodingContainer {
        let recorder: Recorder
        let slot: Int?
        var codingPath: [any CodingKey] { [] }
        var count = 0

        init(recorder: Recorder, slot: Int?) {
            self.recorder = recorder
            self.slot = slot
        }

        mutating func encodeNil() throws { throw EncodingError.invalidValue(0, .init(codingPath: [], debugDescription: "null")) }
        mutating func encode<T: Encodable>(_ value: T) throws {
            try recorder.add(value)
            count += 1
            if let slot { recorder.script.values[slot] = .elements(count) }
        }
        mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type) -> KeyedEncodingContainer<NestedKey> {
            count += 1
            if let slot { recorder.script.values[slot] = .elements(count) }
            return recorder.container(keyedBy: keyType)
        }
        mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer {
            count += 1
            if let slot { recorder.script.values[slot] = .elements(count) }
            return recorder.unkeyedContainer()
        }
        mutating func superEncoder() -> any Encoder { recorder }
    }

    // MARK: Replaying

    final class Replay: Decoder {
        let values: [Value]
        let text: [UInt8]
        var next = 0
        var codingPath: [any CodingKey] { [] }
        var userInfo: [CodingUserInfoKey: Any] { [:] }

        init(_ script: Script) {
            values = script.values
            text = script.text
        }

        func take() throws -> Value {
            guard next < values.count else { throw CodableFloor.unsupported("more values than were recorded") }
            next += 1
            return values[next - 1]
        }

        func string() throws -> String {
            guard case .string(let start, let count, let isASCII) = try take() else { throw CodableFloor.unsupported("a string where none was recorded") }
            return text.withUnsafeBufferPointer { text in
                String(copying: UTF8Span(unchecked: UnsafeBufferPointer(rebasing: text[start..<start + count]).span, isKnownASCII: isASCII))
            }
        }

        func int() throws -> Int {
            guard case .int(let value) = try take() else { throw CodableFloor.unsupported("an integer where none was recorded") }
            return value
        }

        func double() throws -> Double {
            guard case .double(let value) = try take() else { throw CodableFloor.unsupported("a double where none was recorded") }
            return value
        }

        func bool() throws -> Bool {
            guard case .bool(let value) = try take() else { throw CodableFloor.unsupported("a Boolean where none was recorded") }
            return value
        }

        /// Scalars and arrays of them directly, as `JSONBodyDecoder` reads them, and anything
        /// else through its `init(from:)`.
        func value<T: Decodable>(_ type: T.Type) throws -> T {
            // `T` is checked to be the type read, so the cast is a reinterpretation.
            if T.self == String.self { return unsafeBitCast(try string(), to: T.self) }
            if T.self == Int.self { return unsafeBitCast(try int(), to: T.self) }
            if T.self == Double.self { return unsafeBitCast(try double(), to: T.self) }
            if T.self == Bool.self { return unsafeBitCast(try bool(), to: T.self) }
            if T.self == [String].self { return unsafeBitCast(try array(string), to: T.self) }
            if T.self == [Int].self { return unsafeBitCast(try array(int), to: T.self) }
            if T.self == [Double].self { return unsafeBitCast(try array(double), to: T.self) }
            return try T(from: self)
        }

        func array<Element>(_ element: () throws -> Element) throws -> [Element] {
            guard case .elements(let count) = try take() else { throw CodableFloor.unsupported("an array where none was recorded") }
            var elements: [Element] = []
            elements.reserveCapacity(count)
            for _ in 0..<count { elements.append(try element()) }
            return elements
        }

        func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
            KeyedDecodingContainer(KeyedReplay<Key>(replay: self))
        }

        func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
            guard case .elements(let count) = try take() else { throw CodableFloor.unsupported("an array where none was recorded") }
            return UnkeyedReplay(replay: self, count: count)
        }

        func singleValueContainer() throws -> any SingleValueDecodingContainer { throw CodableFloor.unsupported("a single value") }
    }

    struct KeyedReplay<Key: CodingKey>: KeyedDecodingContainerProtocol {
        let replay: Replay
        var codingPath: [any CodingKey] { [] }
        var allKeys: [Key] { [] }
        func contains(_ key: Key) -> Bool { true }
        func decodeNil(forKey key: Key) throws -> Bool { false }
        func decode(_ type: Bool.Type, forKey key: Key) throws -> Bool { try replay.bool() }
        func decode(_ type: String.Type, forKey key: Key) throws -> String { try replay.string() }
        func decode(_ type: Double.Type, forKey key: Key) throws -> Double { try replay.double() }
        func decode(_ type: Int.Type, forKey key: Key) throws -> Int { try replay.int() }
        func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T { try replay.value(type) }
        func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type, forKey key: Key) throws -> KeyedDecodingContainer<NestedKey> {
            try replay.container(keyedBy: type)
        }
        func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer { try replay.unkeyedContainer() }
        func superDecoder() throws -> any Decoder { replay }
        func superDecoder(forKey key: Key) throws -> any Decoder { replay }
    }

    struct UnkeyedReplay: UnkeyedDecodingContainer {
        let replay: Replay
        var codingPath: [any CodingKey] { [] }
        let count: Int?
        var currentIndex = 0

        init(replay: Replay, count: Int) {
            self.replay = replay
            self.count = count
        }

        var isAtEnd: Bool { currentIndex >= count! }
        mutating func decodeNil() throws -> Bool { false }
        mutating func decode<T: Decodable>(_ type: T.Type) throws -> T {
            guard !isAtEnd else { throw CodableFloor.unsupported("an element past the end") }
            currentIndex += 1
            return try replay.value(type)
        }
        mutating func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type) throws -> KeyedDecodingContainer<NestedKey> {
            currentIndex += 1
            return try replay.container(keyedBy: type)
        }
        mutating func nestedUnkeyedContainer() throws -> any UnkeyedDecodingContainer {
            currentIndex += 1
            return try replay.unkeyedContainer()
        }
        mutating func superDecoder() throws -> any Decoder { replay }
    }
}
