import Foundation
import HTTPSerializationCore

/// Reads `bplist00` property lists: the trailer, the offset table, then each object once.
///
/// Objects are decoded into a table by index, so an object referenced from many places (a
/// list of 22 arrays each holding the next twice, say) costs one decode and one shared
/// value; Foundation expands such lists exponentially. No recursion: containers are built
/// from an explicit stack, an object on it that is met again is a cycle.
struct BinaryPropertyListReader {
    private let bytes: [UInt8]
    private let maximumDepth: Int
    private var offsetSize = 0
    private var referenceSize = 0
    private var objectCount = 0
    private var topObject = 0
    private var offsetTable = 0
    private var objectsEnd = 0

    init(_ bytes: [UInt8], maximumDepth: Int) {
        self.bytes = bytes
        self.maximumDepth = maximumDepth
    }

    private func corrupt(_ detail: String, at offset: Int? = nil) -> PropertyListReadingError {
        PropertyListReadingError(.corruptBinary(detail), offset: offset)
    }

    mutating func read() throws(PropertyListReadingError) -> PropertyListValue {
        guard bytes.count >= 8 + 32, bytes.starts(with: Array("bplist00".utf8)) else {
            throw corrupt("not a bplist00 file, or too short for its trailer")
        }
        let trailer = bytes.count - 32
        offsetSize = Int(bytes[trailer + 6])
        referenceSize = Int(bytes[trailer + 7])
        guard (1...8).contains(offsetSize), (1...8).contains(referenceSize) else {
            throw corrupt("offset or reference size \(offsetSize)/\(referenceSize) is not 1 to 8 bytes", at: trailer + 6)
        }
        let count = unsigned(at: trailer + 8, size: 8)
        let top = unsigned(at: trailer + 16, size: 8)
        let table = unsigned(at: trailer + 24, size: 8)
        // An object takes at least one byte, so there are never more objects than bytes.
        guard count >= 1, count <= UInt64(trailer), top < count, table >= 8, table < UInt64(trailer) else {
            throw corrupt("the trailer's object count, top object or offset table is out of range", at: trailer + 8)
        }
        let (tableBytes, overflow) = Int(count).multipliedReportingOverflow(by: offsetSize)
        guard !overflow, Int(table) + tableBytes <= trailer else {
            throw corrupt("the offset table runs past the trailer", at: Int(table))
        }
        objectCount = Int(count)
        topObject = Int(top)
        offsetTable = Int(table)
        objectsEnd = offsetTable
        return try readObjects()
    }

    /// Big-endian unsigned integer of `size` bytes (the caller checked the range).
    private func unsigned(at offset: Int, size: Int) -> UInt64 {
        var value: UInt64 = 0
        for index in offset..<(offset + size) { value = value << 8 | UInt64(bytes[index]) }
        return value
    }

    private func offset(ofObject index: Int) throws(PropertyListReadingError) -> Int {
        let value = unsigned(at: offsetTable + index * offsetSize, size: offsetSize)
        guard value >= 8, value < UInt64(objectsEnd) else {
            throw corrupt("object \(index) has offset \(value), outside the object area", at: offsetTable + index * offsetSize)
        }
        return Int(value)
    }

    /// What an object is, once its marker and length are read.
    private enum Object {
        case value(PropertyListValue)
        case array(references: Int, count: Int)
        case dictionary(references: Int, count: Int)
    }

    /// The bytes an object spans, from its marker to its last payload or reference byte.
    private func extent(of object: Object, from start: Int, payloadEnd: Int) -> Int {
        switch object {
        case .value: return payloadEnd - start
        case .array(let references, let count): return references + count * referenceSize - start
        case .dictionary(let references, let count): return references + 2 * count * referenceSize - start
        }
    }

    /// A container being built: its children's object numbers and the values found so far.
    private struct Frame {
        let index: Int
        let isDictionary: Bool
        let children: [Int]
        var values: [PropertyListValue] = []
    }

