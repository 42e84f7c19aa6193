import Foundation
@testable import HTTPSerialization
@testable import HTTPSerializationCodable
@testable import HTTPSerializationCore
@testable import HTTPSerializationFoundation
@testable import HTTPSerializationImages
@testable import HTTPSerializationXML

/// A fresh folder under the system temporary directory, removed by `remove()`.
struct TemporaryFolder {
    let url: URL

    init() throws {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("httpser-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    func file(_ name: String, contents: Data) throws -> URL {
        let file = url.appendingPathComponent(name)
        try contents.write(to: file)
        return file
    }

    func remove() {
        try? FileManager.default.removeItem(at: url)
    }
}

/// Reads a whole stream with the given read sizes, cycling through them.
func readAll(_ stream: InputStream, readSizes: [Int] = [64 * 1024]) throws -> Data {
    stream.open()
    defer { stream.close() }
    var result = Data()
    var buffer = [UInt8](repeating: 0, count: readSizes.max()!)
    var turn = 0
    while stream.hasBytesAvailable {
        let size = readSizes[turn % readSizes.count]
        turn += 1
        let count = stream.read(&buffer, maxLength: size)
        if count < 0 { throw stream.streamError ?? RequestSerializationError.multipartSourceUnavailable(part: "test", reason: "read failed") }
        if count == 0 { break }
        result.append(buffer, count: count)
    }
    return result
}

func collectChunks(_ form: MultipartFormData, size: Int) async throws -> Data {
    var result = Data()
    for try await chunk in form.chunks(size: size) { result.append(chunk) }
    return result
}

func bytes(_ text: String) -> Data { Data(text.utf8) }
