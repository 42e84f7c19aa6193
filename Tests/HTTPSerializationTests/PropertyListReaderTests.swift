import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import SeededGenerators
import Testing
@testable import HTTPSerialization
@testable import HTTPSerializationCodable
@testable import HTTPSerializationCore
@testable import HTTPSerializationFoundation
@testable import HTTPSerializationImages
@testable import HTTPSerializationXML

/// Builds `bplist00` files from encoded objects: offsets, table and trailer computed here.
enum BinaryPlist {
    static func file(_ objects: [[UInt8]], top: Int = 0, referenceSize: UInt8 = 1, offsetSize: UInt8 = 2,
                     objectCount: UInt64? = nil, tableOffset: UInt64? = nil) -> Data {
        var bytes = Array("bplist00".utf8)
        var offsets: [Int] = []
        for object in objects {
            offsets.append(bytes.count)
            bytes += object
        }
        let table = bytes.count
        // The trailer may claim a size the table cannot have (0, 9); the entries use 1 to 8 bytes.
        let entrySize = Int(max(1, min(offsetSize, 8)))
        for offset in offsets {
            for shift in stride(from: (entrySize - 1) * 8, through: 0, by: -8) { bytes.append(UInt8(truncatingIfNeeded: offset >> shift)) }
        }
        bytes += [0, 0, 0, 0, 0, 0, offsetSize, referenceSize]
        bytes += bigEndian(objectCount ?? UInt64(objects.count)) + bigEndian(UInt64(top)) + bigEndian(tableOffset ?? UInt64(table))
        return Data(bytes)
    }

    static func bigEndian(_ value: UInt64) -> [UInt8] {
        (0..<8).map { UInt8(truncatingIfNeeded: value >> (56 - 8 * $0)) }
    }

    static func array(_ references: [UInt8]) -> [UInt8] { [0xA0 | UInt8(references.count)] + references }
    static func ascii(_ text: String) -> [UInt8] { [0x50 | UInt8(text.utf8.count)] + Array(text.utf8) }
}

/// One line per value, keys sorted, numbers by their value: what both readers must agree on.
/// `droppingLeadingBOM` models Foundation's XML reader, which loses a string's leading U+FEFF.
func canonical(_ value: Any, droppingLeadingBOM: Bool = false) -> String {
    let recurse = { (child: Any) in canonical(child, droppingLeadingBOM: droppingLeadingBOM) }
    switch value {
    case let dictionary as [String: Any]:
        return "{" + dictionary.keys.sorted().map { "\($0)=\(recurse(dictionary[$0]!))" }.joined(separator: ",") + "}"
    case let array as [Any]:
        return "[" + array.map(recurse).joined(separator: ",") + "]"
    case let string as String:
        let kept = droppingLeadingBOM && string.unicodeScalars.first == "\u{FEFF}" ? String(string.unicodeScalars.dropFirst()) : string
        return "s:" + kept.unicodeScalars.map { String($0.value, radix: 16) }.joined(separator: ".")
    case let data as Data:
        return "d:" + data.base64EncodedString()
    case let date as Date:
        return "t:\(date.timeIntervalSinceReferenceDate)"
    default:
        break
    }
    if type(of: value) == Bool.self { return "b:\(value as! Bool)" }
    if type(of: value) == Int.self { return "n:\(value as! Int)" }
    if type(of: value) == Int64.self { return "n:\(value as! Int64)" }
    if type(of: value) == UInt64.self { return "n:\(value as! UInt64)" }
    if type(of: value) == Double.self { return "r:\(value as! Double)" }
    if let decimal = value as? Decimal, type(of: value) == Decimal.self { return "n:\(decimal)" }
    if let number = value as? NSNumber {
        if String(describing: type(of: number)) == "__NSCFBoolean" { return "b:\(number.boolValue)" }
        switch UInt8(bitPattern: number.objCType.pointee) {
        case UInt8(ascii: "f"), UInt8(ascii: "d"): return "r:\(number.doubleValue)"
        case UInt8(ascii: "Q"): return "n:\(number.uint64Value)"
        default: return "n:\(number.int64Value)"
        }
    }
    return "?\(type(of: value))"
}

