#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// One part of a multipart body read whole: its head and its body's bytes.
public struct MultipartReceivedPart: Sendable, Hashable {
    /// The part's header block, read.
    public var head: MultipartPartHead
    /// The part's body, as sent.
    public var body: Data

    /// A part from its head and body.
    public init(head: MultipartPartHead, body: Data) {
        self.head = head
        self.body = body
    }
}

extension MultipartBodyParser {
    /// Every part of a body already in memory, in order.
    ///
    /// For small bodies and tests; a server reading uploads streams them instead, so a file
    /// part is never held whole.
    ///
    /// ```swift
    /// let parts = try MultipartBodyParser.parts(of: body, contentType: "multipart/form-data; boundary=X")
    /// parts[0].head.name      // "title"
    /// parts[0].body           // the field's bytes
    /// ```
    ///
    /// - Throws: a ``MultipartParsingError``.
    public static func parts(
        of body: Data, contentType: String, limits: MultipartParsingLimits = MultipartParsingLimits()
    ) throws -> [MultipartReceivedPart] {
        var parser = try MultipartBodyParser(contentType: contentType, limits: limits)
        return try parser.collect(body)
    }

    /// Every part of a body already in memory with this boundary, in order.
    ///
    /// - Parameters:
    ///   - body: the whole body.
    ///   - boundary: the `boundary` parameter of the body's `Content-Type`.
    ///   - requiresNames: every part must be named by `Content-Disposition: form-data`.
    ///   - limits: what the body and each part are held to.
    /// - Throws: a ``MultipartParsingError``.
    public static func parts(
        of body: Data, boundary: String, requiresNames: Bool = true, limits: MultipartParsingLimits = MultipartParsingLimits()
    ) throws -> [MultipartReceivedPart] {
        var parser = try MultipartBodyParser(boundary: boundary, requiresNames: requiresNames, limits: limits)
        return try parser.collect(body)
    }

    private mutating func collect(_ body: Data) throws -> [MultipartReceivedPart] {
        var parts: [MultipartReceivedPart] = []
        try body.withUnsafeBytes { bytes in
            try parse(unsafeBytes: bytes) { event in
                switch event {
                case .head(let head): parts.append(MultipartReceivedPart(head: head, body: Data()))
                case .body(let bytes): bytes.withUnsafeBufferPointer { parts[parts.count - 1].body.append($0) }
                case .end: break
                }
            }
        }
        try finish()
        return parts
    }
}
