#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// A `multipart/form-data` body that is never assembled in memory: parts are recorded when
/// appended and read lazily, in order, by whichever adapter sends them.
///
/// The exact ``contentLength`` is known before the first byte goes out, and every part's
/// declared length is enforced while reading: a file or stream that ends early, grows or
/// changes size is a typed error, and nothing past the declared length is ever sent.
///
/// ```swift
/// var form = MultipartFormData()
/// try form.appendPart(formData: Data("Ann".utf8), name: "user")
/// try form.appendPart(fileURL: URL(fileURLWithPath: "/tmp/photo.png"), name: "photo")
/// let stream = form.makeInputStream()          // for URLRequest.httpBodyStream
/// let bytes = try form.encodedData()          // for small forms
/// ```
public struct MultipartFormData: Sendable {
    /// The boundary between parts: 128 random bits by default, or one you inject for
    /// reproducible bodies (validated against RFC 2046).
    public let boundary: String
    /// The multipart subtype and its parameters: `form-data` unless made with
    /// ``init(mediaType:boundary:)``.
    public let mediaType: MultipartMediaType
    /// `CRLF--BOUNDARY`, made once: every in-memory body is checked for it when appended.
    private let delimiter: [UInt8]
    private(set) var parts: [Part] = []
    /// Header and body bytes of the parts so far, kept so that an append that would make the
    /// body too long for any transport fails where it is made.
    private var partBytes: UInt64 = 0
    /// The bandwidth limit every adapter honours, if set.
    public private(set) var throttle: Throttle?

    /// At most `packetSize` bytes per read, with `delay` seconds between packets.
    public struct Throttle: Sendable, Hashable {
        /// The most bytes one read returns (at least 1).
        public var packetSize: Int
        /// Seconds to wait before every packet after the first (0 or more).
        public var delay: TimeInterval
    }

    /// A form with a boundary from the system's cryptographic random generator.
    public init() {
        boundary = MultipartBoundary.random()
        delimiter = MultipartDelimiterFinder.delimiter(boundary: boundary)
        mediaType = .formData
    }

    /// A body of another multipart subtype (`mixed`, `related`, …), with a random boundary or
    /// `boundary`; parts with headers of your own go in with ``appendPart(headers:body:)`` and
    /// its file, stream and nested-multipart forms.
    ///
    /// ```swift
    /// var batch = try MultipartFormData(mediaType: .mixed)
    /// batch.appendPart(headers: try HTTPHeaderFields(["Content-Type": "application/http", "Content-ID": "<item1>"]), body: request1)
    /// ```
    ///
    /// - Throws: ``RequestSerializationError/invalidBoundary(_:reason:)`` for a bad boundary.
    public init(mediaType: MultipartMediaType, boundary: String? = nil) throws {
        if let boundary {
            try MultipartBoundary.validate(boundary)
            self.boundary = boundary
        } else {
            self.boundary = MultipartBoundary.random()
        }
        delimiter = MultipartDelimiterFinder.delimiter(boundary: self.boundary)
        self.mediaType = mediaType
    }

    /// A form with a boundary of your choosing, for signatures and snapshot tests.
    ///
    /// - Throws: ``RequestSerializationError/invalidBoundary(_:reason:)`` unless it is 1–70
    ///   RFC 2046 boundary characters not ending in a space.
    public init(boundary: String) throws {
        try MultipartBoundary.validate(boundary)
        self.boundary = boundary
        delimiter = MultipartDelimiterFinder.delimiter(boundary: boundary)
        mediaType = .formData
    }

    /// `multipart/form-data; boundary=…` (or the ``mediaType``'s subtype and parameters), the
    /// request's `Content-Type`; the boundary is quoted when it holds a character RFC 2045
    /// reserves (space, `( ) , / : = ?`).
    public var contentType: String {
        mediaType.contentType(boundary: boundary)
    }

    /// Whether the form has no parts (a request with it gets no body).
    public var isEmpty: Bool { parts.isEmpty }