    private mutating func readObjects() throws(PropertyListReadingError) -> PropertyListValue {
        var decoded = [PropertyListValue?](repeating: nil, count: objectCount)
        var onStack = [Bool](repeating: false, count: objectCount)
        var stack: [Frame] = []
        // Objects listed at one offset are one object, decoded once; and since no two objects
        // of a real file overlap, the bytes they span add up to at most the object area. A file
        // whose objects claim more (overlapping data, say) would cost time quadratic in its size.
        var firstAtOffset: [Int: Int] = [:]
        var same = [Int](repeating: 0, count: objectCount)
        for index in 0..<objectCount {
            let offset = try offset(ofObject: index)
            if let first = firstAtOffset[offset] { same[index] = first } else {
                firstAtOffset[offset] = index
                same[index] = index
            }
        }
        var spanned = 0
        let area = objectsEnd - 8

        // Decodes an object that is not a container straight into the table, or pushes one.
        func visit(_ index: Int) throws(PropertyListReadingError) {
            let references: Int, count: Int, isDictionary: Bool
            let (object, start, payloadEnd) = try self.object(at: index)
            spanned += extent(of: object, from: start, payloadEnd: payloadEnd)
            guard spanned <= area else { throw corrupt("objects overlap: they span more bytes than the file holds", at: start) }
            switch object {
            case .value(let value):
                decoded[index] = value
                return
            case .array(let start, let length): (references, count, isDictionary) = (start, length, false)
            case .dictionary(let start, let length): (references, count, isDictionary) = (start, length, true)
            }
            guard stack.count < maximumDepth else { throw PropertyListReadingError(.nestingTooDeep(limit: maximumDepth)) }
            let total = isDictionary ? count * 2 : count
            var children: [Int] = []
            children.reserveCapacity(total)
            for child in 0..<total {
                let reference = unsigned(at: references + child * referenceSize, size: referenceSize)
                guard reference < UInt64(objectCount) else {
                    throw corrupt("a reference to object \(reference) of \(objectCount)", at: references + child * referenceSize)
                }
                children.append(same[Int(reference)])
            }
            onStack[index] = true
            stack.append(Frame(index: index, isDictionary: isDictionary, children: children))
        }

        let top = same[topObject]
        try visit(top)
        while var frame = stack.popLast() {
            if frame.values.count < frame.children.count {
                let child = frame.children[frame.values.count]
                if let value = decoded[child] {
                    frame.values.append(value)
                    stack.append(frame)
                    continue
                }
                guard !onStack[child] else { throw PropertyListReadingError(.cycle) }
                stack.append(frame)
                try visit(child)
                continue
            }
            decoded[frame.index] = try build(frame)
            onStack[frame.index] = false
        }
        guard let value = decoded[top] else { throw corrupt("the top object could not be read") }
        return value
    }

    private func build(_ frame: Frame) throws(PropertyListReadingError) -> PropertyListValue {
        guard frame.isDictionary else { return .array(frame.values) }
        let half = frame.values.count / 2
        var entries: [PropertyListValue.Entry] = []
        entries.reserveCapacity(half)
        for index in 0..<half {
            guard case .string(let key) = frame.values[index] else {
                throw PropertyListReadingError(.invalidValue("a dictionary key that is not a string (object \(frame.children[index]))"))
            }
            entries.append(PropertyListValue.Entry(key: key, value: frame.values[half + index]))
        }
        return .dictionary(entries)
    }

    /// Reads object `index`'s marker and, for scalars, its value.
    private func object(at index: Int) throws(PropertyListReadingError) -> (Object, start: Int, payloadEnd: Int) {
        let start = try offset(ofObject: index)
        var cursor = start
        let object = try object(at: start, cursor: &cursor)
        return (object, start, cursor)
    }

    /// Reads the object whose marker is at `start`; `cursor` ends after its scalar payload.
    private func object(at start: Int, cursor: inout Int) throws(PropertyListReadingError) -> Object {
        let marker = bytes[cursor]
        cursor += 1
        let kind = marker >> 4
        let low = Int(marker & 0x0F)
        switch kind {
        case 0x0:
            switch marker {
            case 0x08: return .value(.boolean(false))
            case 0x09: return .value(.boolean(true))
            default: throw corrupt("marker 0x\(String(marker, radix: 16)) (null or fill) has no property-list value", at: start)
            }
        case 0x1:
            guard low <= 4 else { throw corrupt("an integer of 2^\(low) bytes", at: start) }
            defer { cursor += 1 << low }
            return .value(try integer(at: cursor, size: 1 << low))
        case 0x2:
            guard low == 2 || low == 3 else { throw corrupt("a real of 2^\(low) bytes", at: start) }
            try need(cursor, 1 << low, start)
            let raw = unsigned(at: cursor, size: 1 << low)
            cursor += 1 << low
            return .value(.real(low == 2 ? Double(Float(bitPattern: UInt32(raw))) : Double(bitPattern: raw)))
        case 0x3:
            guard marker == 0x33 else { throw corrupt("a date marker 0x\(String(marker, radix: 16))", at: start) }
            try need(cursor, 8, start)
            defer { cursor += 8 }
            return .value(.date(Date(timeIntervalSinceReferenceDate: Double(bitPattern: unsigned(at: cursor, size: 8)))))
        case 0x4:
            let count = try length(low, &cursor, start)
            try need(cursor, count, start)
            defer { cursor += count }
            return .value(.data(Data(bytes[cursor..<(cursor + count)])))
        case 0x5:
            let count = try length(low, &cursor, start)
            try need(cursor, count, start)
            let slice = bytes[cursor..<(cursor + count)]
            cursor += count
            guard slice.allSatisfy({ $0 < 0x80 }) else { throw corrupt("an ASCII string with a byte above 0x7F", at: start) }
            return .value(.string(String(decoding: slice, as: UTF8.self)))
        case 0x6:
            let count = try length(low, &cursor, start)
            let (byteCount, overflow) = count.multipliedReportingOverflow(by: 2)
            guard !overflow else { throw corrupt("a string length that overflows", at: start) }
            try need(cursor, byteCount, start)
            var units: [UInt16] = []
            units.reserveCapacity(count)
            for unit in 0..<count { units.append(UInt16(bytes[cursor + 2 * unit]) << 8 | UInt16(bytes[cursor + 2 * unit + 1])) }
            cursor += byteCount
            guard let string = String(validating: units, as: UTF16.self) else {
                throw corrupt("a UTF-16 string with a lone surrogate", at: start)
            }
            return .value(.string(string))
        case 0x7:
            let count = try length(low, &cursor, start)
            try need(cursor, count, start)
            guard let string = String(validating: bytes[cursor..<(cursor + count)], as: UTF8.self) else {
                throw corrupt("a UTF-8 string that is not valid UTF-8", at: start)
            }
            cursor += count
            return .value(.string(string))
        case 0x8:
            try need(cursor, low + 1, start)
            defer { cursor += low + 1 }
            return .value(.uid(unsigned(at: cursor, size: low + 1)))
        case 0xA, 0xC, 0xD:
            let count = try length(low, &cursor, start)
            let references = (kind == 0xD ? count * 2 : count).multipliedReportingOverflow(by: referenceSize)
            guard count <= objectsEnd, !references.overflow else { throw corrupt("a container length that overflows", at: start) }
            try need(cursor, references.partialValue, start)
            return kind == 0xD ? .dictionary(references: cursor, count: count) : .array(references: cursor, count: count)
        default:
            throw corrupt("unknown marker 0x\(String(marker, radix: 16))", at: start)
        }
    }