@Suite("Property lists: the issue's hostile documents")
struct PropertyListHostileTests {
    let plist = resp(200, "application/x-plist")

    /// 22 arrays, each holding the next one twice (a DAG of 2^22 paths), as 154 bytes.
    static let sharedArrays: Data = {
        var objects: [[UInt8]] = (0..<22).map { BinaryPlist.array([UInt8($0 + 1), UInt8($0 + 1)]) }
        objects.append(BinaryPlist.ascii("x"))
        return BinaryPlist.file(objects)
    }()

    @Test("22 levels of shared arrays (the Foundation hang) read in linear time and convert with sharing")
    func sharedReferences() throws {
        #expect(Self.sharedArrays.count == 154)
        var value = try PropertyListValue.read(Self.sharedArrays)
        for _ in 0..<22 {
            guard case .array(let children) = value, children.count == 2 else { Issue.record("not a pair"); return }
            value = children[0]
        }
        #expect(value == .string("x"))
        let object = try #require(try PropertyListResponseSerializer().responseObject(for: plist, data: Self.sharedArrays) as? [Any])
        #expect(object.count == 2)
    }

    @Test("a 128-bit integer is exact: 2^100 and a negative one")
    func largeIntegers() throws {
        let twoToThe100: [UInt8] = [0x14] + [0, 0, 0, 0x10] + [UInt8](repeating: 0, count: 12)
        #expect(try PropertyListValue.read(BinaryPlist.file([twoToThe100])) == .largeInteger(Decimal(string: "1267650600228229401496703205376")!))
        let minimum: [UInt8] = [0x14, 0x80] + [UInt8](repeating: 0, count: 15)
        #expect(try PropertyListValue.read(BinaryPlist.file([minimum])) == .largeInteger(Decimal(string: "-170141183460469231731687303715884105728")!))
        let minusOne: [UInt8] = [0x14] + [UInt8](repeating: 0xFF, count: 16)
        #expect(try PropertyListValue.read(BinaryPlist.file([minusOne])) == .integer(-1))
        let any = try PropertyListResponseSerializer().responseObject(for: plist, data: BinaryPlist.file([twoToThe100]))
        #expect(any as? Decimal == Decimal(string: "1267650600228229401496703205376"))
        let xml = Data("<plist version=\"1.0\"><array><integer>1267650600228229401496703205376</integer><integer>-9223372036854775809</integer><integer>0x7F</integer></array></plist>".utf8)
        #expect(try PropertyListValue.read(xml) == .array([
            .largeInteger(Decimal(string: "1267650600228229401496703205376")!), .largeInteger(Decimal(string: "-9223372036854775809")!), .integer(127),
        ]))
    }

    @Test("XML property lists keep a leading U+FEFF in strings and keys")
    func byteOrderMarkInStrings() throws {
        let xml = Data("<?xml version=\"1.0\" encoding=\"UTF-8\"?><plist version=\"1.0\"><dict><key>\u{FEFF}k</key><string>\u{FEFF}v</string></dict></plist>".utf8)
        #expect(try PropertyListValue.read(xml) == .dictionary([.init(key: "\u{FEFF}k", value: .string("\u{FEFF}v"))]))
        let object = try #require(try PropertyListResponseSerializer().responseObject(for: plist, data: xml) as? [String: String])
        #expect(object == ["\u{FEFF}k": "\u{FEFF}v"])
    }

    @Test("invalid Base64 in <data> is an error, not a few salvaged bytes", arguments: [
        "AAAA!!!!BBBB", "A", "AAA=A", "AB==C", "====", "AAAAA===", "AB=", "AB?=",
    ])
    func invalidBase64(text: String) {
        let xml = Data("<plist version=\"1.0\"><data>\(text)</data></plist>".utf8)
        #expect(throws: PropertyListReadingError(.invalidValue("<data> that is not valid Base64"))) { try PropertyListValue.read(xml) }
    }

    @Test("valid Base64 with white space, padding or none, decodes exactly", arguments: [
        ("", ""), ("Zg==", "f"), ("Zm8=", "fo"), ("Zm9v", "foo"), ("Zm9vYg", "foob"), ("\n\tZm9v\n  YmFy\n", "foobar"),
    ])
    func validBase64(text: String, expected: String) throws {
        let xml = Data("<plist version=\"1.0\"><data>\(text)</data></plist>".utf8)
        #expect(try PropertyListValue.read(xml) == .data(Data(expected.utf8)))
    }
}