    /// The number of parts appended so far.
    public var partCount: Int { parts.count }

    /// The exact number of bytes every adapter produces for this form.
    public var contentLength: UInt64 {
        guard !parts.isEmpty else { return 0 }
        let boundaryCount = UInt64(boundary.utf8.count)
        var total = boundaryCount + 4  // "--" boundary CRLF
        for (index, part) in parts.enumerated() {
            if index > 0 { total += boundaryCount + 6 }  // CRLF "--" boundary CRLF
            total += UInt64(part.headerBlock.count) + part.bodyLength
        }
        return total + boundaryCount + 8  // CRLF "--" boundary "--" CRLF
    }

    // MARK: Appending parts

    /// Appends a file, named by its last path component, typed by its extension.
    ///
    /// - Throws: ``RequestSerializationError/multipartSourceUnavailable(part:reason:)`` when the
    ///   URL is not a file URL, or the file is missing, a directory, or of unknown size.
    public mutating func appendPart(fileURL: URL, name: String) throws {
        let fileName = fileURL.lastPathComponent
        try appendPart(fileURL: fileURL, name: name, fileName: fileName, mimeType: MIMETypes.type(forFileName: fileName))
    }

    /// Appends a file with an explicit file name and MIME type; its size is read now and
    /// enforced when the body is read.
    public mutating func appendPart(fileURL: URL, name: String, fileName: String, mimeType: String) throws {
        let label = nextLabel(name: name, fileName: fileName)
        let length = try Self.regularFileSize(fileURL, label: label.label)
        try append(name: name, fileName: fileName, mimeType: mimeType, body: .file(fileURL, length: length), label: label)
    }

    /// Appends a stream that delivers exactly `length` bytes; it can be read once.
    ///
    /// Use ``appendPart(streamFactory:name:fileName:length:mimeType:)`` for bodies that must
    /// be sent again (retries, redirects).
    public mutating func appendPart(stream: sending any MultipartPartStream, name: String, fileName: String, length: UInt64, mimeType: String) throws {
        let label = nextLabel(name: name, fileName: fileName)
        try append(name: name, fileName: fileName, mimeType: mimeType, body: .stream(OneShotStream(stream), length: length), label: label)
    }

    /// Appends a stream made afresh by `streamFactory` each time the body is read, so every
    /// adapter can replay it; each stream must deliver exactly `length` bytes.
    ///
    /// ```swift
    /// try form.appendPart(streamFactory: { try ChunkedReader(path) }, name: "log",
    ///                     fileName: "log.txt", length: size, mimeType: "text/plain")
    /// ```
    public mutating func appendPart(
        streamFactory: @escaping @Sendable () throws -> any MultipartPartStream,
        name: String, fileName: String, length: UInt64, mimeType: String
    ) throws {
        let label = nextLabel(name: name, fileName: fileName)
        try append(name: name, fileName: fileName, mimeType: mimeType, body: .streamFactory(streamFactory, length: length), label: label)
    }

    /// Appends a file part a form was received with, to send it on: a proxy's upload, or a
    /// model's ``MultipartFile`` property.
    ///
    /// The part keeps the file's name and type (`application/octet-stream` when it had none;
    /// `fileName`, else `name`, as its file name when it had none). A file held in a temporary
    /// file is read from there as the body is sent, never loaded, and is kept until the form is
    /// gone; moving it away (``MultipartFile/move(to:)``) before then makes sending fail.
    ///
    /// ```swift
    /// var forward = MultipartFormData()
    /// for file in received.files { try forward.appendPart(file: file) }
    /// ```
    ///
    /// - Throws: the errors of ``appendPart(fileData:name:fileName:mimeType:)``, and
    ///   ``RequestSerializationError/multipartSourceUnavailable(part:reason:)`` for a temporary
    ///   file that is gone or no longer of the file's size.
    public mutating func appendPart(file: MultipartFile, name: String? = nil, fileName: String? = nil) throws {
        let name = name ?? file.fieldName
        let fileName = file.fileName ?? fileName ?? name
        let label = nextLabel(name: name, fileName: fileName)
        let mimeType = file.contentType ?? MIMETypes.defaultType
        switch file.storage {
        case .memory(let data):
            try append(name: name, fileName: fileName, mimeType: mimeType, body: .data(data), label: label)
        case .temporaryFile(let temporary):
            let url = URL(fileURLWithPath: temporary.path)
            let length = try Self.regularFileSize(url, label: label.label)
            guard UInt64(exactly: file.size) == length else {
                throw RequestSerializationError.multipartSourceUnavailable(
                    part: label.label, reason: "its temporary file holds \(length) bytes, not the \(file.size) it was received with")
            }
            try append(name: name, fileName: fileName, mimeType: mimeType, body: .file(url, length: length), label: label, retaining: temporary)
        }
    }

