#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import HTTPSerializationCore

/// The files of one multipart encode, each standing in the parameter tree as a data value
/// that names it: a random 16-byte tag of this encode, then its index.
///
/// The tree flattens to field names in every query-string style; a marker comes out under
/// the name its file belongs to. A data value of the model's own matches a tag only with
/// probability 2^-128 per encode.
final class MultipartFileMarkers {
    /// What a marker stands for, with the file name its coding key gives (for data, and for
    /// a received file that came without one).
    enum Attachment {
        case file(MultipartFile, keyName: String)
        case data(Data, keyName: String)
    }

    private let tag: [UInt8]
    private var attachments: [Attachment] = []

    init() {
        var generator = SystemRandomNumberGenerator()
        tag = (0..<2).flatMap { _ in withUnsafeBytes(of: generator.next() as UInt64) { Array($0) } }
    }

    /// The data value that stands for `attachment` in the tree.
    func marker(for attachment: Attachment) -> Data {
        var marker = Data(tag)
        withUnsafeBytes(of: UInt64(attachments.count).littleEndian) { marker.append(contentsOf: $0) }
        attachments.append(attachment)
        return marker
    }

    /// What `data` stands for, or nil for data that is no marker.
    func attachment(for data: Data) -> Attachment? {
        guard data.count == tag.count + 8, data.prefix(tag.count).elementsEqual(tag) else { return nil }
        var index: UInt64 = 0
        for (shift, byte) in data.suffix(8).enumerated() { index |= UInt64(byte) << (8 * UInt64(shift)) }
        return index < UInt64(attachments.count) ? attachments[Int(index)] : nil
    }

    /// The file name a value at `codingPath` gets: its innermost key that is not a list
    /// position, past any `/` or `\` (a key is no path on the receiver's disk); `file` when
    /// there is none.
    static func fileName(for codingPath: [any CodingKey]) -> String {
        safeFileName(codingPath.last(where: { !($0 is IndexCodingKey) })?.stringValue ?? "")
    }

    /// `key` past its last `/` or `\`, so no key names a path on the receiver's disk; `file`
    /// for an empty key, `.` or `..`.
    static func safeFileName(_ key: String) -> String {
        let name = key.split(whereSeparator: { $0 == "/" || $0 == "\\" }).last.map(String.init) ?? ""
        return name.isEmpty || name == "." || name == ".." ? "file" : name
    }
}

/// An encoder that can take a ``/HTTPSerializationCore/MultipartFile`` as a file part:
/// `ParameterEncoder` inside `MultipartFormEncoder`.
extension ParameterEncoder: MultipartFileEncoding {
    var acceptsMultipartFiles: Bool { files != nil }

    func encodeMultipartFile(_ file: MultipartFile) throws {
        guard let files else { return }
        try set(.data(files.marker(for: .file(file, keyName: MultipartFileMarkers.fileName(for: codingPath)))))
    }
}
