#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Reads a `multipart/*` body as its bytes arrive: a push parser that hands over each part's
/// head, then its body bytes in place, then its end.
///
/// For servers and for code that reads what this package writes: `multipart/form-data`
/// (RFC 7578) and the other types of RFC 2046 (`mixed`, `related`, `byteranges`). Chunk
/// boundaries may fall anywhere; the delimiter is found by the same linear search the
/// writer's check uses, so a body is read at close to memory speed and memory stays within
/// ``limits`` whatever its size. Most code reads the parts through the collecting helpers
/// (`parts(of:contentType:limits:)`, over bytes in memory or an async sequence of chunks).
///
/// ```swift
/// var parser = try MultipartBodyParser(contentType: request.headerFields[.contentType] ?? "")
/// for try await chunk in request.body {   // ByteBuffers
///     try parser.parse(chunk.readableBytesUInt8Span) { event in
///         switch event {
///         case .head(let head): print(head.name ?? "?", head.fileName ?? "")
///         case .body(let bytes): output.writeBytes(bytes.bytes)
///         case .end: break
///         }
///     }
/// }
/// try parser.finish()
/// ```
///
/// Bytes come in and go out as `Span<UInt8>`, which an `Array`, `Data` or NIO's `ByteBuffer`
/// lends (`array.span`, `data.span`, `buffer.readableBytesUInt8Span`); a span of body bytes
/// cannot outlive the call that hands it over, so the compiler refuses code that keeps one.
public struct MultipartBodyParser {
    /// What a chunk completed, in body order.
    ///
    /// An event lives only as long as the call that hands it over: copy the body bytes that
    /// must be kept.
    public enum Event: ~Escapable {
        /// A part begins: its header block, read.
        case head(MultipartPartHead)
        /// Bytes of the current part's body, lent for the call.
        case body(Span<UInt8>)
        /// The current part's body is complete.
        case end
    }

    /// The boundary, without its leading `--`.
    public let boundary: String
    /// The limits every part and the whole body are held to.
    public let limits: MultipartParsingLimits
    /// Whether every part must be named by `Content-Disposition: form-data` (a
    /// `multipart/form-data` body).
    public let requiresNames: Bool

    private enum State {
        case preamble, body, headers, epilogue
        /// After `CRLF--BOUNDARY`: `--` closes; spaces or tabs, then CRLF, open a part.
        case afterDelimiter(AfterDelimiter)
    }

    private enum AfterDelimiter {
        case first, secondDash, padding, lineFeed
    }

    private var finder: MultipartDelimiterFinder
    private var state = State.preamble
    /// Bytes of the preamble or a body that may begin a delimiter, held for the next chunk.
    private var held: [UInt8] = []
    /// How many leading bytes of `held` stand for the CRLF that ends the line before a body
    /// (or the body's start): matched, never handed on.
    private var heldVirtual = 0
    /// The header block being gathered, with its blank line once found.
    private var header: [UInt8] = []
    /// How much of CRLF CRLF the block has ended with so far.
    private var blankLineMatched = 0
    private var head: MultipartPartHead?
    private var partCount = 0
    private var partBytes = 0
    private var received = 0
    /// Where in the body the current delimiter line began, for errors.
    private var delimiterOffset = 0

    /// A parser for the body of a `Content-Type` of `multipart/*` with a `boundary`.
    ///
    /// - Throws: ``MultipartParsingError/notMultipart(contentType:)`` or
    ///   ``MultipartParsingError/invalidBoundary(_:reason:)``.
    public init(contentType: String, limits: MultipartParsingLimits = MultipartParsingLimits()) throws(MultipartParsingError) {
        let parsed = HeaderParameters(contentType)
        let type = parsed.value.lowercased()
        guard type.hasPrefix("multipart/"), let boundary = parsed.parameter("boundary") else {
            throw .notMultipart(contentType: contentType)
        }
        try self.init(boundary: boundary, requiresNames: type == "multipart/form-data", limits: limits)
    }

    /// A parser for a body with this boundary (without its leading `--`).
    ///
    /// - Parameters:
    ///   - boundary: the `boundary` parameter of the body's `Content-Type`.
    ///   - requiresNames: every part must be named by `Content-Disposition: form-data`, as
    ///     RFC 7578 asks of `multipart/form-data`.
    ///   - limits: what the body and each part are held to.
    /// - Throws: ``MultipartParsingError/invalidBoundary(_:reason:)`` for a boundary RFC 2046
    ///   does not allow.
    public init(boundary: String, requiresNames: Bool = true, limits: MultipartParsingLimits = MultipartParsingLimits()) throws(MultipartParsingError) {
        do {
            try MultipartBoundary.validate(boundary)
        } catch {
            throw .invalidBoundary(boundary, reason: Self.reason(of: error))
        }
        self.boundary = boundary
        self.requiresNames = requiresNames
        self.limits = limits
        finder = MultipartDelimiterFinder(boundary: boundary)
        startBody()
    }