    /// Appends in-memory data as a file part.
    public mutating func appendPart(fileData: Data, name: String, fileName: String, mimeType: String) throws {
        let label = nextLabel(name: name, fileName: fileName)
        try append(name: name, fileName: fileName, mimeType: mimeType, body: .data(fileData), label: label)
    }

    /// Appends a plain form field: `Content-Disposition: form-data; name="…"` and the bytes.
    ///
    /// - Throws: ``RequestSerializationError/multipartBoundaryInBody(part:)`` when the bytes hold
    ///   the form's delimiter, ``RequestSerializationError/invalidHeaderField(name:reason:)`` for
    ///   a name with a control character.
    public mutating func appendPart(formData: Data, name: String) throws {
        let label = nextLabel(name: name, fileName: nil)
        try append(name: name, fileName: nil, mimeType: nil, body: .data(formData), label: label)
    }

    /// Appends a plain form field of text, sent as UTF-8.
    ///
    /// ```swift
    /// try form.appendPart(formData: "Ann Lee", name: "name")
    /// ```
    ///
    /// - Throws: as ``appendPart(formData:name:)-(Data,String)``.
    public mutating func appendPart(formData: String, name: String) throws {
        let label = nextLabel(name: name, fileName: nil)
        try append(name: name, fileName: nil, mimeType: nil, body: .text(formData), label: label)
    }

    /// Appends a part with headers of your own, written in a stable order (Content-Disposition,
    /// Content-Type, then the rest as given). `HTTPHeaderFields` has already refused CR, LF
    /// and other unsafe characters, so appending cannot fail; a body holding the boundary
    /// delimiter fails when the form is encoded
    /// (``RequestSerializationError/multipartBoundaryInBody(part:)``).
    public mutating func appendPart(headers: HTTPHeaderFields, body: Data) {
        let part = Part(headerBlock: Self.headerBlock(headers), body: .data(body), name: PartName(number: parts.count + 1, field: nil, fileName: nil))
        // Bytes in memory cannot take a total the throwing appends keep under 2^62 past 2^63.
        partBytes &+= UInt64(part.headerBlock.count) &+ part.bodyLength
        parts.append(part)
    }

    /// Appends a file as a part with headers of your own (a `multipart/related` upload's media).
    ///
    /// - Throws: ``RequestSerializationError/multipartSourceUnavailable(part:reason:)`` when the
    ///   URL is not a file URL, or the file is missing, a directory, or of unknown size.
    public mutating func appendPart(headers: HTTPHeaderFields, fileURL: URL) throws {
        let label = PartName(number: parts.count + 1, field: nil, fileName: fileURL.lastPathComponent)
        let length = try Self.regularFileSize(fileURL, label: label.label)
        try append(headers: headers, body: .file(fileURL, length: length), label: label)
    }

    /// Appends a part with headers of your own whose body `streamFactory` makes afresh for each
    /// read; each stream must deliver exactly `length` bytes.
    public mutating func appendPart(
        headers: HTTPHeaderFields, streamFactory: @escaping @Sendable () throws -> any MultipartPartStream, length: UInt64
    ) throws {
        try append(headers: headers, body: .streamFactory(streamFactory, length: length),
                   label: PartName(number: parts.count + 1, field: nil, fileName: nil))
    }

