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

/// A file part of a received form: its names and type, and its bytes, in memory or, past a
/// size, in a temporary file that is removed once nothing refers to it.
///
/// ```swift
/// let avatar = try #require(form.file(named: "avatar"))
/// avatar.fileName        // "me.png"
/// try avatar.move(to: uploads.appendingPathComponent(UUID().uuidString))
/// ```
public struct MultipartFile: Sendable, Hashable {
    /// The form field the file was sent under.
    public var fieldName: String
    /// The file name the client gave, if any.
    public var fileName: String?
    /// The part's `Content-Type`, as written.
    public var contentType: String?
    /// The part's full head.
    public var head: MultipartPartHead
    /// The file's length in bytes.
    public var size: Int

    let storage: Storage

    /// A file held in memory, for tests of code that takes decoded uploads.
    ///
    /// ```swift
    /// let photo = MultipartFile(fieldName: "photo", fileName: "a.png", contentType: "image/png", data: png)
    /// ```
    public init(fieldName: String, fileName: String?, contentType: String?, data: Data) {
        self.fieldName = fieldName
        self.fileName = fileName
        self.contentType = contentType
        var headers = HTTPHeaderFields()
        if let contentType { try? headers.setValue(contentType, forHTTPHeaderField: "Content-Type") }
        head = MultipartPartHead(headers: headers, name: fieldName, fileName: fileName)
        size = data.count
        storage = .memory(data)
    }

    init(fieldName: String, fileName: String?, contentType: String?, head: MultipartPartHead, size: Int, storage: Storage) {
        self.fieldName = fieldName
        self.fileName = fileName
        self.contentType = contentType
        self.head = head
        self.size = size
        self.storage = storage
    }

    enum Storage: Sendable, Hashable {
        case memory(Data)
        case temporaryFile(TemporaryFile)
    }

    /// The temporary file holding the bytes, for a file past the form's spill size; nil for
    /// one held in memory. It is removed when the last copy of this value goes, unless moved.
    public var temporaryFileURL: URL? {
        if case .temporaryFile(let file) = storage { return URL(fileURLWithPath: file.path) }
        return nil
    }

    /// The file's bytes, read from its temporary file if it has one.
    ///
    /// - Throws: ``MultipartParsingError/temporaryFileFailed(path:reason:)`` when the
    ///   temporary file cannot be read.
    public func data() throws -> Data {
        switch storage {
        case .memory(let data):
            return data
        case .temporaryFile(let file):
            do {
                return try Data(contentsOf: URL(fileURLWithPath: file.path))
            } catch {
                throw MultipartParsingError.temporaryFileFailed(path: file.path, reason: "\(error)")
            }
        }
    }

    /// Puts the file at `url`: its temporary file renamed there (on the same file system) or
    /// copied, or its bytes written; the temporary file is then gone.
    ///
    /// - Throws: ``MultipartParsingError/temporaryFileFailed(path:reason:)``.
    public func move(to url: URL) throws {
        switch storage {
        case .memory(let data):
            do {
                try data.write(to: url)
            } catch {
                throw MultipartParsingError.temporaryFileFailed(path: url.path, reason: "\(error)")
            }
        case .temporaryFile(let file):
            try file.move(to: url.path)
        }
    }
}

/// A file this package made and removes when the last reference to it goes, unless moved.
///
/// `@unchecked Sendable`: `path` is immutable and `moved` is read and written under `lock`.
final class TemporaryFile: @unchecked Sendable, Hashable {
    let path: String
    private let lock = POSIXMutex()
    private var moved = false

    private init(path: String) {
        self.path = path
    }

    /// A new empty file in `directory`, open for writing; the descriptor is the caller's to close.
    static func create(in directory: String) throws(MultipartParsingError) -> (TemporaryFile, Int32) {
        var template = Array((directory.hasSuffix("/") ? directory : directory + "/").utf8) + Array("httpser-part-XXXXXX".utf8) + [0]
        let descriptor = template.withUnsafeMutableBufferPointer { buffer in
            buffer.withMemoryRebound(to: CChar.self) { mkstemp($0.baseAddress!) }
        }
        let path = String(decoding: template.dropLast(), as: UTF8.self)
        guard descriptor >= 0 else { throw .temporaryFileFailed(path: path, reason: POSIX.errorDescription) }
        return (TemporaryFile(path: path), descriptor)
    }

    /// The directory temporary files go to by default: `TMPDIR`, else `/tmp`.
    static var defaultDirectory: String {
        if let value = getenv("TMPDIR"), value.pointee != 0 { return String(cString: value) }
        return "/tmp"
    }

    func move(to destination: String) throws {
        try lock.withLock {
            guard !moved else { throw MultipartParsingError.temporaryFileFailed(path: path, reason: "the file has already been moved") }
            if rename(path, destination) != 0 {
                // Another file system: copy (in pieces, never the whole file in memory), then
                // remove the original.
                guard errno == EXDEV else { throw MultipartParsingError.temporaryFileFailed(path: destination, reason: POSIX.errorDescription) }
                do {
                    // rename(2) replaces the destination; so does this.
                    if FileManager.default.fileExists(atPath: destination) { try FileManager.default.removeItem(atPath: destination) }
                    try FileManager.default.copyItem(atPath: path, toPath: destination)
                } catch {
                    throw MultipartParsingError.temporaryFileFailed(path: destination, reason: "\(error)")
                }
                unlink(path)
            }
            moved = true
        }
    }

    deinit {
        if !moved { unlink(path) }
    }

    static func == (lhs: TemporaryFile, rhs: TemporaryFile) -> Bool { lhs === rhs }
    func hash(into hasher: inout Hasher) { hasher.combine(ObjectIdentifier(self)) }
}

extension MultipartFile: Decodable {
    /// A file part as a model's property, read by `FormDecoder` from a ``MultipartForm``;
    /// any other decoder has no file to give and throws.
    ///
    /// - Throws: `DecodingError.typeMismatch` outside `FormDecoder`.
    public init(from decoder: any Decoder) throws {
        throw DecodingError.typeMismatch(MultipartFile.self, .init(
            codingPath: decoder.codingPath, debugDescription: "A file part decodes only from a multipart form, with FormDecoder."))
    }
}

extension MultipartFile: Encodable {
    /// A file part as a model's property, written by `MultipartFormEncoder` as a file part;
    /// any other encoder has no place for a file and throws.
    ///
    /// - Throws: `EncodingError.invalidValue` outside `MultipartFormEncoder`.
    public func encode(to encoder: any Encoder) throws {
        if let multipart = encoder as? any MultipartFileEncoding, multipart.acceptsMultipartFiles {
            return try multipart.encodeMultipartFile(self)
        }
        throw EncodingError.invalidValue(self, .init(
            codingPath: encoder.codingPath, debugDescription: "A file part encodes only into a multipart form, with MultipartFormEncoder."))
    }
}

/// An `Encoder` that writes a ``MultipartFile`` as a file part (the multipart form encoder's),
/// so a file reached through a wrapper's own `encode(to:)` still arrives as one.
package protocol MultipartFileEncoding {
    /// Whether this encoder is writing a multipart form now.
    var acceptsMultipartFiles: Bool { get }
    /// Writes `file` where the encoder stands.
    func encodeMultipartFile(_ file: MultipartFile) throws
}