    /// Reads the next bytes of the body, handing `handle` what they complete.
    ///
    /// - Throws: a ``MultipartParsingError`` for a malformed body or a broken limit, or what
    ///   `handle` throws; the parser is not used again after an error.
    public mutating func parse(_ bytes: Span<UInt8>, _ handle: (Event) throws -> Void) throws {
        try bytes.withUnsafeBytes { bytes in try parse(unsafeBytes: bytes, handle) }
    }

    /// ``parse(_:_:)`` over bytes the package's own readers hold as a buffer.
    package mutating func parse(unsafeBytes bytes: UnsafeRawBufferPointer, _ handle: (Event) throws -> Void) throws {
        guard !bytes.isEmpty else { return }
        let start = received
        received += bytes.count
        if let limit = limits.maximumBodyBytes, received > limit { throw MultipartParsingError.bodyTooLarge(limit: limit) }
        var index = 0
        while index < bytes.count {
            switch state {
            case .preamble, .body:
                let inBody = { if case .body = state { return true } else { return false } }()
                let (consumed, found) = try scan(UnsafeRawBufferPointer(rebasing: bytes[index...]), handsOn: inBody, handle)
                index += consumed
                if found {
                    delimiterOffset = start + index - finder.delimiter.count + 2
                    if inBody { try handle(.end) }
                    head = nil
                    state = .afterDelimiter(.first)
                }
            case .afterDelimiter(let step):
                let byte = bytes[index]
                index += 1
                try afterDelimiter(step, byte)
            case .headers:
                index += try readHeaders(UnsafeRawBufferPointer(rebasing: bytes[index...]), handle)
            case .epilogue:
                index = bytes.count
            }
        }
    }

    /// The body has ended: it must have reached its close delimiter, or be empty (no parts,
    /// as `MultipartFormData` writes a form without any).
    ///
    /// - Throws: ``MultipartParsingError/unterminated(state:)`` otherwise.
    public func finish() throws(MultipartParsingError) {
        switch state {
        case .epilogue: return
        case .preamble where received == 0: return
        case .preamble: throw .unterminated(state: "before its first boundary")
        case .afterDelimiter: throw .unterminated(state: "on a boundary line")
        case .headers: throw .unterminated(state: "inside the headers of part \(partCount)")
        case .body: throw .unterminated(state: "inside part \(partCount)\(head?.name.map { " (\"\($0)\")" } ?? "")")
        }
    }

    // MARK: Delimiters

    private mutating func startBody() {
        held.removeAll(keepingCapacity: true)
        held.append(0x0D)
        held.append(0x0A)
        heldVirtual = 2
    }

    /// Hands on body bytes up to the next delimiter: how many bytes of `chunk` were used, and
    /// whether a delimiter ended among them.
    private mutating func scan(
        _ chunk: UnsafeRawBufferPointer, handsOn: Bool, _ handle: (Event) throws -> Void
    ) throws -> (consumed: Int, found: Bool) {
        let length = finder.delimiter.count
        if chunk.count < length {
            // A short chunk: look in what is held and this, together.
            let before = held.count
            held.append(contentsOf: chunk)
            let match = held.withUnsafeBytes { finder.firstIndex(in: $0) }
            if let match {
                if handsOn { try handOnHeld(upTo: match, handle) }
                held.removeAll(keepingCapacity: true)
                heldVirtual = 0
                return (match + length - before, true)
            }
            let keep = length - 1
            if held.count > keep {
                if handsOn { try handOnHeld(upTo: held.count - keep, handle) }
                dropHeld(held.count - keep)
            }
            return (chunk.count, false)
        }
        if !held.isEmpty {
            if let start = matchAcrossEdge(chunk) {
                if handsOn { try handOnHeld(upTo: start, handle) }
                let used = length - (held.count - start)
                held.removeAll(keepingCapacity: true)
                heldVirtual = 0
                return (used, true)
            }
            if handsOn { try handOnHeld(upTo: held.count, handle) }
            held.removeAll(keepingCapacity: true)
            heldVirtual = 0
        }
        if let match = finder.firstIndex(in: chunk) {
            if handsOn, match > 0 { try handOn(UnsafeRawBufferPointer(rebasing: chunk[..<match]), handle) }
            return (match + length, true)
        }
        let keep = length - 1
        if handsOn { try handOn(UnsafeRawBufferPointer(rebasing: chunk[..<(chunk.count - keep)]), handle) }
        held.append(contentsOf: UnsafeRawBufferPointer(rebasing: chunk[(chunk.count - keep)...]))
        return (chunk.count, false)
    }