@Suite("Property lists: corrupt and hostile binary files")
struct BinaryPropertyListFaultTests {
    static let cases: [(String, Data, PropertyListReadingError.Reason)] = [
        ("an array that contains itself", BinaryPlist.file([BinaryPlist.array([0])]), .cycle),
        ("a cycle through two arrays", BinaryPlist.file([BinaryPlist.array([1]), BinaryPlist.array([0])]), .cycle),
        ("a reference past the objects", BinaryPlist.file([BinaryPlist.array([5])]),
         .corruptBinary("a reference to object 5 of 1")),
        ("a dictionary with an integer key", BinaryPlist.file([[0xD1, 1, 2], [0x10, 1], BinaryPlist.ascii("v")]),
         .invalidValue("a dictionary key that is not a string (object 1)")),
        ("a lone UTF-16 surrogate", BinaryPlist.file([[0x61, 0xD8, 0x00]]), .corruptBinary("a UTF-16 string with a lone surrogate")),
        ("a string longer than the file", BinaryPlist.file([[0x5F, 0x10, 0xFF, 0x41]]), .corruptBinary("a length of 255, past the file")),
        ("data past the object area", BinaryPlist.file([[0x45, 0x41]]), .corruptBinary("an object runs past the object area")),
        ("a null object", BinaryPlist.file([[0x00]]), .corruptBinary("marker 0x0 (null or fill) has no property-list value")),
        ("an unknown marker", BinaryPlist.file([[0xE0]]), .corruptBinary("unknown marker 0xe0")),
        ("a non-ASCII byte in an ASCII string", BinaryPlist.file([[0x51, 0xE9]]), .corruptBinary("an ASCII string with a byte above 0x7F")),
        ("offset size 0", BinaryPlist.file([[0x08]], offsetSize: 0), .corruptBinary("offset or reference size 0/1 is not 1 to 8 bytes")),
        ("offset size 9", BinaryPlist.file([[0x08]], offsetSize: 9), .corruptBinary("offset or reference size 9/1 is not 1 to 8 bytes")),
        ("an object count past the file", BinaryPlist.file([[0x08]], objectCount: UInt64.max),
         .corruptBinary("the trailer's object count, top object or offset table is out of range")),
        ("an offset table past the trailer", BinaryPlist.file([[0x08]], tableOffset: 1 << 40),
         .corruptBinary("the trailer's object count, top object or offset table is out of range")),
        ("a truncated file", Data("bplist00".utf8) + Data(count: 10), .corruptBinary("not a bplist00 file, or too short for its trailer")),
        ("a 32-byte integer", BinaryPlist.file([[0x15] + [UInt8](repeating: 0, count: 32)]), .corruptBinary("an integer of 2^5 bytes")),
    ]

    @Test("every structural fault is a typed error", arguments: cases)
    func faults(name: String, data: Data, reason: PropertyListReadingError.Reason) {
        do {
            _ = try PropertyListValue.read(data)
            Issue.record("\(name): read without an error")
        } catch {
            #expect(error.reason == reason, "\(name)")
        }
    }

