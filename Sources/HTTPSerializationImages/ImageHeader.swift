#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// An image's format and pixel size read from its header alone, so size limits apply
/// before any decoder allocates pixels.
public struct ImageHeader: Sendable, Equatable {
    /// An image format whose header the reader recognises.
    public enum Format: String, Sendable, Codable, CaseIterable {
        /// PNG, JPEG, GIF, BMP, ICO (Windows icon), TIFF and WebP; the raw value is the lower-case name.
        case png, jpeg, gif, bmp, ico, tiff, webp
    }

    /// The format the file's signature names.
    public var format: Format
    /// The width in pixels, as the header gives it.
    public var width: Int
    /// The height in pixels, as the header gives it.
    public var height: Int

    /// `width × height`, or `Int.max` when the product overflows.
    public var pixelCount: Int { width.multipliedReportingOverflow(by: height).overflow ? .max : width * height }

    /// The header of `data`, or nil when it is not a supported image or its header is cut short.
    public init?(data: Data) {
        let bytes = [UInt8](data.prefix(64 * 1024))
        let reader = ByteReader(bytes)
        guard let header = Self.png(reader) ?? Self.jpeg(reader) ?? Self.gif(reader) ?? Self.bmp(reader)
            ?? Self.ico(reader) ?? Self.tiff(reader) ?? Self.webp(reader),
            header.width > 0, header.height > 0 else { return nil }
        self = header
    }

    init(format: Format, width: Int, height: Int) {
        self.format = format
        self.width = width
        self.height = height
    }

    private static func png(_ r: ByteReader) -> ImageHeader? {
        guard r.matches([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A], at: 0), r.matches(Array("IHDR".utf8), at: 12),
              let width = r.uint32BE(16), let height = r.uint32BE(20) else { return nil }
        return ImageHeader(format: .png, width: Int(width), height: Int(height))
    }

    private static func jpeg(_ r: ByteReader) -> ImageHeader? {
        guard r.matches([0xFF, 0xD8], at: 0) else { return nil }
        var offset = 2
        // Walk the markers to the first start-of-frame, which holds the size.
        while let marker = r.byte(offset), marker == 0xFF, let kind = r.byte(offset + 1) {
            if kind == 0xFF { offset += 1; continue }
            if kind == 0xD8 || kind == 0x01 || (0xD0...0xD7).contains(kind) { offset += 2; continue }
            guard let length = r.uint16BE(offset + 2), length >= 2 else { return nil }
            if (0xC0...0xCF).contains(kind), kind != 0xC4, kind != 0xC8, kind != 0xCC {
                guard let height = r.uint16BE(offset + 5), let width = r.uint16BE(offset + 7) else { return nil }
                return ImageHeader(format: .jpeg, width: Int(width), height: Int(height))
            }
            offset += 2 + Int(length)
        }
        return nil
    }

    private static func gif(_ r: ByteReader) -> ImageHeader? {
        guard r.matches(Array("GIF87a".utf8), at: 0) || r.matches(Array("GIF89a".utf8), at: 0),
              let width = r.uint16LE(6), let height = r.uint16LE(8) else { return nil }
        return ImageHeader(format: .gif, width: Int(width), height: Int(height))
    }

    private static func bmp(_ r: ByteReader) -> ImageHeader? {
        guard r.matches(Array("BM".utf8), at: 0), let dibSize = r.uint32LE(14) else { return nil }
        if dibSize == 12 {
            guard let width = r.uint16LE(18), let height = r.uint16LE(20) else { return nil }
            return ImageHeader(format: .bmp, width: Int(width), height: Int(height))
        }
        guard dibSize >= 40, let width = r.uint32LE(18), let height = r.uint32LE(22) else { return nil }
        // Height is negative for top-down bitmaps.
        return ImageHeader(format: .bmp, width: Int(Int32(bitPattern: width)), height: Int(Int32(bitPattern: height).magnitude))
    }

