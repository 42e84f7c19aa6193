#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// The one lazy reader behind every adapter: for each part its boundary line, its header
/// block, then its body; after the last part the closing boundary.
///
/// Fills whatever buffer it is given across phases and parts, with no allocation per read;
/// file bodies are opened only when reached and closed when done. Not thread-safe: one
/// adapter drives one reader on one thread at a time.
package final class MultipartBodyReader: BodyByteSource {
    private enum Phase {
        /// Boundary line and header block of `parts[partIndex]`, from `offset`.
        case prefix(offset: Int)
        case body
        case closing(offset: Int)
        case done
    }

    private let parts: [MultipartFormData.Part]
    private let openingBoundary: [UInt8]
    private let separatingBoundary: [UInt8]
    private let closingBoundary: [UInt8]
    private var partIndex = 0
    private var phase: Phase
    private var source: (any BodyByteSource)?
    private var delimiterScanner: MultipartDelimiterScanner
    /// `CRLF--BOUNDARY`, for the check of header blocks.
    private let delimiter: [UInt8]

    package init(form: MultipartFormData) {
        parts = form.parts
        let boundary = Array(form.boundary.utf8)
        openingBoundary = Array("--".utf8) + boundary + [0x0D, 0x0A]
        separatingBoundary = [0x0D, 0x0A] + Array("--".utf8) + boundary + [0x0D, 0x0A]
        closingBoundary = [0x0D, 0x0A] + Array("--".utf8) + boundary + Array("--".utf8) + [0x0D, 0x0A]
        phase = parts.isEmpty ? .done : .prefix(offset: 0)
        delimiterScanner = MultipartDelimiterScanner(boundary: form.boundary)
        delimiter = MultipartDelimiterFinder.delimiter(boundary: form.boundary)
    }

    deinit {
        source?.close()
    }

    package var isAtEnd: Bool {
        if case .done = phase { return true }
        return false
    }

    /// Fills up to `buffer.count` bytes; returns 0 only at the end of the body.
    package func read(into buffer: UnsafeMutableRawBufferPointer) throws -> Int {
        var filled = 0
        while filled < buffer.count {
            let target = UnsafeMutableRawBufferPointer(rebasing: buffer[filled...])
            switch phase {
            case .prefix(let offset):
                let part = parts[partIndex]
                // Headers set without a check (appendPart(headers:body:) cannot throw) are checked
                // here, before any of the part is written.
                if offset == 0, MultipartFormData.headerBlock(part.headerBlock, holds: delimiter) {
                    throw RequestSerializationError.multipartBoundaryInBody(part: part.label)
                }
                let boundary = partIndex == 0 ? openingBoundary : separatingBoundary
                let (count, next) = copy(from: boundary, then: part.headerBlock, offset: offset, into: target)
                filled += count
                if next == boundary.count + part.headerBlock.count {
                    source = try openSource(for: part)
                    delimiterScanner.reset()
                    phase = .body
                } else {
                    phase = .prefix(offset: next)
                }
            case .body:
                let scanned = !parts[partIndex].isCheckedForDelimiter
                let count = try source!.read(into: target)
                if count == 0 {
                    source?.close()
                    source = nil
                    partIndex += 1
                    phase = partIndex < parts.count ? .prefix(offset: 0) : .closing(offset: 0)
                } else {
                    // Hand on nothing from a chunk that completes a delimiter, and stop there.
                    if scanned, delimiterScanner.scan(UnsafeRawBufferPointer(rebasing: target.prefix(count))) {
                        let label = parts[partIndex].label
                        close()
                        throw RequestSerializationError.multipartBoundaryInBody(part: label)
                    }
                    filled += count
                }
            case .closing(let offset):
                let (count, next) = copy(from: closingBoundary, then: [], offset: offset, into: target)
                filled += count
                phase = next == closingBoundary.count ? .done : .closing(offset: next)
            case .done:
                return filled
            }
        }
        return filled
    }

    /// Releases an open file or stream early (an adapter closed before the end).
    package func close() {
        source?.close()
        source = nil
        phase = .done
    }

    /// Copies from the concatenation of `first` and `second`, starting at `offset`; returns
    /// the bytes written and the new offset.
    private func copy(from first: [UInt8], then second: [UInt8], offset: Int, into target: UnsafeMutableRawBufferPointer) -> (Int, Int) {
        var position = offset
        var written = 0
        copySegment(first, start: 0, position: &position, written: &written, into: target)
        copySegment(second, start: first.count, position: &position, written: &written, into: target)
        return (written, position)
    }

    private func copySegment(
        _ segment: [UInt8], start: Int, position: inout Int, written: inout Int, into target: UnsafeMutableRawBufferPointer
    ) {
        let end = start + segment.count
        guard position >= start, position < end, written < target.count else { return }
        let count = min(end - position, target.count - written)
        segment.withUnsafeBytes { bytes in
            (target.baseAddress! + written).copyMemory(from: bytes.baseAddress! + (position - start), byteCount: count)
        }
        written += count
        position += count
    }

    private func openSource(for part: MultipartFormData.Part) throws -> any BodyByteSource {
        switch part.body {
        case .data(let data):
            return DataBodySource(data)
        case .text(let text):
            return DataBodySource(Data(text.utf8))
        case .file(let url, let length):
            return try FileBodySource(url: url, declared: length, label: part.label)
        case .streamFactory(let factory, let length):
            return try StreamBodySource(opening: factory, declared: length, label: part.label)
        case .stream(let oneShot, let length):
            return try StreamBodySource(claiming: oneShot, declared: length, label: part.label)
        case .multipart(let form):
            return MultipartBodyReader(form: form)
        }
    }
}