    /// Where a delimiter that starts in `held` and ends in `chunk` starts; `chunk` holds at
    /// least a delimiter's length.
    private func matchAcrossEdge(_ chunk: UnsafeRawBufferPointer) -> Int? {
        let delimiter = finder.delimiter
        for start in held.indices where held[start] == 0x0D {
            let fromHeld = held.count - start
            var matches = true
            for index in 0..<delimiter.count where (index < fromHeld ? held[start + index] : chunk[index - fromHeld]) != delimiter[index] {
                matches = false
                break
            }
            if matches { return start }
        }
        return nil
    }

    private mutating func dropHeld(_ count: Int) {
        held.removeFirst(count)
        heldVirtual = max(0, heldVirtual - count)
    }

    private mutating func handOnHeld(upTo end: Int, _ handle: (Event) throws -> Void) throws {
        guard end > heldVirtual else { return }
        let from = heldVirtual
        try held.withUnsafeBytes { bytes in
            try handOn(UnsafeRawBufferPointer(rebasing: bytes[from..<end]), handle)
        }
    }

    private mutating func handOn(_ bytes: UnsafeRawBufferPointer, _ handle: (Event) throws -> Void) throws {
        guard !bytes.isEmpty else { return }
        partBytes += bytes.count
        if let head {
            if head.isFile || !requiresNames {
                if let limit = limits.maximumFileBytes, partBytes > limit {
                    throw MultipartParsingError.fileTooLarge(name: head.name ?? "", fileName: head.fileName, limit: limit)
                }
            } else if let limit = limits.maximumFieldBytes, partBytes > limit {
                throw MultipartParsingError.fieldTooLarge(name: head.name ?? "", limit: limit)
            }
        }
        try handle(.body(Span(_unsafeBytes: bytes)))
    }

    private mutating func afterDelimiter(_ step: AfterDelimiter, _ byte: UInt8) throws(MultipartParsingError) {
        switch (step, byte) {
        case (.first, UInt8(ascii: "-")):
            state = .afterDelimiter(.secondDash)
        case (.secondDash, UInt8(ascii: "-")):
            state = .epilogue
        case (.first, 0x20), (.first, 0x09), (.padding, 0x20), (.padding, 0x09):
            state = .afterDelimiter(.padding)
        case (.first, 0x0D), (.padding, 0x0D):
            state = .afterDelimiter(.lineFeed)
        case (.lineFeed, 0x0A):
            partCount += 1
            if let limit = limits.maximumPartCount, partCount > limit { throw .tooManyParts(limit: limit) }
            header.removeAll(keepingCapacity: true)
            // The delimiter line's CRLF counts toward the blank line of a part without headers.
            blankLineMatched = 2
            state = .headers
        default:
            throw .malformedDelimiter(offset: delimiterOffset)
        }
    }

    // MARK: Headers

    /// Gathers the header block up to its blank line; how many bytes of `chunk` were used.
    /// Only the block's own bytes are looked at and kept, so a part costs what its headers do.
    private mutating func readHeaders(_ chunk: UnsafeRawBufferPointer, _ handle: (Event) throws -> Void) throws -> Int {
        let limit = limits.maximumHeaderBytes
        // The block may grow to the limit plus the blank line's CRLF.
        let allowed = limit + 2 - header.count
        let window = min(chunk.count, allowed)
        var index = 0
        var matched = blankLineMatched
        if window > 0, let base = chunk.baseAddress {
            while index < window, matched < 4 {
                if matched == 0 {
                    // Between line ends: jump to the next CR.
                    guard let cr = memchr(base + index, 0x0D, window - index) else {
                        index = window
                        break
                    }
                    index = UnsafeRawPointer(cr) - base
                }
                let byte = base.load(fromByteOffset: index, as: UInt8.self)
                let expected: UInt8 = matched & 1 == 0 ? 0x0D : 0x0A
                matched = byte == expected ? matched + 1 : (byte == 0x0D ? 1 : 0)
                index += 1
            }
        }
        blankLineMatched = matched
        header.append(contentsOf: UnsafeRawBufferPointer(rebasing: chunk[..<index]))
        guard blankLineMatched == 4 else {
            if chunk.count > allowed { throw MultipartParsingError.headersTooLarge(part: partCount, limit: limit) }
            return index
        }
        let blockLength = header.count - 2
        let head = try header.withUnsafeBufferPointer { bytes throws(MultipartParsingError) in try readHead(bytes[..<blockLength]) }
        if requiresNames, head.dispositionType != "form-data" || head.name == nil {
            throw MultipartParsingError.missingName(part: partCount)
        }
        self.head = head
        partBytes = 0
        state = .body
        startBody()
        try handle(.head(head))
        return index
    }

