#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// How the package's JSON writer lays out its output; the names are
/// `JSONSerialization.WritingOptions`'s, and so is the output for each.
public struct JSONWritingOptions: OptionSet, Sendable, Hashable {
    /// The same bits as `JSONSerialization.WritingOptions`, so archived options carry over.
    public let rawValue: UInt
    /// Options from their bits, which are `JSONSerialization.WritingOptions`'s.
    public init(rawValue: UInt) { self.rawValue = rawValue }

    /// Line breaks and two-space indentation, `"key" : value` in objects.
    public static let prettyPrinted = JSONWritingOptions(rawValue: 1 << 0)
    /// Object keys in `JSONSerialization`'s order: punctuation, then digit runs by value, then
    /// letters ignoring case (`"a_b" < "a2" < "a10" < "B"`), lower case first among ties.
    /// (`JSONBodyEncoder` orders them as `JSONEncoder` does: byte by byte in UTF-8.)
    public static let sortedKeys = JSONWritingOptions(rawValue: 1 << 1)
    /// `/` written as is rather than as `\/`.
    public static let withoutEscapingSlashes = JSONWritingOptions(rawValue: 1 << 3)
    /// A bare string, number, boolean or null may be the whole document.
    public static let fragmentsAllowed = JSONWritingOptions(rawValue: 1 << 2)
}

extension ParameterValue {
    /// This value as JSON text in UTF-8, written by the package's own writer.
    ///
    /// The bytes `JSONSerialization.data(withJSONObject:options:)` writes for the same value
    /// (numbers shortest-round-trip, `/` escaped unless told not to), without building
    /// Foundation objects first; `JSONRequestSerializer` bodies come from here.
    ///
    /// ```swift
    /// let body = try ParameterValue(["id": 7, "tags": ["a/b"]]).jsonData(options: .sortedKeys)
    /// // {"id":7,"tags":["a\/b"]}
    /// ```
    ///
    /// - Throws: ``RequestSerializationError/invalidJSONParameters(reason:underlying:)`` for
    ///   NaN, infinity, data, dates, sets, or a bare scalar without `.fragmentsAllowed`, naming
    ///   where the value is; ``RequestSerializationError/nestingTooDeep(path:limit:)`` past `maximumDepth`.
    public func jsonData(options: JSONWritingOptions = [], maximumDepth: Int = ParameterValue.defaultMaximumDepth) throws -> Data {
        try jsonData(options: options, maximumDepth: maximumDepth, keyOrder: .serialization)
    }

    /// ``jsonData(options:maximumDepth:)`` with `.sortedKeys` in `keyOrder`: how
    /// `JSONBodyEncoder` writes `JSONEncoder`'s order.
    package func jsonData(options: JSONWritingOptions, maximumDepth: Int, keyOrder: JSONKeyOrder) throws -> Data {
        let writer = try writtenJSON(options: options, maximumDepth: maximumDepth, keyOrder: keyOrder)
        return writer.output.takeData()
    }

    /// Appends this value's JSON text to `bytes`: what ``jsonData(options:maximumDepth:)``
    /// returns, without the `Data`.
    package func appendJSON(to bytes: inout [UInt8], options: JSONWritingOptions, maximumDepth: Int) throws {
        let writer = try writtenJSON(options: options, maximumDepth: maximumDepth)
        writer.output.copy(into: &bytes)
    }

    private func writtenJSON(options: JSONWritingOptions, maximumDepth: Int, keyOrder: JSONKeyOrder = .serialization) throws -> JSONWriter {
        if !isContainer, !options.contains(.fragmentsAllowed) {
            throw RequestSerializationError.invalidJSONParameters(reason: "A top-level scalar needs the .fragmentsAllowed writing option.")
        }
        try checkDepth(limit: maximumDepth)
        var writer = JSONWriter(options: options, keyOrder: keyOrder)
        try writer.write(self)
        return writer
    }
}

