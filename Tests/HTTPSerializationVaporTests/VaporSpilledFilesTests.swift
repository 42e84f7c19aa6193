#if Vapor
import Foundation
import HTTPSerializationCodable
import HTTPSerializationCore
import HTTPSerializationVapor
import ServerTestSupport
import Testing
import Vapor
import VaporTesting

/// Uploads whose files go to disk, over a live server: a request keeps no more temporary files
/// than its limit, and none is left when it ends, answered, refused or cut off.
@Suite("Vapor: an upload's temporary files are bounded and gone when the request ends")
struct VaporSpilledFilesTests {
    struct Upload: Decodable {
        var title: String
        var files: [MultipartFile]
    }

    /// A streamed route reading uploads into `upload`'s directory, files past 1 KiB spilled, at most 3.
    static func configure(_ upload: SpilledUpload) -> @Sendable (Application) async throws -> Void {
        let directory = upload.directory
        return { app in
            app.on(.POST, "uploads", body: .stream) { request async throws -> String in
                var decoder = MultipartFormDecoder(spillThreshold: 1024, temporaryDirectory: directory)
                decoder.limits.maximumSpilledFiles = 3
                let received = try await request.decodeMultipart(Upload.self, using: decoder)
                let spilled = received.files.filter { $0.temporaryFileURL != nil }.count
                return "\(received.title) \(received.files.count) \(spilled)"
            }
        }
    }

    @Test("three spilled files are read and removed once the route has answered")
    func answeredUpload() async throws {
        let upload = try SpilledUpload(files: 3, fileBytes: 50_000)
        defer { upload.remove() }
        try await withApp(configure: Self.configure(upload)) { app in
            try await VaporStreamTests.serving(app) { port in
                let answer = try await VaporStreamTests.fetch(port: port, "/uploads", method: .POST, headers: ["Content-Type": upload.contentType],
                                                              body: ByteBuffer(bytes: upload.body))
                #expect(answer.status == .ok)
                #expect(answer.body.string == "holiday 3 3")
            }
        }
        #expect(try await upload.filesLeft() == [])
    }

    @Test("a fourth spilled file is 413 naming the limit, and the three before it are removed")
    func tooManySpilledFiles() async throws {
        let upload = try SpilledUpload(files: 4, fileBytes: 50_000)
        defer { upload.remove() }
        try await withApp(configure: Self.configure(upload)) { app in
            try await VaporStreamTests.serving(app) { port in
                let answer = try await VaporStreamTests.fetch(port: port, "/uploads", method: .POST, headers: ["Content-Type": upload.contentType],
                                                              body: ByteBuffer(bytes: upload.body))
                #expect(answer.status == .payloadTooLarge)
                #expect(answer.body.string.contains("limit of 3 large files"), "\(answer.body.string)")
            }
        }
        #expect(try await upload.filesLeft() == [])
    }

    @Test("a client that hangs up in the middle of a file part leaves no temporary file", arguments: [0.3, 0.6, 0.9])
    func clientHangsUpMidPart(fraction: Double) async throws {
        let upload = try SpilledUpload(files: 3, fileBytes: 400_000)
        defer { upload.remove() }
        try await withApp(configure: Self.configure(upload)) { app in
            try await VaporStreamTests.serving(app) { port in
                try await upload.sendPartThenHangUp(port: port, path: "/uploads", fraction: fraction)
                #expect(try await upload.filesLeft() == [], "cut at \(fraction)")
                let answer = try await VaporStreamTests.fetch(port: port, "/uploads", method: .POST, headers: ["Content-Type": upload.contentType],
                                                              body: ByteBuffer(bytes: upload.body))
                #expect(answer.status == .ok)
            }
        }
        #expect(try await upload.filesLeft() == [])
    }
}
#endif