    /// Appends a whole multipart body as one part (a `multipart/mixed` inside a form or a
    /// batch), streamed with its exact length; its `Content-Type` is added to the headers given,
    /// which must not hold one. The nested body is read as this one is sent: a one-shot stream
    /// in it is read by whichever body is sent first, so nest forms made of data, files and
    /// stream factories when a body may be sent twice. Its throttle, if any, is not applied.
    ///
    /// ```swift
    /// var photos = try MultipartFormData(mediaType: .mixed)
    /// try photos.appendPart(headers: try HTTPHeaderFields(["Content-Disposition": "attachment; filename=\"a.png\""]), fileURL: a)
    /// try form.appendPart(headers: try HTTPHeaderFields(["Content-Disposition": "form-data; name=\"photos\""]), multipart: photos)
    /// ```
    ///
    /// - Throws: ``RequestSerializationError/invalidBoundary(_:reason:)`` when a boundary in the
    ///   nested body (its own, or one nested deeper) begins with a boundary of this body or the
    ///   reverse (a reader could take one's delimiter for the other's),
    ///   ``RequestSerializationError/invalidHeaderField(name:reason:)`` when `headers` has a
    ///   `Content-Type`, ``RequestSerializationError/multipartSourceUnavailable(part:reason:)``
    ///   for a nested body with no parts (RFC 2046 asks for one at least).
    public mutating func appendPart(headers: HTTPHeaderFields, multipart nested: MultipartFormData) throws {
        let label = PartName(number: parts.count + 1, field: nil, fileName: nil)
        let outer = allBoundaries, inner = nested.allBoundaries
        for a in outer {
            for b in inner where a.hasPrefix(b) || b.hasPrefix(a) {
                throw RequestSerializationError.invalidBoundary(
                    b, reason: "a boundary in a nested body must not begin with one of its container's (\(a)), nor the reverse")
            }
        }
        guard headers.value(forHTTPHeaderField: "Content-Type") == nil else {
            throw RequestSerializationError.invalidHeaderField(name: "Content-Type", reason: "a nested multipart part takes its type from its body")
        }
        guard !nested.isEmpty else {
            throw RequestSerializationError.multipartSourceUnavailable(part: label.label, reason: "the nested multipart body has no parts")
        }
        var withType = headers
        try withType.setValue(nested.contentType, forHTTPHeaderField: "Content-Type")
        try append(headers: withType, body: .multipart(nested), label: label)
    }

    /// This body's boundary and those of every body nested in it, at any depth.
    var allBoundaries: [String] {
        var boundaries = [boundary]
        for part in parts {
            if case .multipart(let nested) = part.body { boundaries += nested.allBoundaries }
        }
        return boundaries
    }

    /// Whether a header block, at the start of a line as it is sent, spells `delimiter`.
    static func headerBlock(_ block: [UInt8], holds delimiter: [UInt8]) -> Bool {
        ([0x0D, 0x0A] + block).withUnsafeBytes { MultipartDelimiterFinder.contains(delimiter: delimiter, in: $0) }
    }

    /// A part with headers of the caller's, its size checked against the form's limit.
    private mutating func append(headers: HTTPHeaderFields, body: Body, label: PartName) throws {
        let part = Part(headerBlock: Self.headerBlock(headers), body: body, name: label)
        // A header name may begin with `--` (it is a token): one that spells the delimiter would end the part.
        if Self.headerBlock(part.headerBlock, holds: delimiter) { throw RequestSerializationError.multipartBoundaryInBody(part: label.label) }
        try add(part)
    }