    @Test("10,000 object numbers at one offset are one object, decoded once")
    func objectsSharingAnOffset() throws {
        // Object 0: an array of objects 1…10,000; every one of those is listed at the offset of
        // one 100 KB data object. Decoded per number, that would be 1 GB.
        var bytes = Array("bplist00".utf8)
        let arrayOffset = bytes.count
        bytes += [0xAF, 0x11, 0x27, 0x10]                       // array, 10,000 references of 2 bytes
        for reference in 1...10_000 { bytes += [UInt8(reference >> 8), UInt8(reference & 0xFF)] }
        let dataOffset = bytes.count
        bytes += [0x4F, 0x12, 0x00, 0x01, 0x86, 0xA0] + [UInt8](repeating: 7, count: 100_000)
        let table = bytes.count
        for index in 0...10_000 { bytes += BinaryPlist.bigEndian(UInt64(index == 0 ? arrayOffset : dataOffset)).suffix(4) }
        bytes += [0, 0, 0, 0, 0, 0, 4, 2] + BinaryPlist.bigEndian(10_001) + BinaryPlist.bigEndian(0) + BinaryPlist.bigEndian(UInt64(table))
        guard case .array(let values) = try PropertyListValue.read(Data(bytes)) else { Issue.record("not an array"); return }
        #expect(values.count == 10_000)
        #expect(values.last == .data(Data(repeating: 7, count: 100_000)))
    }

    @Test("objects that overlap, spanning more bytes than the file holds, are refused")
    func overlappingObjects() {
        // A 1,000-byte data object whose payload is made of data markers, and 900 more objects
        // listed inside that payload: each would decode as a data object of its own.
        var bytes = Array("bplist00".utf8)
        let arrayOffset = bytes.count
        bytes += [0xAF, 0x11, 0x03, 0x84]                       // array of 900 references
        for reference in 1...900 { bytes += [UInt8(reference >> 8), UInt8(reference & 0xFF)] }
        let dataOffset = bytes.count
        bytes += [0x4F, 0x11, 0x03, 0xE8] + [UInt8](repeating: 0x4D, count: 1_000)
        let table = bytes.count
        let offsets = [arrayOffset, dataOffset] + (2...900).map { dataOffset + 4 + $0 }
        for offset in offsets { bytes += BinaryPlist.bigEndian(UInt64(offset)).suffix(2) }
        bytes += [0, 0, 0, 0, 0, 0, 2, 2] + BinaryPlist.bigEndian(901) + BinaryPlist.bigEndian(0) + BinaryPlist.bigEndian(UInt64(table))
        do {
            _ = try PropertyListValue.read(Data(bytes))
            Issue.record("read without an error")
        } catch {
            #expect(error.reason == .corruptBinary("objects overlap: they span more bytes than the file holds"))
        }
    }

    @Test("nesting past the limit is a typed error in both formats, at any depth")
    func deepNesting() {
        let levels = 600
        var objects: [[UInt8]] = (0..<levels).map { BinaryPlist.array([UInt8(truncatingIfNeeded: $0 + 1)]) }
        objects.append([0x08])
        let binary = BinaryPlist.file(objects.enumerated().map { index, object in
            index < levels ? [0xA1, UInt8((index + 1) >> 8), UInt8((index + 1) & 0xFF)] : object
        }, referenceSize: 2)
        #expect(throws: PropertyListReadingError(.nestingTooDeep(limit: 512))) { try PropertyListValue.read(binary) }
        let xml = Data(("<plist version=\"1.0\">" + String(repeating: "<array>", count: 100_000) + "</plist>").utf8)
        #expect(throws: PropertyListReadingError(.nestingTooDeep(limit: 512))) { try PropertyListValue.read(xml) }
    }