/// Writes a parameter tree as JSON with an explicit stack of open containers.
@usableFromInline
package struct JSONWriter {
    /// The text written so far.
    @usableFromInline package let output = ByteOutput()
    @usableFromInline let pretty: Bool
    @usableFromInline let sortsKeys: Bool
    @usableFromInline let escapesSlashes: Bool
    /// The order `.sortedKeys` writes keys in.
    let keyOrder: JSONKeyOrder

    package init(options: JSONWritingOptions, keyOrder: JSONKeyOrder = .serialization) {
        pretty = options.contains(.prettyPrinted)
        sortsKeys = options.contains(.sortedKeys)
        escapesSlashes = !options.contains(.withoutEscapingSlashes)
        self.keyOrder = keyOrder
    }

    /// An open array or object and the position of its next value. Objects are walked in
    /// place: in the dictionary's own order, or through their keys sorted once.
    private struct Frame {
        var elements: [ParameterValue] = []
        var entries: [String: ParameterValue] = [:]
        /// The next entry when keys are not sorted.
        var position: Dictionary<String, ParameterValue>.Index
        var sortedKeys: [String] = []
        var isObject: Bool
        var next = 0
        var count: Int

        /// The key of the value written last (for an error's path, so found by a walk).
        func lastKey(sorted: Bool) -> String {
            if sorted { return sortedKeys[next - 1] }
            return entries[entries.index(entries.startIndex, offsetBy: next - 1)].key
        }
    }

    /// Writes `root` whole. When a streaming encoder hands over a tree, `level` is how deep it
    /// stands in the text already written (for pretty output's indentation) and `path` where
    /// (for errors). Returns how many values it wrote, containers included.
    @discardableResult
    package mutating func write(_ root: ParameterValue, level: Int = 0, at path: ParameterPath = ParameterPath()) throws -> Int {
        var stack: [Frame] = []
        var value = root
        var written = 0
        let sorted = sortsKeys
        while true {
            written += 1
            switch value {
            case .array(let array):
                openContainer(isObject: false)
                stack.append(Frame(elements: array.elements, position: [String: ParameterValue]().startIndex, isObject: false,
                                   count: array.elements.count))
            case .dictionary(let dictionary):
                openContainer(isObject: true)
                let entries = dictionary.entries
                if sortsKeys {
                    stack.append(Frame(entries: entries, position: entries.startIndex, sortedKeys: keyOrder.sorted(entries.keys),
                                       isObject: true, count: entries.count))
                } else {
                    stack.append(Frame(entries: entries, position: entries.startIndex, isObject: true, count: entries.count))
                }
            default:
                try writeScalar(value) { Self.path(of: stack, from: path, sorted: sorted) }
            }
            // Move to the next value, closing every container that has none left. The top
            // frame is changed in place, never copied out (a copy would retain its storage).
            while let top = stack.indices.last {
                let next = stack[top].next
                if next < stack[top].count {
                    let depth = level + stack.count
                    if !stack[top].isObject {
                        separator(first: next == 0, level: depth)
                        value = stack[top].elements[next]
                    } else if sortsKeys {
                        let name = stack[top].sortedKeys[next]
                        member(first: next == 0, level: depth, key: name)
                        value = stack[top].entries[name]!
                    } else {
                        let position = stack[top].position
                        let entry = stack[top].entries[position]
                        member(first: next == 0, level: depth, key: entry.key)
                        value = entry.value
                        stack[top].position = stack[top].entries.index(after: position)
                    }
                    stack[top].next = next + 1
                    break
                }
                let isObject = stack[top].isObject
                stack.removeLast()
                closeContainer(isObject: isObject, level: level + stack.count)
            }
            if stack.isEmpty { return written }
        }
    }

    /// The path of the value just reached, from the open containers.
    private static func path(of stack: [Frame], from start: ParameterPath, sorted: Bool) -> ParameterPath {
        var path = start
        for frame in stack {
            path = path.appending(frame.isObject ? .key(frame.lastKey(sorted: sorted)) : .index(frame.next - 1))
        }
        return path
    }

    // MARK: Pieces (shared with the streaming encoder)

    @inlinable package mutating func openContainer(isObject: Bool) {
        output.append(isObject ? UInt8(ascii: "{") : UInt8(ascii: "["))
        if pretty { output.append(UInt8(ascii: "\n")) }
    }

    /// What goes before a value at nesting `level`: a comma unless it is the first, and in
    /// pretty output a line break and indentation.
    @inlinable package mutating func separator(first: Bool, level: Int) {
        if !first {
            output.append(UInt8(ascii: ","))
            if pretty { output.append(UInt8(ascii: "\n")) }
        }
        if pretty { indent(level) }
    }

    /// A key given as UTF-8 bytes, quoted and escaped as ``writeString(_:)`` writes a string,
    /// then the colon.
    @inlinable package mutating func key(utf8 bytes: UnsafeBufferPointer<UInt8>) {
        output.append(UInt8(ascii: "\""))
        appendEscaped(bytes)
        output.append(UInt8(ascii: "\""))
        if pretty { output.append(" : ") } else { output.append(UInt8(ascii: ":")) }
    }

    /// The separator before a value of an object at nesting `level` and its key given as
    /// UTF-8 bytes: ``separator(first:level:)`` then ``key(utf8:)``, in one reservation and a
    /// few word stores for compact output and keys of 1 to 16 bytes that need no escape (nearly
    /// every coding key, and most dictionary keys). Every writer writes object keys this way.
    @inlinable package mutating func member(first: Bool, level: Int, key bytes: UnsafeBufferPointer<UInt8>) {
        let count = bytes.count
        guard !pretty, count >= 1, count <= 16, let source = bytes.baseAddress else {
            separator(first: first, level: level)
            return key(utf8: bytes)
        }
        // The key as two words that together cover it: its first and last eight bytes, or
        // (up to eight) the bytes then zeros.
        let low: UInt64, high: UInt64, flags: UInt64
        if count >= 8 {
            low = UnsafeRawPointer(source).loadUnaligned(as: UInt64.self).littleEndian
            high = UnsafeRawPointer(source).loadUnaligned(fromByteOffset: count &- 8, as: UInt64.self).littleEndian
            flags = escapeFlags(low) | escapeFlags(high)
        } else {
            low = ShortBytes.word(source, count: count)
            high = low
            // The zero bytes above the key would pass for control characters.
            flags = escapeFlags(low) & (0x8080_8080_8080_8080 &>> UInt64(64 &- 8 &* count))
        }
        guard flags == 0 else {
            separator(first: first, level: level)
            return key(utf8: bytes)
        }
        // A comma, a quote, the key, a quote and a colon; the word stores may run 8 bytes past.
        output.reserve(count &+ 4 &+ 8)
        var start = output.count
        if !first {
            output.base[start] = UInt8(ascii: ",")
            start &+= 1
        }
        let at = UnsafeMutableRawPointer(output.base + start)
        at.storeBytes(of: UInt8(ascii: "\""), as: UInt8.self)
        at.storeBytes(of: low.littleEndian, toByteOffset: 1, as: UInt64.self)
        if count > 8 { at.storeBytes(of: high.littleEndian, toByteOffset: 1 &+ count &- 8, as: UInt64.self) }
        at.storeBytes(of: UInt8(ascii: "\""), toByteOffset: 1 &+ count, as: UInt8.self)
        at.storeBytes(of: UInt8(ascii: ":"), toByteOffset: 2 &+ count, as: UInt8.self)
        output.count = start &+ 3 &+ count
    }

    /// ``member(first:level:key:)`` for a key given as a `String`.
    @inlinable package mutating func member(first: Bool, level: Int, key: String) {
        key.withBorrowedUTF8 { member(first: first, level: level, key: $0) }
    }

    /// Closes a container whose parent is at nesting `level`.
    @inlinable package mutating func closeContainer(isObject: Bool, level: Int) {
        if pretty {
            output.append(UInt8(ascii: "\n"))
            indent(level)
        }
        output.append(isObject ? UInt8(ascii: "}") : UInt8(ascii: "]"))
    }

    /// A number already written as JSON text, less a trailing `.0` as `JSONSerialization` writes it.
    @inlinable package mutating func writeNumberText(_ text: String) {
        var text = text
        if text.hasSuffix(".0") { text.removeLast(2) }
        output.append(utf8Of: text)
    }

    @usableFromInline mutating func indent(_ level: Int) {
        output.append(repeating: 0x20, count: 2 * level)
    }

    /// A string, number, boolean or null; `path` names the value for an error.
    @inlinable package mutating func writeScalar(_ value: ParameterValue, path: () -> ParameterPath) throws {
        func refusal(_ reason: String) -> RequestSerializationError {
            RequestSerializationError.refusedValue(inJSON: true, path: path(), reason: reason)
        }
        switch value {
        case .string(let string):
            writeString(string)
        case .int(let int):
            writeInteger(int)
        case .double(let double):
            guard double.isFinite else { throw refusal("\(double) is not a JSON number") }
            writeNumberText(double.description)
        case .decimal(let decimal):
            guard !decimal.isNaN else { throw refusal("NaN is not a JSON number") }
            DecimalText.append(decimal, to: output)
        case .bool(let flag):
            if flag { output.append("true") } else { output.append("false") }
        case .null:
            output.append("null")
        case .data:
            throw refusal("binary data has no JSON form; encode it as a string first")
        case .date:
            throw refusal("a date has no JSON form; encode it as a string or number first")
        case .set:
            throw refusal("a set has no JSON form; use an array")
        case .array, .dictionary:
            preconditionFailure("containers are opened by write(_:)")
        }
    }

    @usableFromInline mutating func writeInteger(_ value: Int) {
        if value < 0 { output.append(UInt8(ascii: "-")) }
        var magnitude = value.magnitude
        let start = output.count
        repeat {
            output.append(UInt8(ascii: "0") + UInt8(magnitude % 10))
            magnitude /= 10
        } while magnitude > 0
        output.reverse(from: start)
    }

    private static let hexDigits = Array("0123456789abcdef".utf8)

    /// A string in quotes, escaped as `JSONSerialization` escapes it: `"`, `\`, `/` (unless
    /// told not to) and control characters; everything else as its UTF-8 bytes.
    @inlinable package mutating func writeString(_ string: String) {
        output.append(UInt8(ascii: "\""))
        string.withBorrowedUTF8 { appendEscaped($0) }
        output.append(UInt8(ascii: "\""))
    }

    /// Appends `bytes` with the characters JSON requires escaped written as escapes.
    ///
    /// Sixteen bytes at a time, then eight: each block is stored whole into spare capacity,
    /// and the count advances past the bytes before the first one that needs an escape (all
    /// of them when none does). The last one to seven bytes are read as one word too, so a
    /// short string costs a word or two, never a loop over its bytes.
    @inlinable mutating func appendEscaped(_ bytes: UnsafeBufferPointer<UInt8>) {
        guard let source = bytes.baseAddress else { return }
        let count = bytes.count
        var index = 0
        // Room for the rest unescaped, plus a block's overrun past it.
        output.reserve(count &+ 16)
        // Sixteen bytes at a time while that many are left, then a word at a time.
        while count &- index >= 16 {
            let block = UnsafeRawPointer(source + index)
            UnsafeMutableRawPointer(output.base + output.count).storeBytes(of: block.loadUnaligned(as: SIMD16<UInt8>.self), as: SIMD16<UInt8>.self)
            let clean = ByteBlock.firstEscaped(block, slashes: escapesSlashes)
            output.count &+= clean
            index &+= clean
            if clean == 16 { continue }
            writeEscape(source[index])
            index &+= 1
            output.reserve(count &- index &+ 16)
        }
        while index < count {
            let remaining = count &- index
            let word: UInt64, width: Int, flags: UInt64
            if remaining >= 8 {
                word = UnsafeRawPointer(source + index).loadUnaligned(as: UInt64.self).littleEndian
                width = 8
                flags = escapeFlags(word)
            } else {
                word = ShortBytes.word(source + index, count: remaining)
                width = remaining
                // The zero bytes above the text would pass for control characters.
                flags = escapeFlags(word) & (0x8080_8080_8080_8080 &>> UInt64(64 &- 8 &* remaining))
            }
            UnsafeMutableRawPointer(output.base + output.count).storeBytes(of: word.littleEndian, as: UInt64.self)
            if flags == 0 {
                output.count &+= width
                index &+= width
                continue
            }
            // The lowest flagged byte is exact; later ones may be false alarms (a borrow).
            let clean = flags.trailingZeroBitCount &>> 3
            output.count &+= clean
            index &+= clean
            writeEscape(source[index])
            index &+= 1
            output.reserve(count &- index &+ 16)
        }
    }

    /// The high bit of each byte of `word` (byte 0 lowest) that JSON requires escaped: below
    /// 0x20, a quote, a backslash, and a slash unless told otherwise. Only the lowest is exact.
    @inlinable func escapeFlags(_ word: UInt64) -> UInt64 {
        let ones: UInt64 = 0x0101_0101_0101_0101
        let highs: UInt64 = 0x8080_8080_8080_8080
        func hasZero(_ word: UInt64) -> UInt64 { (word &- ones) & ~word & highs }
        // Bytes below 0x20 (a byte with its top bit set is never one), quotes, backslashes, slashes.
        var flags = (word &- 0x20 &* ones) & ~word & highs
        flags |= hasZero(word ^ (UInt64(UInt8(ascii: "\"")) &* ones)) | hasZero(word ^ (UInt64(UInt8(ascii: "\\")) &* ones))
        if escapesSlashes { flags |= hasZero(word ^ (UInt64(UInt8(ascii: "/")) &* ones)) }
        return flags
    }

    @usableFromInline mutating func writeEscape(_ byte: UInt8) {
        output.append(UInt8(ascii: "\\"))
        switch byte {
        case 0x08: output.append(UInt8(ascii: "b"))
        case 0x0C: output.append(UInt8(ascii: "f"))
        case 0x0A: output.append(UInt8(ascii: "n"))
        case 0x0D: output.append(UInt8(ascii: "r"))
        case 0x09: output.append(UInt8(ascii: "t"))
        case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): output.append(byte)
        default:
            output.append("u00")
            output.append(Self.hexDigits[Int(byte >> 4)])
            output.append(Self.hexDigits[Int(byte & 0xF)])
        }
    }
}

