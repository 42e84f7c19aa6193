#if Hummingbird
import Foundation
import HTTPSerializationCore
import HTTPSerializationHummingbird
import Hummingbird
import HummingbirdTesting
import ServerTestSupport
import Testing

/// Uploads whose files go to disk, over a live server: a request keeps no more temporary files
/// than its limit, and none is left when it ends, answered, refused or cut off.
@Suite("Hummingbird: an upload's temporary files are bounded and gone when the request ends")
struct HummingbirdSpilledFilesTests {
    struct Upload: Decodable {
        var title: String
        var files: [MultipartFile]
    }

    /// A route reading uploads into `upload`'s directory, files past 1 KiB spilled, at most 3.
    static func application(_ upload: SpilledUpload) -> some ApplicationProtocol {
        let router = Router(context: HTTPSerializationBasicRequestContext.self)
        let directory = upload.directory
        router.post("/uploads") { request, context -> String in
            var decoder = HTTPSerializationRequestDecoder()
            decoder.multipart.spillThreshold = 1024
            decoder.multipart.temporaryDirectory = directory
            decoder.multipart.limits.maximumSpilledFiles = 3
            let received = try await decoder.decode(Upload.self, from: request, context: context)
            let spilled = received.files.filter { $0.temporaryFileURL != nil }.count
            return "\(received.title) \(received.files.count) \(spilled)"
        }
        return Application(router: router)
    }

    @Test("three spilled files are read and removed once the route has answered")
    func answeredUpload() async throws {
        let upload = try SpilledUpload(files: 3, fileBytes: 50_000)
        defer { upload.remove() }
        try await Self.application(upload).test(.live) { client in
            try await client.execute(uri: "/uploads", method: .post, headers: [.contentType: upload.contentType],
                                     body: ByteBuffer(bytes: upload.body)) { response in
                #expect(response.status == .ok)
                #expect(String(buffer: response.body) == "holiday 3 3")
            }
        }
        #expect(try await upload.filesLeft() == [])
    }

    @Test("a fourth spilled file is 413 naming the limit, and the three before it are removed")
    func tooManySpilledFiles() async throws {
        let upload = try SpilledUpload(files: 4, fileBytes: 50_000)
        defer { upload.remove() }
        try await Self.application(upload).test(.live) { client in
            try await client.execute(uri: "/uploads", method: .post, headers: [.contentType: upload.contentType],
                                     body: ByteBuffer(bytes: upload.body)) { response in
                #expect(response.status == .contentTooLarge)
                #expect(String(buffer: response.body).contains("limit of 3 large files"), "\(String(buffer: response.body))")
            }
        }
        #expect(try await upload.filesLeft() == [])
    }

    @Test("a client that hangs up in the middle of a file part leaves no temporary file", arguments: [0.3, 0.6, 0.9])
    func clientHangsUpMidPart(fraction: Double) async throws {
        let upload = try SpilledUpload(files: 3, fileBytes: 400_000)
        defer { upload.remove() }
        try await Self.application(upload).test(.live) { client in
            let port = try #require(client.port)
            try await upload.sendPartThenHangUp(port: port, path: "/uploads", fraction: fraction)
            #expect(try await upload.filesLeft() == [], "cut at \(fraction)")
            // The server goes on serving.
            try await client.execute(uri: "/uploads", method: .post, headers: [.contentType: upload.contentType],
                                     body: ByteBuffer(bytes: upload.body)) { response in
                #expect(response.status == .ok)
            }
        }
        #expect(try await upload.filesLeft() == [])
    }
}
#endif
