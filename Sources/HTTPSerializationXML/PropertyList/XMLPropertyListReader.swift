import Foundation
import HTTPSerializationCore

/// Reads XML property lists (Apple's PropertyList-1.0 DTD) on the package's XML tokenizer:
/// the same encoding, well-formedness and entity rules as every XML body, then the plist
/// grammar, strictly: text is kept exactly (a leading U+FEFF included), `<data>` must be
/// valid Base64, `<integer>` exact up to 128 bits, `<date>` ISO 8601 in UTC.
enum XMLPropertyListReader {
    static func read(_ bytes: [UInt8], maximumDepth: Int) throws(PropertyListReadingError) -> PropertyListValue {
        var tokenizer: XMLTokenizer
        // The XML depth is the list's own plus <plist> and the value: the list's limit speaks first.
        var policy = XMLReadingPolicy.propertyList
        policy.maximumDepth = maximumDepth + 2
        do {
            let (utf8, _) = try XMLEncoding.utf8(bytes)
            tokenizer = try XMLTokenizer(utf8: utf8, policy: policy)
        } catch {
            throw PropertyListReadingError(.invalidXML(error.reasonText), offset: error.offset)
        }
        var reader = Builder(tokenizer: tokenizer, maximumDepth: maximumDepth)
        return try reader.document()
    }

    /// Builds values from tokens with an explicit stack of open containers.
    private struct Builder {
        var tokenizer: XMLTokenizer
        let maximumDepth: Int
        /// A token read ahead and not yet used.
        private var pending: XMLToken?

        init(tokenizer: XMLTokenizer, maximumDepth: Int) {
            self.tokenizer = tokenizer
            self.maximumDepth = maximumDepth
        }

        private enum Container {
            case array([PropertyListValue])
            /// Entries so far, and the key waiting for its value.
            case dictionary([PropertyListValue.Entry], key: String?)
        }

        private func invalid(_ detail: String) -> PropertyListReadingError {
            PropertyListReadingError(.invalidXML(detail))
        }

        private mutating func next() throws(PropertyListReadingError) -> XMLToken? {
            if let token = pending {
                pending = nil
                return token
            }
            do {
                return try tokenizer.next()
            } catch {
                throw PropertyListReadingError(.invalidXML(error.reasonText), offset: error.offset)
            }
        }

        /// The next start or end tag; text between them must be white space.
        private mutating func nextTag() throws(PropertyListReadingError) -> XMLToken? {
            while let token = try next() {
                if case .text(let text) = token {
                    guard text.utf8.allSatisfy(XMLCharacters.isSpace) else { throw invalid("text \"\(text.prefix(40))\" outside a value") }
                    continue
                }
                return token
            }
            return nil
        }

        /// All the text up to the end tag of `name` (which must follow: no child elements).
        private mutating func text(of name: String) throws(PropertyListReadingError) -> String {
            var text = ""
            while let token = try next() {
                switch token {
                case .text(let piece): text += piece
                case .endElement(let end) where end == name: return text
                default: throw invalid("<\(name)> holds an element")
                }
            }
            throw invalid("<\(name)> is not closed")
        }

        mutating func document() throws(PropertyListReadingError) -> PropertyListValue {
            guard case .startElement(let root, _)? = try nextTag() else { throw invalid("no root element") }
            let value: PropertyListValue
            if root == "plist" {
                guard case .startElement(let name, _)? = try nextTag() else { throw invalid("<plist> holds no value") }
                value = try self.value(startingWith: name)
                guard case .endElement("plist")? = try nextTag() else { throw invalid("<plist> holds more than one value") }
            } else {
                value = try self.value(startingWith: root)
            }
            guard try nextTag() == nil else { throw invalid("content after the property list") }
            return value
        }

