#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Finds a JSON document's encoding and hands back UTF-8.
///
/// RFC 8259 §8.1 requires UTF-8 between systems and lets readers ignore a byte-order mark;
/// like `JSONSerialization`, we also read UTF-16 and UTF-32, told by their mark or, without
/// one, by where the zero bytes fall in the first four, as RFC 4627 §3 describes (JSON text
/// starts with ASCII, and no valid UTF-8 JSON holds a zero byte).
package enum JSONTextEncoding {
    private enum Form {
        case utf16(bigEndian: Bool)
        case utf32(bigEndian: Bool)
    }

    /// The document as UTF-8, and where its text starts (after a UTF-8 byte-order mark).
    package static func utf8(_ data: Data) throws(JSONReadingError) -> (bytes: Data, start: Int) {
        let head = Array(data.prefix(4))
        func at(_ index: Int) -> UInt8? { index < head.count ? head[index] : nil }
        let form: Form
        let skip: Int
        switch (at(0), at(1), at(2), at(3)) {
        case (0xEF, 0xBB, 0xBF, _): return (data, 3)
        case (0x00, 0x00, 0xFE, 0xFF): (form, skip) = (.utf32(bigEndian: true), 4)
        case (0xFF, 0xFE, 0x00, 0x00): (form, skip) = (.utf32(bigEndian: false), 4)
        case (0xFE, 0xFF, _, _): (form, skip) = (.utf16(bigEndian: true), 2)
        case (0xFF, 0xFE, _, _): (form, skip) = (.utf16(bigEndian: false), 2)
        // RFC 4627 §3: the first two characters are ASCII, so the zeros show the form.
        case (0x00, 0x00, 0x00, .some): (form, skip) = (.utf32(bigEndian: true), 0)
        case (.some, 0x00, 0x00, 0x00): (form, skip) = (.utf32(bigEndian: false), 0)
        case (0x00, .some, 0x00, .some): (form, skip) = (.utf16(bigEndian: true), 0)
        case (.some, 0x00, .some, 0x00): (form, skip) = (.utf16(bigEndian: false), 0)
        // A one-character document is two bytes in UTF-16.
        case (0x00, .some, nil, nil), (0x00, .some, .some, nil): (form, skip) = (.utf16(bigEndian: true), 0)
        case (.some, 0x00, nil, nil), (.some, 0x00, .some, nil): (form, skip) = (.utf16(bigEndian: false), 0)
        default: return (data, 0)
        }
        return (try transcode(data.dropFirst(skip), form), 0)
    }

    private static func transcode(_ data: Data, _ form: Form) throws(JSONReadingError) -> Data {
        var output: [UInt8] = []
        output.reserveCapacity(data.count)
        let failure: Int? = data.withUnsafeBytes { raw -> Int? in
            var index = 0
            switch form {
            case .utf16(let bigEndian):
                guard raw.count % 2 == 0 else { return output.count }
                func unit(_ at: Int) -> UInt16 {
                    bigEndian ? UInt16(raw[at]) << 8 | UInt16(raw[at + 1]) : UInt16(raw[at + 1]) << 8 | UInt16(raw[at])
                }
                while index < raw.count {
                    let first = unit(index)
                    index += 2
                    var scalar = UInt32(first)
                    if first & 0xFC00 == 0xD800 {
                        guard index < raw.count, unit(index) & 0xFC00 == 0xDC00 else { return output.count }
                        scalar = 0x10000 + (UInt32(first & 0x3FF) << 10 | UInt32(unit(index) & 0x3FF))
                        index += 2
                    } else if first & 0xFC00 == 0xDC00 {
                        return output.count
                    }
                    append(Unicode.Scalar(scalar)!, to: &output)
                }
            case .utf32(let bigEndian):
                guard raw.count % 4 == 0 else { return output.count }
                while index < raw.count {
                    let bytes = (0..<4).map { UInt32(raw[index + (bigEndian ? $0 : 3 - $0)]) }
                    index += 4
                    guard let scalar = Unicode.Scalar(bytes[0] << 24 | bytes[1] << 16 | bytes[2] << 8 | bytes[3]) else {
                        return output.count
                    }
                    append(scalar, to: &output)
                }
            }
            return nil
        }
        if let failure { throw JSONReadingError(.invalidEncoding, offset: failure) }
        return Data(output)
    }

    private static func append(_ scalar: Unicode.Scalar, to output: inout [UInt8]) {
        UTF8.encode(scalar, into: { output.append($0) })
    }
}
