#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Turns a parser's events into a ``MultipartForm``: fields as text, files in memory until
/// they pass the spill threshold, and a nested `multipart/mixed` part read by a collector of
/// its own, one level deeper.
///
/// A reference because the parser's handler fills it while the parser runs; it belongs to
/// the one read that made it. Package-visible for the tests of where its file calls run.
package final class MultipartFormCollector {
    private var parser: MultipartBodyParser
    private let limits: MultipartParsingLimits
    private let spillThreshold: Int
    private let directory: String
    private let depth: Int
    /// The outer field's name, for the files of a nested part.
    private let outerName: String?

    private var fields: [MultipartForm.Field] = []
    private var files: [MultipartFile] = []

    private enum Current {
        case none, field, file, nested
    }

    private var current = Current.none
    private var head: MultipartPartHead?
    private var fieldBytes: [UInt8] = []
    private var sink: SpillingSink?
    private var nested: MultipartFormCollector?
    /// The temporary files this read has made, shared with the collectors of nested parts.
    private let spills: SpillCount

    package init(contentType: String, limits: MultipartParsingLimits, spillThreshold: Int, directory: String) throws(MultipartParsingError) {
        parser = try MultipartBodyParser(contentType: contentType, limits: limits)
        self.limits = limits
        self.spillThreshold = spillThreshold
        self.directory = directory
        depth = 0
        outerName = nil
        spills = SpillCount(limit: limits.maximumSpilledFiles)
    }

    private init(boundary: String, outerName: String, depth: Int, parent: MultipartFormCollector) throws(MultipartParsingError) {
        parser = try MultipartBodyParser(boundary: boundary, requiresNames: false, limits: parent.limits)
        limits = parent.limits
        spillThreshold = parent.spillThreshold
        directory = parent.directory
        self.depth = depth
        self.outerName = outerName
        spills = parent.spills
    }

    package func feed(_ bytes: UnsafeRawBufferPointer) throws {
        try parser.parse(unsafeBytes: bytes) { event in try self.handle(event) }
    }

    package func finish() throws -> MultipartForm {
        try parser.finish()
        return MultipartForm(fields: fields, files: files)
    }

    /// Whether feeding `count` more bytes may create, write or close a temporary file: a file
    /// part already on disk, or one whose bytes in memory could pass the spill threshold. A
    /// part starting in these bytes holds no more than all of them; a delimiter's length is
    /// added for the bytes the parser holds back between chunks (it cannot tell a body's last
    /// bytes from a delimiter's first until more come), so that the answer does not rest on
    /// how much of them it hands on with each chunk.
    package func mayWriteFile(taking count: Int) -> Bool {
        let count = count + parser.boundary.utf8.count + 4
        if count > spillThreshold { return true }
        switch current {
        case .file: return sink?.mayWrite(adding: count) ?? false
        case .nested: return nested?.mayWriteFile(taking: count) ?? false
        case .field, .none: return false
        }
    }

    private func handle(_ event: MultipartBodyParser.Event) throws {
        switch event {
        case .head(let head):
            self.head = head
            if !head.isFile, let boundary = Self.mixedBoundary(head.contentType) {
                guard depth < limits.maximumNestingDepth else { throw MultipartParsingError.nestingTooDeep(limit: limits.maximumNestingDepth) }
                nested = try MultipartFormCollector(boundary: boundary, outerName: outerName ?? head.name ?? "", depth: depth + 1, parent: self)
                current = .nested
            } else if head.isFile || depth > 0 {
                sink = SpillingSink(threshold: spillThreshold, directory: directory, spills: spills)
                current = .file
            } else {
                fieldBytes.removeAll(keepingCapacity: true)
                current = .field
            }
        case .body(let bytes):
            switch current {
            case .field: bytes.withUnsafeBufferPointer { fieldBytes.append(contentsOf: $0) }
            case .file: try bytes.withUnsafeBytes { try sink?.write($0) }
            case .nested: try bytes.withUnsafeBytes { try nested?.feed($0) }
            case .none: break
            }
        case .end:
            guard let head else { return }
            switch current {
            case .field:
                fields.append(MultipartForm.Field(name: head.name ?? "", value: String(decoding: fieldBytes, as: UTF8.self), head: head))
            case .file:
                if let sink {
                    let (storage, size) = try sink.finish()
                    files.append(MultipartFile(fieldName: outerName ?? head.name ?? "", fileName: head.fileName, contentType: head.contentType,
                                               head: head, size: size, storage: storage))
                }
            case .nested:
                if let nested { files += try nested.finish().files }
            case .none:
                break
            }
            (current, self.head, sink, nested) = (.none, nil, nil, nil)
        }
    }

    /// The boundary of a `multipart/mixed` content type, the old way of sending several files
    /// under one name (RFC 2388).
    private static func mixedBoundary(_ contentType: String?) -> String? {
        guard let contentType else { return nil }
        let parsed = HeaderParameters(contentType)
        return parsed.value == "multipart/mixed" ? parsed.parameter("boundary") : nil
    }
}

/// How many temporary files one read of a form has made, against
/// ``MultipartParsingLimits/maximumSpilledFiles``.
final class SpillCount {
    private let limit: Int?
    private var count = 0

    init(limit: Int?) {
        self.limit = limit
    }

    /// Counts one more file, or throws before it is made.
    func take() throws(MultipartParsingError) {
        if let limit, count >= limit { throw .tooManySpilledFiles(limit: limit) }
        count += 1
    }
}

/// Keeps a file part's bytes in memory up to a threshold, then in a temporary file.
final class SpillingSink {
    private let threshold: Int
    private let directory: String
    private let spills: SpillCount
    private var memory: [UInt8] = []
    private var file: TemporaryFile?
    private var descriptor: Int32 = -1
    private var size = 0

    init(threshold: Int, directory: String, spills: SpillCount) {
        self.threshold = threshold
        self.directory = directory
        self.spills = spills
    }

    /// Whether writing `count` more bytes may touch the temporary file.
    func mayWrite(adding count: Int) -> Bool {
        file != nil || memory.count + count > threshold
    }

    func write(_ bytes: UnsafeRawBufferPointer) throws(MultipartParsingError) {
        size += bytes.count
        if file == nil, memory.count + bytes.count <= threshold {
            memory.append(contentsOf: bytes)
            return
        }
        if file == nil {
            try spills.take()
            (file, descriptor) = try TemporaryFile.create(in: directory)
            let held = memory
            memory = []
            try held.withUnsafeBytes { held in Result { () throws(MultipartParsingError) in try writeAll(held) } }.get()
        }
        try writeAll(bytes)
    }

    /// The bytes kept, and how many.
    func finish() throws(MultipartParsingError) -> (MultipartFile.Storage, Int) {
        guard let file else { return (.memory(Data(memory)), size) }
        let closed = POSIX.close(descriptor)
        descriptor = -1
        guard closed else { throw .temporaryFileFailed(path: file.path, reason: POSIX.errorDescription) }
        return (.temporaryFile(file), size)
    }

    private func writeAll(_ bytes: UnsafeRawBufferPointer) throws(MultipartParsingError) {
        guard let base = bytes.baseAddress, let file else { return }
        if let reason = POSIX.writeAll(descriptor, base, bytes.count) { throw .temporaryFileFailed(path: file.path, reason: reason) }
    }

    deinit {
        // On an error or a cancellation the descriptor is still open; the file itself goes
        // with its last reference.
        if descriptor >= 0 { POSIX.close(descriptor) }
    }
}