    /// Throws unless `count` bytes from `cursor` lie inside the object area.
    private func need(_ cursor: Int, _ count: Int, _ start: Int) throws(PropertyListReadingError) {
        guard count >= 0, cursor <= objectsEnd, count <= objectsEnd - cursor else {
            throw corrupt("an object runs past the object area", at: start)
        }
    }

    /// The length in a marker's low nibble, or in the integer object after it (nibble 0xF).
    private func length(_ low: Int, _ cursor: inout Int, _ start: Int) throws(PropertyListReadingError) -> Int {
        guard low == 0xF else { return low }
        try need(cursor, 1, start)
        let marker = bytes[cursor]
        guard marker >> 4 == 0x1, marker & 0x0F <= 3 else { throw corrupt("a length that is not an integer of 1 to 8 bytes", at: cursor) }
        let size = 1 << Int(marker & 0x0F)
        try need(cursor + 1, size, start)
        let value = unsigned(at: cursor + 1, size: size)
        guard value <= UInt64(objectsEnd) else { throw corrupt("a length of \(value), past the file", at: start) }
        cursor += 1 + size
        return Int(value)
    }

    /// 1, 2 and 4-byte integers are unsigned; 8 and 16-byte ones are signed two's complement.
    private func integer(at cursor: Int, size: Int) throws(PropertyListReadingError) -> PropertyListValue {
        try need(cursor, size, cursor - 1)
        if size <= 8 {
            let raw = unsigned(at: cursor, size: size)
            return .integer(size == 8 ? Int64(bitPattern: raw) : Int64(raw))
        }
        let high = unsigned(at: cursor, size: 8)
        let low = unsigned(at: cursor + 8, size: 8)
        return PropertyListIntegers.value(high: high, low: low)
    }
}

/// Integers of up to 128 bits, kept exact.
enum PropertyListIntegers {
    /// A 128-bit two's-complement integer: `.integer` when it fits `Int64`, else an exact `Decimal`.
    static func value(high: UInt64, low: UInt64) -> PropertyListValue {
        let negative = high >> 63 == 1
        if (high == 0 && low >> 63 == 0) || (high == UInt64.max && low >> 63 == 1) {
            return .integer(Int64(bitPattern: low))
        }
        // Magnitude of a negative value: two's complement of the 128 bits.
        var (magnitudeHigh, magnitudeLow) = (high, low)
        if negative {
            magnitudeLow = ~low &+ 1
            magnitudeHigh = ~high &+ (magnitudeLow == 0 ? 1 : 0)
        }
        return .largeInteger(decimal(high: magnitudeHigh, low: magnitudeLow, negative: negative))
    }

    /// An exact `Decimal` from a 128-bit magnitude: Decimal's mantissa is 128 bits wide, so
    /// `high · 2⁶⁴ + low` is represented without rounding.
    static func decimal(high: UInt64, low: UInt64, negative: Bool) -> Decimal {
        var value = Decimal(high) * twoToThe64 + Decimal(low)
        if negative { value.negate() }
        return value
    }

    private static let twoToThe64 = Decimal(UInt64.max) + 1
}