/// The orders `.sortedKeys` writes keys in: each of Foundation's two writers has its own.
///
/// - ``serialization``: `JSONSerialization`'s (and AFNetworking's JSON bodies'), which compares
///   keys with `[.numeric, .caseInsensitive, .forcedOrdering]` in the system locale (Unicode
///   collation). Modelled for ASCII as observed on Linux: controls are ignored; space, then
///   punctuation and symbols in collation order, then digit runs by numeric value, then letters
///   ignoring case. Ties go to the key whose letters are lower case first, then to fewer leading
///   zeros, then to code point order. Other characters follow the letters by code point
///   (Foundation would place them by the collation tables, `é` beside `e`).
/// - ``utf8``: `JSONEncoder`'s, byte by byte in UTF-8, as swift-foundation sorts on every
///   platform (on Apple platforms, for apps built with a current SDK).
package enum JSONKeyOrder: Sendable {
    case serialization
    case utf8

    /// Keys sorted in this order.
    package func sorted(_ keys: some Sequence<String>) -> [String] {
        switch self {
        case .serialization: return Self.collated(keys)
        case .utf8: return keys.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }
        }
    }

    /// Keys in `JSONSerialization`'s order, each key's comparison form computed once.
    private static func collated(_ keys: some Sequence<String>) -> [String] {
        keys.map { (SortKey($0), $0) }.sorted { $0.0 < $1.0 }.map(\.1)
    }

    private static let symbols = Array(" _-,;:!?.'\"()[]{}@*/\\&#%`^+<=>|~$".unicodeScalars)

    private struct SortKey: Comparable {
        var primary: [UInt32] = []
        var cases: [UInt8] = []
        var zeros: [Int] = []
        var scalars: [UInt32] = []

        init(_ key: String) {
            let scalars = Array(key.unicodeScalars)
            self.scalars = scalars.map(\.value)
            var index = 0
            while index < scalars.count {
                let value = scalars[index].value
                switch value {
                case 0x30...0x39:
                    // A digit run: its length without leading zeros, then its digits.
                    var end = index
                    while end < scalars.count, (0x30...0x39).contains(scalars[end].value) { end += 1 }
                    var significant = index
                    while significant < end - 1, scalars[significant].value == 0x30 { significant += 1 }
                    zeros.append(significant - index)
                    primary.append(1_000 + UInt32(end - significant))
                    primary.append(contentsOf: scalars[significant..<end].map { 1_000 + $0.value })
                    index = end
                    continue
                case 0x41...0x5A:
                    primary.append(2_000 + value + 0x20)
                    cases.append(1)
                case 0x61...0x7A:
                    primary.append(2_000 + value)
                    cases.append(0)
                case 0..<0x20, 0x7F:
                    break
                default:
                    if let rank = JSONKeyOrder.symbols.firstIndex(of: scalars[index]) {
                        primary.append(UInt32(rank) + 1)
                    } else {
                        primary.append(3_000 + value)
                    }
                }
                index += 1
            }
        }

        static func < (lhs: SortKey, rhs: SortKey) -> Bool {
            if lhs.primary != rhs.primary { return lhs.primary.lexicographicallyPrecedes(rhs.primary) }
            if lhs.cases != rhs.cases { return lhs.cases.lexicographicallyPrecedes(rhs.cases) }
            if lhs.zeros != rhs.zeros { return lhs.zeros.lexicographicallyPrecedes(rhs.zeros) }
            return lhs.scalars.lexicographicallyPrecedes(rhs.scalars)
        }

        static func == (lhs: SortKey, rhs: SortKey) -> Bool { lhs.scalars == rhs.scalars }
    }
}