    private static func ico(_ r: ByteReader) -> ImageHeader? {
        guard r.matches([0, 0], at: 0), let kind = r.uint16LE(2), kind == 1 || kind == 2,
              let count = r.uint16LE(4), count > 0 else { return nil }
        var best: (Int, Int)?
        for index in 0..<Int(count) {
            let entry = 6 + 16 * index
            guard let w = r.byte(entry), let h = r.byte(entry + 1) else { return nil }
            let size = (w == 0 ? 256 : Int(w), h == 0 ? 256 : Int(h))
            if best == nil || size.0 * size.1 > best!.0 * best!.1 { best = size }
        }
        return best.map { ImageHeader(format: .ico, width: $0.0, height: $0.1) }
    }

    private static func tiff(_ r: ByteReader) -> ImageHeader? {
        let little: Bool
        if r.matches([0x49, 0x49, 0x2A, 0x00], at: 0) { little = true }
        else if r.matches([0x4D, 0x4D, 0x00, 0x2A], at: 0) { little = false }
        else { return nil }
        let u16 = { (offset: Int) in little ? r.uint16LE(offset) : r.uint16BE(offset) }
        let u32 = { (offset: Int) in little ? r.uint32LE(offset) : r.uint32BE(offset) }
        guard let ifd = u32(4).map(Int.init), let count = u16(ifd) else { return nil }
        var width: Int?
        var height: Int?
        for index in 0..<Int(count) {
            let entry = ifd + 2 + 12 * index
            guard let tag = u16(entry), let type = u16(entry + 2) else { return nil }
            let value: Int? = type == 3 ? u16(entry + 8).map(Int.init) : type == 4 ? u32(entry + 8).map(Int.init) : nil
            if tag == 256 { width = value }
            if tag == 257 { height = value }
        }
        guard let width, let height else { return nil }
        return ImageHeader(format: .tiff, width: width, height: height)
    }

    private static func webp(_ r: ByteReader) -> ImageHeader? {
        guard r.matches(Array("RIFF".utf8), at: 0), r.matches(Array("WEBP".utf8), at: 8) else { return nil }
        if r.matches(Array("VP8 ".utf8), at: 12) {
            guard r.matches([0x9D, 0x01, 0x2A], at: 23), let width = r.uint16LE(26), let height = r.uint16LE(28) else { return nil }
            return ImageHeader(format: .webp, width: Int(width & 0x3FFF), height: Int(height & 0x3FFF))
        }
        if r.matches(Array("VP8L".utf8), at: 12) {
            guard r.byte(20) == 0x2F, let bits = r.uint32LE(21) else { return nil }
            return ImageHeader(format: .webp, width: Int(bits & 0x3FFF) + 1, height: Int((bits >> 14) & 0x3FFF) + 1)
        }
        if r.matches(Array("VP8X".utf8), at: 12) {
            guard let width = r.uint24LE(24), let height = r.uint24LE(27) else { return nil }
            return ImageHeader(format: .webp, width: Int(width) + 1, height: Int(height) + 1)
        }
        return nil
    }
}

/// Bounds-checked reads from a byte array: every read past the end is nil, never a trap.
private struct ByteReader {
    let bytes: [UInt8]

    init(_ bytes: [UInt8]) { self.bytes = bytes }

    func byte(_ offset: Int) -> UInt8? { offset >= 0 && offset < bytes.count ? bytes[offset] : nil }

    func matches(_ pattern: [UInt8], at offset: Int) -> Bool {
        offset >= 0 && offset + pattern.count <= bytes.count && bytes[offset..<offset + pattern.count].elementsEqual(pattern)
    }

    private func value(_ offset: Int, _ count: Int, bigEndian: Bool) -> UInt32? {
        guard offset >= 0, offset + count <= bytes.count else { return nil }
        var result: UInt32 = 0
        for index in 0..<count {
            let byte = UInt32(bytes[offset + (bigEndian ? index : count - 1 - index)])
            result = result << 8 | byte
        }
        return result
    }

    func uint16BE(_ offset: Int) -> UInt16? { value(offset, 2, bigEndian: true).map { UInt16($0) } }
    func uint16LE(_ offset: Int) -> UInt16? { value(offset, 2, bigEndian: false).map { UInt16($0) } }
    func uint24LE(_ offset: Int) -> UInt32? { value(offset, 3, bigEndian: false) }
    func uint32BE(_ offset: Int) -> UInt32? { value(offset, 4, bigEndian: true) }
    func uint32LE(_ offset: Int) -> UInt32? { value(offset, 4, bigEndian: false) }
}
