#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

extension MultipartFormData {
    /// One encoded part: its header block, ready to send, and where its body comes from.
    struct Part: Sendable {
        /// `Name: value` CRLF lines and the blank line that ends them.
        let headerBlock: [UInt8]
        let body: Body
        /// How errors name the part: `part 2 "file" (big.bin)`.
        let label: String
        /// In-memory bodies checked for the delimiter when appended need no second scan.
        var isCheckedForDelimiter = false

        var bodyLength: UInt64 { body.length }
    }

    enum Body: Sendable {
        case data(Data)
        /// A regular file whose size was read when it was appended; enforced while reading.
        case file(URL, length: UInt64)
        /// A stream made afresh for every read of the body.
        case streamFactory(@Sendable () throws -> any MultipartPartStream, length: UInt64)
        /// A stream that can be read once.
        case stream(OneShotStream, length: UInt64)

        var length: UInt64 {
            switch self {
            case .data(let data): return UInt64(data.count)
            case .file(_, let length), .streamFactory(_, let length), .stream(_, let length): return length
            }
        }
    }

    /// `form-data; name="…"; filename="…"` with `"`, CR and LF percent-escaped (WHATWG), so a
    /// hostile file name cannot end the quoted string or the header line.
    static func contentDisposition(name: String, fileName: String?) -> String {
        var value = "form-data; name=\"\(escapedParameter(name))\""
        if let fileName { value += "; filename=\"\(escapedParameter(fileName))\"" }
        return value
    }

    static func escapedParameter(_ text: String) -> String {
        guard text.utf8.contains(where: { $0 == 0x22 || $0 == 0x0D || $0 == 0x0A }) else { return text }
        var result = ""
        result.reserveCapacity(text.utf8.count + 8)
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": result += "%22"
            case "\r": result += "%0D"
            case "\n": result += "%0A"
            default: result.unicodeScalars.append(scalar)
            }
        }
        return result
    }

    /// Header lines in a stable order: Content-Disposition, Content-Type, then the rest as given.
    static func headerBlock(_ headers: HTTPHeaderFields) -> [UInt8] {
        let first = ["Content-Disposition", "Content-Type"]
        var ordered: [HTTPHeaderFields.Field] = first.compactMap { name in
            headers.first { HTTPHeaderFields.namesMatch($0.name, name) }
        }
        ordered += headers.filter { field in !first.contains { HTTPHeaderFields.namesMatch($0, field.name) } }
        var block: [UInt8] = []
        for field in ordered {
            block += Array(field.name.utf8) + Array(": ".utf8) + Array(field.value.utf8) + [0x0D, 0x0A]
        }
        block += [0x0D, 0x0A]
        return block
    }
}

/// A part stream that may be read once, handed to exactly one reader.
///
/// `@unchecked Sendable` is sound because the stream is reachable only through `claim()`,
/// which gives it out once under a lock; afterwards only the claiming reader touches it, on
/// one thread at a time. The caller gave the stream up: every public way in takes it as
/// `sending`, so the compiler has checked that the caller keeps no use of it.
package final class OneShotStream: @unchecked Sendable {
    private let lock = POSIXMutex()
    private var stream: (any MultipartPartStream)?

    init(_ stream: sending any MultipartPartStream) {
        self.stream = stream
    }

    func claim() -> (any MultipartPartStream)? {
        lock.withLock {
            let claimed = stream
            stream = nil
            return claimed
        }
    }
}