    @Test("every prefix and 3,000 seeded mutations of valid lists give a value or a typed error")
    func mutations() throws {
        let sample: [String: Any] = ["name": "caf\u{E9}", "n": [1, -2, 3_000_000_000, 1.5], "ok": true, "when": Date(timeIntervalSinceReferenceDate: 1e8),
                                     "blob": Data([1, 2, 3]), "nested": ["a": ["b": ["c": "\u{1F600}"]]]]
        let documents = [try PropertyListSerialization.data(fromPropertyList: sample, format: .binary, options: 0),
                         try PropertyListSerialization.data(fromPropertyList: sample, format: .xml, options: 0),
                         PropertyListHostileTests.sharedArrays]
        var random = SplitMix64(seed: 9_090)
        for document in documents {
            for length in 0..<document.count { _ = try? PropertyListValue.read(document.prefix(length)) }
            for _ in 0..<1_000 {
                var bytes = [UInt8](document)
                for _ in 0..<random.range(1, 4) {
                    bytes[random.range(0, bytes.count - 1)] = UInt8(truncatingIfNeeded: random.next())
                }
                do { _ = try PropertyListValue.read(Data(bytes)).foundationObject() } catch {}
            }
        }
    }
}

@Suite("Property lists: the same values as Foundation")
struct PropertyListDifferentialTests {
    /// A random property list of Foundation values.
    static func value(_ random: inout SplitMix64, depth: Int = 0) -> Any {
        switch random.range(0, depth < 4 ? 8 : 5) {
        case 0: return ["", "a", "caf\u{E9}", "\u{1F600} x", String(repeating: "long ", count: random.range(3, 40)), "<&>\"'", "\u{FEFF}bom", "tab\there"][random.range(0, 7)]
        case 1: return [0, 1, -1, 14, 15, 255, 256, 65_535, 65_536, Int(Int32.max), Int(Int32.min), Int.max, Int.min, random.range(-1_000_000, 1_000_000)][random.range(0, 13)]
        case 2: return [0.0, -0.0, 1.5, -2.25, 1e300, Double.leastNonzeroMagnitude, 0.1, Double(random.range(-1000, 1000)) / 7][random.range(0, 7)]
        case 3: return random.range(0, 1) == 1
        case 4: return Date(timeIntervalSinceReferenceDate: Double(random.range(-2_000_000_000, 2_000_000_000)))
        case 5: return Data((0..<random.range(0, 40)).map { _ in UInt8(truncatingIfNeeded: random.next()) })
        case 6, 7:
            return (0..<random.range(0, 17)).map { _ in value(&random, depth: depth + 1) }
        default:
            var dictionary: [String: Any] = [:]
            for index in 0..<random.range(0, 17) { dictionary["k\(index)\(["", "\u{E9}", " x"][random.range(0, 2)])"] = value(&random, depth: depth + 1) }
            return dictionary
        }
    }

    @Test("1,000 seeded documents, binary and XML: our reader and PropertyListSerialization read the same values", arguments: [
        PropertyListSerialization.PropertyListFormat.binary, .xml,
    ])
    func sameAsFoundation(format: PropertyListSerialization.PropertyListFormat) throws {
        var random = SplitMix64(seed: format == .binary ? 111 : 222)
        for _ in 0..<500 {
            let root: Any = random.range(0, 1) == 0 ? Self.value(&random, depth: 3) : ["root": Self.value(&random)]
            guard let data = try? PropertyListSerialization.data(fromPropertyList: root, format: format, options: 0) else { continue }
            let foundation = try PropertyListSerialization.propertyList(from: data, options: [], format: nil)
            let ours = try PropertyListValue.read(data).foundationObject()
            // The one deliberate difference: Foundation's XML reader drops a leading U+FEFF; ours keeps it.
            #expect(canonical(ours, droppingLeadingBOM: format == .xml) == canonical(foundation), "\(String(decoding: data.prefix(300), as: UTF8.self))")
        }
    }

    @Test("a UID reads as Foundation writes it in XML, a CF$UID dictionary")
    func uid() throws {
        let data = BinaryPlist.file([[0x80, 0x2A]])
        #expect(try PropertyListValue.read(data) == .uid(42))
        #expect(canonical(try PropertyListValue.read(data).foundationObject()) == "{CF$UID=n:42}")
    }
}