    /// Limits every adapter to `packetSize` bytes per read with `delay` seconds between
    /// reads: AFNetworking's upload throttle. Sizes below 1 count as 1; negative or
    /// non-finite delays as 0.
    public mutating func throttleBandwidth(packetSize: Int = 16 * 1024, delay: TimeInterval = 0.2) {
        throttle = Throttle(packetSize: max(1, packetSize), delay: delay.isFinite ? max(0, delay) : 0)
    }

    // MARK: Parameters

    /// Appends one form field per query-string pair of `parameters` (AFNetworking's rule):
    /// names unescaped (`user[tags][]`), `Data` values raw, null as an empty part, other
    /// values as the style writes them.
    ///
    /// - Throws: ``RequestSerializationError/stringEncodingFailed(encoding:)`` when a value
    ///   cannot be represented in `stringEncoding` (AFNetworking dropped such parts silently).
    public mutating func appendParts(
        from parameters: ParameterValue, style: QueryStringStyle = .afNetworking, stringEncoding: String.Encoding = .utf8
    ) throws {
        for pair in queryStringPairs(from: parameters, style: style) {
            let data: Data
            switch pair.value {
            case .data(let bytes): data = bytes
            case .null: data = Data()
            default:
                guard let encoded = style.text(for: pair.value).data(using: stringEncoding, allowLossyConversion: false) else {
                    throw RequestSerializationError.stringEncodingFailed(encoding: stringEncoding.rawValue)
                }
                data = encoded
            }
            try appendPart(formData: data, name: pair.field)
        }
    }

    // MARK: Helpers

    private mutating func append(
        name: String, fileName: String?, mimeType: String?, body: Body, label: PartName, retaining file: TemporaryFile? = nil
    ) throws {
        // Bytes in memory are checked for the delimiter now, so encoding need not scan them again.
        let found = body.withBytes { MultipartDelimiterFinder.contains(delimiter: delimiter, in: $0) }
        if found == true { throw RequestSerializationError.multipartBoundaryInBody(part: label.label) }
        let checked = found != nil
        try add(Part(headerBlock: try Self.formHeaderBlock(name: name, fileName: fileName, mimeType: mimeType),
                     body: body, name: label, isCheckedForDelimiter: checked, retains: file))
    }

    /// Adds `part`, its header and body bytes kept under the total a form may declare.
    private mutating func add(_ part: Part) throws {
        let (size, sizeOverflows) = UInt64(part.headerBlock.count).addingReportingOverflow(part.bodyLength)
        let (total, totalOverflows) = partBytes.addingReportingOverflow(size)
        guard !sizeOverflows, !totalOverflows, total <= Self.maximumPartBytes else {
            throw RequestSerializationError.multipartSourceUnavailable(
                part: part.label, reason: "its \(part.bodyLength) bytes would make the form longer than the 2^62 bytes a form may declare")
        }
        partBytes = total
        // Most forms have a few parts: room for four at once spares the early regrowths.
        if parts.isEmpty { parts.reserveCapacity(4) }
        parts.append(part)
    }

    /// The most header and body bytes a form's parts may declare (4 EiB): far past any real
    /// body, and low enough that ``contentLength`` with every delimiter fits an `Int64`, the
    /// length every transport takes.
    static let maximumPartBytes: UInt64 = 1 << 62

    private func nextLabel(name: String, fileName: String?) -> PartName {
        PartName(number: parts.count + 1, field: name, fileName: fileName)
    }

    static func regularFileSize(_ url: URL, label: String) throws -> UInt64 {
        guard url.isFileURL else {
            throw RequestSerializationError.multipartSourceUnavailable(part: label, reason: "\(url.absoluteString) is not a file URL")
        }
        guard let status = POSIX.fileStatus(url.path) else {
            throw RequestSerializationError.multipartSourceUnavailable(part: label, reason: "\(url.path) does not exist or cannot be read")
        }
        guard status.isRegular else {
            let kind = status.isDirectory ? "a directory" : "not a regular file"
            throw RequestSerializationError.multipartSourceUnavailable(part: label, reason: "\(url.path) is \(kind)")
        }
        return status.size
    }
}