        /// One value whose start tag `first` was just read, containers included, iteratively.
        private mutating func value(startingWith first: String) throws(PropertyListReadingError) -> PropertyListValue {
            var stack: [Container] = []
            var name = first
            while true {
                var finished: PropertyListValue?
                switch name {
                case "array":
                    guard stack.count < maximumDepth else { throw PropertyListReadingError(.nestingTooDeep(limit: maximumDepth)) }
                    stack.append(.array([]))
                case "dict":
                    guard stack.count < maximumDepth else { throw PropertyListReadingError(.nestingTooDeep(limit: maximumDepth)) }
                    stack.append(.dictionary([], key: nil))
                case "key":
                    guard case .dictionary(let entries, nil)? = stack.last else { throw invalid("a <key> outside a <dict>, or two in a row") }
                    stack[stack.count - 1] = .dictionary(entries, key: try text(of: "key"))
                default:
                    finished = try scalar(name)
                }
                // Close every container that ends here, adding each finished value to its parent.
                while true {
                    if let value = finished {
                        guard let top = stack.popLast() else { return value }
                        switch top {
                        case .array(var values):
                            values.append(value)
                            stack.append(.array(values))
                        case .dictionary(var entries, let key):
                            guard let key else { throw invalid("a value in a <dict> without its <key>") }
                            entries.append(PropertyListValue.Entry(key: key, value: value))
                            stack.append(.dictionary(entries, key: nil))
                        }
                        finished = nil
                    }
                    guard let token = try nextTag() else { throw invalid("the document ends inside a container") }
                    switch token {
                    case .startElement(let next, _):
                        name = next
                    case .endElement(let end):
                        switch stack.popLast() {
                        case .array(let values)? where end == "array":
                            finished = .array(values)
                        case .dictionary(let entries, nil)? where end == "dict":
                            finished = .dictionary(entries)
                        case .dictionary(_, _?)? where end == "dict":
                            throw invalid("a <key> without its value")
                        default:
                            throw invalid("an unexpected </\(end)>")
                        }
                        continue
                    case .text:
                        throw invalid("text outside a value")
                    }
                    break
                }
            }
        }

        private mutating func scalar(_ name: String) throws(PropertyListReadingError) -> PropertyListValue {
            switch name {
            case "string":
                return .string(try text(of: name))
            case "integer":
                let text = try text(of: name)
                guard let value = PropertyListScalars.integer(text.trimmingXMLSpace()) else { throw PropertyListReadingError(.invalidValue("<integer>\(text.prefix(40))</integer>")) }
                return value
            case "real":
                let text = try text(of: name)
                guard let value = PropertyListScalars.real(text.trimmingXMLSpace()) else { throw PropertyListReadingError(.invalidValue("<real>\(text.prefix(40))</real>")) }
                return .real(value)
            case "true", "false":
                guard try text(of: name).isEmpty else { throw invalid("<\(name)> is not empty") }
                return .boolean(name == "true")
            case "date":
                let text = try text(of: name)
                guard let date = PropertyListScalars.date(text.trimmingXMLSpace()) else { throw PropertyListReadingError(.invalidValue("<date>\(text.prefix(40))</date>")) }
                return .date(date)
            case "data":
                let text = try text(of: name)
                guard let data = PropertyListScalars.base64(text) else { throw PropertyListReadingError(.invalidValue("<data> that is not valid Base64")) }
                return .data(data)
            default:
                throw invalid("an unknown element <\(name)>")
            }
        }
    }
}

extension String {
    /// Without leading and trailing XML white space (space, tab, CR, LF).
    fileprivate func trimmingXMLSpace() -> String {
        let bytes = Array(utf8)
        guard let first = bytes.firstIndex(where: { !XMLCharacters.isSpace($0) }),
              let last = bytes.lastIndex(where: { !XMLCharacters.isSpace($0) }) else { return "" }
        return String(decoding: bytes[first...last], as: UTF8.self)
    }
}

/// The text forms of property-list scalars.
enum PropertyListScalars {
    /// Decimal (optionally signed) or `0x` hexadecimal, exact up to 128 bits.
    static func integer(_ text: String) -> PropertyListValue? {
        var digits = Substring(text)
        var negative = false
        if let sign = digits.first, sign == "-" || sign == "+" {
            negative = sign == "-"
            digits = digits.dropFirst()
        }
        var radix: UInt64 = 10
        if digits.hasPrefix("0x") || digits.hasPrefix("0X") {
            radix = 16
            digits = digits.dropFirst(2)
        }
        guard !digits.isEmpty else { return nil }
        var (high, low): (UInt64, UInt64) = (0, 0)
        for character in digits.unicodeScalars {
            let digit: UInt64
            switch character {
            case "0"..."9": digit = UInt64(character.value - 48)
            case "a"..."f": digit = UInt64(character.value - 87)
            case "A"..."F": digit = UInt64(character.value - 55)
            default: return nil
            }
            guard digit < radix else { return nil }
            // (high, low) = (high, low) * radix + digit, refusing anything past 128 bits.
            let lowProduct = low.multipliedFullWidth(by: radix)
            let (highProduct, highOverflow) = high.multipliedReportingOverflow(by: radix)
            let (newHigh, carryOverflow) = highProduct.addingReportingOverflow(lowProduct.high)
            let (newLow, lowCarry) = lowProduct.low.addingReportingOverflow(digit)
            let (finalHigh, lastOverflow) = newHigh.addingReportingOverflow(lowCarry ? 1 : 0)
            guard !highOverflow, !carryOverflow, !lastOverflow else { return nil }
            (high, low) = (finalHigh, newLow)
        }
        // Magnitudes past Int128's range have no signed 128-bit form.
        guard high >> 63 == 0 || (negative && high == 1 << 63 && low == 0) else { return nil }
        if !negative { return PropertyListIntegers.value(high: high, low: low) }
        let negatedLow = ~low &+ 1
        let negatedHigh = ~high &+ (negatedLow == 0 ? 1 : 0)
        return PropertyListIntegers.value(high: negatedHigh, low: negatedLow)
    }

