// Uploads whose files spill to disk, for the live tests that check a server keeps the number
// of temporary files bounded and removes them when a request ends, however it ends.
import Foundation
import HTTPSerializationCore
#if canImport(Glibc)
import Glibc
#endif

/// A multipart upload of `title` and `files` file parts of `fileBytes` each, and a scratch
/// directory its spilled files go to.
public struct SpilledUpload: Sendable {
    public let contentType: String
    public let body: [UInt8]
    /// A new, empty directory for this upload's temporary files.
    public let directory: URL

    public init(files: Int, fileBytes: Int) throws {
        var form = try MultipartFormData(boundary: "spilled-upload")
        try form.appendPart(formData: "holiday", name: "title")
        for index in 0..<files {
            try form.appendPart(fileData: Data(repeating: UInt8(index & 0xFF), count: fileBytes), name: "files[]",
                                fileName: "f\(index).bin", mimeType: "application/octet-stream")
        }
        contentType = form.contentType
        body = Array(try form.encodedData())
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("httpser-spill-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    }

    /// The files in ``directory`` now.
    public var files: [String] { (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? [] }

    /// Waits up to `seconds` for ``directory`` to be empty (a request's files go when its last
    /// reference does, which a server drops as it finishes the request); the files left.
    public func filesLeft(waitingUpTo seconds: Double = 20) async throws -> [String] {
        let deadline = Date().addingTimeInterval(seconds)
        while !files.isEmpty, Date() < deadline {
            try await Task.sleep(nanoseconds: 20_000_000)
        }
        return files
    }

    /// Removes ``directory`` and what is left in it.
    public func remove() { try? FileManager.default.removeItem(at: directory) }

    /// Posts the first `fraction` of the body to `path` on `port` and closes the connection, as
    /// a client that goes away mid-part does; waits until the server has taken what was sent.
    public func sendPartThenHangUp(port: Int, path: String, fraction: Double) async throws {
        let head = "POST \(path) HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: \(contentType)\r\nContent-Length: \(body.count)\r\n\r\n"
        let cut = Int(Double(body.count) * fraction)
        let bytes = Array(head.utf8) + body[..<cut]
        try await LoopbackClient.onThread {
            let client = try LoopbackClient(port: port)
            client.send(bytes)
            // Give the server the bytes before the connection goes.
            usleep(300_000)
        }
    }
}
