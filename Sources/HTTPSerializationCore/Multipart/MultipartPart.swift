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
        /// What errors name the part by, kept in pieces: the text is made only for an error.
        let name: PartName
        /// In-memory bodies checked for the delimiter when appended need no second scan.
        var isCheckedForDelimiter = false
        /// A received file's temporary file, held so it is not removed while the form may
        /// still read it.
        var retains: TemporaryFile? = nil

        var bodyLength: UInt64 { body.length }
        /// How errors name the part: `part 2 "file" (big.bin)`.
        var label: String { name.label }
    }

    /// A part's number in the form, and its field and file names when it has them.
    struct PartName: Sendable {
        let number: Int
        let field: String?
        let fileName: String?

        /// `part 2 "file" (big.bin)`.
        var label: String {
            var label = "part \(number)"
            if let field { label += " \"\(field)\"" }
            if let fileName { label += " (\(fileName))" }
            return label
        }
    }

    enum Body: Sendable {
        case data(Data)
        /// A text field kept as the caller's string and written as its UTF-8, so appending
        /// it copies nothing.
        case text(String)
        /// A regular file whose size was read when it was appended; enforced while reading.
        case file(URL, length: UInt64)
        /// A stream made afresh for every read of the body.
        case streamFactory(@Sendable () throws -> any MultipartPartStream, length: UInt64)
        /// A stream that can be read once.
        case stream(OneShotStream, length: UInt64)
        /// A whole multipart body, read as it is sent.
        case multipart(MultipartFormData)

        /// Whether the bytes are in memory (data or text), so the form can check and write them at once.
        var isInMemory: Bool {
            switch self {
            case .data, .text: return true
            case .file, .streamFactory, .stream, .multipart: return false
            }
        }

        /// Runs `body` with the bytes of an in-memory body; nil for any other.
        func withBytes<Result>(_ body: (UnsafeRawBufferPointer) throws -> Result) rethrows -> Result? {
            switch self {
            case .data(let data): return try data.withUnsafeBytes(body)
            case .text(var text): return try text.withUTF8 { try body(UnsafeRawBufferPointer($0)) }
            case .file, .streamFactory, .stream, .multipart: return nil
            }
        }

        var length: UInt64 {
            switch self {
            case .data(let data): return UInt64(data.count)
            case .text(let text): return UInt64(text.utf8.count)
            case .file(_, let length), .streamFactory(_, let length), .stream(_, let length): return length
            case .multipart(let form): return form.contentLength
            }
        }
    }

    /// `text` with `"`, CR and LF percent-escaped (WHATWG), so a hostile name or file name
    /// cannot end the quoted string or the header line.
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

    /// A name or file name as it stands in `Content-Disposition`: escaped, and refused with
    /// `HTTPHeaderFields`' error if a control character other than CR and LF (which escaping
    /// removes) is left. One pass over the bytes decides both for the usual plain name.
    static func checkedParameter(_ text: String) throws -> String {
        var bytes = text
        let (needsEscaping, isValid) = bytes.withUTF8 { bytes -> (Bool, Bool) in
            var needsEscaping = false
            for byte in bytes where byte < 0x20 || byte == 0x22 || byte == 0x7F {
                switch byte {
                case 0x22, 0x0D, 0x0A: needsEscaping = true
                case 0x09: continue
                default: return (needsEscaping, false)
                }
            }
            return (needsEscaping, true)
        }
        let escaped = needsEscaping ? escapedParameter(text) : text
        if !isValid { try HTTPHeaderFields.validate(value: escaped, name: "Content-Disposition") }
        return escaped
    }

    /// The header block of a field or file part, written straight to bytes:
    /// `Content-Disposition: form-data; name="…"; filename="…"`, then `Content-Type` when given.
    /// The names pass through ``checkedParameter(_:)``, and every value is held to what
    /// `HTTPHeaderFields` accepts, with its errors.
    static func formHeaderBlock(name: String, fileName: String?, mimeType: String?) throws -> [UInt8] {
        let escapedName = try checkedParameter(name)
        let escapedFileName = try fileName.map(checkedParameter)
        if let mimeType { try HTTPHeaderFields.validate(value: mimeType, name: "Content-Type") }
        let nameStart: StaticString = "Content-Disposition: form-data; name=\""
        let fileNameStart: StaticString = "\"; filename=\""
        let dispositionEnd: StaticString = "\"\r\n"
        let typeStart: StaticString = "Content-Type: "
        let lineEnd: StaticString = "\r\n"
        var count = nameStart.utf8CodeUnitCount + escapedName.utf8.count + dispositionEnd.utf8CodeUnitCount + lineEnd.utf8CodeUnitCount
        if let escapedFileName { count += fileNameStart.utf8CodeUnitCount + escapedFileName.utf8.count }
        if let mimeType { count += typeStart.utf8CodeUnitCount + mimeType.utf8.count + lineEnd.utf8CodeUnitCount }
        let block = [UInt8](unsafeUninitializedCapacity: count) { buffer, initialized in
            var writer = ByteWriter(buffer)
            writer.write(nameStart)
            writer.write(escapedName)
            if let escapedFileName {
                writer.write(fileNameStart)
                writer.write(escapedFileName)
            }
            writer.write(dispositionEnd)
            if let mimeType {
                writer.write(typeStart)
                writer.write(mimeType)
                writer.write(lineEnd)
            }
            writer.write(lineEnd)
            initialized = writer.offset
        }
        return block
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

/// Copies bytes into a buffer sized for them beforehand. Nothing is written past its end;
/// `overflowed` says a write did not fit.
struct ByteWriter {
    private let buffer: UnsafeMutableBufferPointer<UInt8>
    private(set) var offset = 0
    private(set) var overflowed = false

    init(_ buffer: UnsafeMutableBufferPointer<UInt8>) {
        self.buffer = buffer
    }

    mutating func write(_ bytes: UnsafeBufferPointer<UInt8>) {
        guard bytes.count <= buffer.count - offset else {
            overflowed = true
            return
        }
        guard let source = bytes.baseAddress, let target = buffer.baseAddress, bytes.count > 0 else { return }
        UnsafeMutableRawPointer(target + offset).copyMemory(from: source, byteCount: bytes.count)
        offset += bytes.count
    }

    mutating func write(_ bytes: UnsafeRawBufferPointer) {
        write(bytes.assumingMemoryBound(to: UInt8.self))
    }

    mutating func write(_ text: StaticString) {
        write(UnsafeBufferPointer(start: text.utf8Start, count: text.utf8CodeUnitCount))
    }

    @_disfavoredOverload
    mutating func write(_ text: String) {
        var text = text
        text.withUTF8 { write($0) }
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
