#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import HTTPSerializationCore

// Foundation's value types read where they stand in the text, under the decoder's strategies,
// to the values the tape gives (`JSONTapeDecoder`'s `date`, `data`, `url`, `decimal` and
// `uuid`): a date string or a UUID parsed from its bytes, no value read twice. Whatever the
// tape would refuse stops the reader, and the tape reads the document for its error; so does a
// custom strategy (which may ask for the decoder), with the reason.
extension JSONTextReader {
    /// A date under the decoder's date strategy.
    mutating func readDate() throws -> Date {
        switch options.dateDecodingStrategy {
        case .deferredToDate:
            // `Date.init(from:)` reads a `Double`, non-conforming names included.
            return Date(timeIntervalSinceReferenceDate: try readFloatingPoint())
        case .secondsSince1970:
            return Date(timeIntervalSince1970: try readFloatingPoint())
        case .millisecondsSince1970:
            return Date(timeIntervalSince1970: try readFloatingPoint() as Double / 1000)
        case .iso8601:
            let (text, flags) = try cursor.readStringText()
            if flags & JSONTape.hasEscapes == 0, let date = ISO8601Timestamp.parseInternetDateTime(text) { return date }
            // An escaped string, or another form: the tape's rule on the decoded text.
            let string = cursor.string(text: text, flags: flags)
            guard let date = ISO8601Timestamp.parseInternetDateTime(string) ?? (try? Date.ISO8601FormatStyle().parse(string)) else { throw Self.miss }
            return date
        case .formatted(let style):
            guard let date = try? style.parse(try readString()) else { throw Self.miss }
            return date
        case .custom:
            throw Unread(reason: .customDateStrategy)
        }
    }

    /// Data under the decoder's data strategy.
    mutating func readData() throws -> Data {
        switch options.dataDecodingStrategy {
        case .base64:
            guard let data = Data(base64Encoded: try readString()) else { throw Self.miss }
            return data
        case .deferredToData:
            // `Data.init(from:)` reads an array of bytes.
            return Data(try array { try $0.readInteger() as UInt8 })
        case .custom:
            throw Unread(reason: .customDataStrategy)
        }
    }

    /// A URL from its string, as `URL(string:)` reads it.
    mutating func readURL() throws -> URL {
        guard let url = URL(string: try readString()) else { throw Self.miss }
        return url
    }

    /// A decimal from a number's text, digit for digit.
    mutating func readDecimal() throws -> Decimal {
        let (text, _) = try cursor.readNumber()
        guard let decimal = Decimal(string: String(decoding: text, as: UTF8.self)), !decimal.isNaN else { throw Self.miss }
        return decimal
    }

    /// A UUID from its string: the common 36 characters parsed from the bytes, any other
    /// string as `UUID(uuidString:)` reads it.
    mutating func readUUID() throws -> UUID {
        let (text, flags) = try cursor.readStringText()
        if flags & JSONTape.hasEscapes == 0, let uuid = UUIDText.parse(text) { return uuid }
        guard let uuid = UUID(uuidString: cursor.string(text: text, flags: flags)) else { throw Self.miss }
        return uuid
    }
}
