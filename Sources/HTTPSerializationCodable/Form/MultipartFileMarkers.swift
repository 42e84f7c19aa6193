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
    private let tag: [UInt8]
    private(set) var files: [MultipartFile] = []

    init() {
        var generator = SystemRandomNumberGenerator()
        tag = (0..<2).flatMap { _ in withUnsafeBytes(of: generator.next() as UInt64) { Array($0) } }
    }

    /// The data value that stands for `file` in the tree.
    func marker(for file: MultipartFile) -> Data {
        var marker = Data(tag)
        withUnsafeBytes(of: UInt64(files.count).littleEndian) { marker.append(contentsOf: $0) }
        files.append(file)
        return marker
    }

    /// The file `data` stands for, or nil for the model's own data.
    func file(for data: Data) -> MultipartFile? {
        guard data.count == tag.count + 8, data.prefix(tag.count).elementsEqual(tag) else { return nil }
        var index: UInt64 = 0
        for (shift, byte) in data.suffix(8).enumerated() { index |= UInt64(byte) << (8 * UInt64(shift)) }
        return index < UInt64(files.count) ? files[Int(index)] : nil
    }
}