    /// The header lines, each ending in CRLF; a line starting with a space or tab continues
    /// the one before (obs-fold, which Python's `email` still writes). Names must be tokens
    /// and values free of control characters, checked here on the bytes.
    private func readHead(_ block: HeaderParameters.Bytes) throws(MultipartParsingError) -> MultipartPartHead {
        var fields: [HTTPHeaderFields.Field] = []
        // The first Content-Disposition: where it is, and its value's bytes until a fold changes it.
        var dispositionIndex: Int?
        var disposition: HeaderParameters.Bytes?
        var start = block.startIndex
        while start < block.endIndex {
            var end = start
            while block[end] != 0x0D && block[end] != 0x0A { end += 1 }
            let line = block[start..<end]
            guard block[end] == 0x0D, end + 1 < block.endIndex, block[end + 1] == 0x0A else {
                throw .malformedHeader(part: partCount, line: String(decoding: line, as: UTF8.self))
            }
            start = end + 2
            if let first = line.first, first == 0x20 || first == 0x09, !fields.isEmpty {
                let more = HeaderParameters.trimmed(line)
                guard more.allSatisfy(HTTPHeaderFields.isValueByte) else {
                    throw .malformedHeader(part: partCount, line: String(decoding: line, as: UTF8.self))
                }
                fields[fields.count - 1].value += " " + String(decoding: more, as: UTF8.self)
                if dispositionIndex == fields.count - 1 { disposition = nil }
                continue
            }
            guard let colon = line.firstIndex(of: UInt8(ascii: ":")), colon > line.startIndex,
                  line[..<colon].allSatisfy(HTTPHeaderFields.isTokenByte) else {
                throw .malformedHeader(part: partCount, line: String(decoding: line, as: UTF8.self))
            }
            let name = line[..<colon], value = HeaderParameters.trimmed(line[(colon + 1)...])
            guard value.allSatisfy(HTTPHeaderFields.isValueByte) else {
                throw .malformedHeader(part: partCount, line: String(decoding: line, as: UTF8.self))
            }
            guard fields.count < limits.maximumHeaderCount else { throw .tooManyHeaders(part: partCount, limit: limits.maximumHeaderCount) }
            if dispositionIndex == nil, Self.isContentDisposition(name) {
                dispositionIndex = fields.count
                disposition = value
            }
            fields.append(HTTPHeaderFields.Field(name: Self.fieldName(name), value: String(decoding: value, as: UTF8.self)))
        }
        let headers = HTTPHeaderFields(validated: fields)
        guard let dispositionIndex, disposition == nil else {
            return try MultipartPartHead(headers: headers, disposition: disposition, part: partCount)
        }
        // A folded Content-Disposition: read its joined value.
        var folded = fields[dispositionIndex].value
        let part = partCount
        return try folded.withUTF8 { bytes in
            Result { () throws(MultipartParsingError) in try MultipartPartHead(headers: headers, disposition: bytes[...], part: part) }
        }.get()
    }

    /// A field name as written; the names every part has are shared, not made anew.
    private static func fieldName(_ bytes: HeaderParameters.Bytes) -> String {
        if equals(bytes, "Content-Disposition") { return "Content-Disposition" }
        if equals(bytes, "Content-Type") { return "Content-Type" }
        return String(decoding: bytes, as: UTF8.self)
    }

    private static func isContentDisposition(_ name: HeaderParameters.Bytes) -> Bool {
        equals(name, "content-disposition", ignoringCase: true)
    }

    /// Whether `bytes` spell `text` (lower case when `ignoringCase`), byte for byte.
    private static func equals(_ bytes: HeaderParameters.Bytes, _ text: StaticString, ignoringCase: Bool = false) -> Bool {
        guard bytes.count == text.utf8CodeUnitCount else { return false }
        let target = text.utf8Start
        var offset = 0
        for byte in bytes {
            guard (ignoringCase ? HTTPHeaderFields.lowercased(byte) : byte) == target[offset] else { return false }
            offset += 1
        }
        return true
    }

    private static func reason(of error: any Error) -> String {
        if case RequestSerializationError.invalidBoundary(_, let reason) = error { return reason }
        return "\(error)"
    }
}