    /// A decimal floating-point number, or `nan`, `inf`, `infinity` with an optional sign.
    static func real(_ text: String) -> Double? {
        switch text.lowercased() {
        case "nan": return .nan
        case "inf", "+inf", "infinity", "+infinity": return .infinity
        case "-inf", "-infinity": return -.infinity
        default:
            guard !text.isEmpty, text.unicodeScalars.allSatisfy({ "0123456789+-.eE".unicodeScalars.contains($0) }) else { return nil }
            return Double(text)
        }
    }

    /// `YYYY-MM-DDTHH:MM:SSZ`, as Apple writes dates.
    static func date(_ text: String) -> Date? {
        let bytes = Array(text.utf8)
        guard bytes.count == 20, bytes[4] == UInt8(ascii: "-"), bytes[7] == UInt8(ascii: "-"), bytes[10] == UInt8(ascii: "T"),
              bytes[13] == UInt8(ascii: ":"), bytes[16] == UInt8(ascii: ":"), bytes[19] == UInt8(ascii: "Z") else { return nil }
        func number(_ range: Range<Int>) -> Int? {
            var value = 0
            for byte in bytes[range] {
                guard (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) else { return nil }
                value = value * 10 + Int(byte - UInt8(ascii: "0"))
            }
            return value
        }
        guard let year = number(0..<4), let month = number(5..<7), let day = number(8..<10),
              let hour = number(11..<13), let minute = number(14..<16), let second = number(17..<19),
              (1...12).contains(month), (1...31).contains(day), hour < 24, minute < 60, second < 61 else { return nil }
        // Days since 1970-01-01 in the proleptic Gregorian calendar.
        let shiftedYear = month <= 2 ? year - 1 : year
        let era = (shiftedYear >= 0 ? shiftedYear : shiftedYear - 399) / 400
        let yearOfEra = shiftedYear - era * 400
        let dayOfYear = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        let days = era * 146_097 + dayOfEra - 719_468
        let seconds = Double(days) * 86_400 + Double(hour * 3600 + minute * 60 + second)
        return Date(timeIntervalSince1970: seconds)
    }

    /// Strict Base64: the standard alphabet, XML white space ignored, `=` padding only at the
    /// end and unused bits zero; anything else is nil (Foundation skips unknown characters and
    /// returns fragments).
    static func base64(_ text: String) -> Data? {
        var values: [UInt8] = []
        values.reserveCapacity(text.utf8.count)
        var padding = 0
        for byte in text.utf8 {
            if XMLCharacters.isSpace(byte) { continue }
            if byte == UInt8(ascii: "=") {
                padding += 1
                continue
            }
            guard padding == 0 else { return nil }
            let value: UInt8
            switch byte {
            case UInt8(ascii: "A")...UInt8(ascii: "Z"): value = byte - 65
            case UInt8(ascii: "a")...UInt8(ascii: "z"): value = byte - 71
            case UInt8(ascii: "0")...UInt8(ascii: "9"): value = byte + 4
            case UInt8(ascii: "+"): value = 62
            case UInt8(ascii: "/"): value = 63
            default: return nil
            }
            values.append(value)
        }
        // Unpadded input is accepted; padding, when present, must complete the last group.
        guard values.count % 4 != 1, padding == 0 || (padding <= 2 && (values.count + padding) % 4 == 0) else { return nil }
        var output = Data()
        output.reserveCapacity(values.count * 3 / 4)
        var index = 0
        while index + 4 <= values.count {
            let group = UInt32(values[index]) << 18 | UInt32(values[index + 1]) << 12 | UInt32(values[index + 2]) << 6 | UInt32(values[index + 3])
            output.append(contentsOf: [UInt8(group >> 16), UInt8(group >> 8 & 0xFF), UInt8(group & 0xFF)])
            index += 4
        }
        switch values.count - index {
        case 2:
            let group = UInt32(values[index]) << 18 | UInt32(values[index + 1]) << 12
            guard group & 0xFFFF == 0 else { return nil }
            output.append(UInt8(group >> 16))
        case 3:
            let group = UInt32(values[index]) << 18 | UInt32(values[index + 1]) << 12 | UInt32(values[index + 2]) << 6
            guard group & 0xFF == 0 else { return nil }
            output.append(contentsOf: [UInt8(group >> 16), UInt8(group >> 8 & 0xFF)])
        default:
            break
        }
        return output
    }
}
