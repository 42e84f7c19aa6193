#if Hummingbird
import Foundation
import HTTPSerializationCore
import HTTPSerializationHummingbird
import Hummingbird
import HummingbirdTesting
import Testing

/// The one body limit a Hummingbird app sets, its context's `maxUploadSize`, or the decoder's
/// `maximumBodySize` over it, holds JSON, form and multipart bodies alike, with a 413 that says it.
@Suite("Hummingbird: one body limit for JSON, forms and uploads, named in the 413")
struct HummingbirdLimitsTests {
    /// A context that takes bodies of up to 64 KiB.
    struct SmallBodies: HTTPSerializationRequestContext {
        var coreContext: CoreRequestContextStorage
        init(source: ApplicationRequestContextSource) { coreContext = .init(source: source) }
        var maxUploadSize: Int { 64 << 10 }
    }

    struct Note: Decodable {
        var text: String
    }

    struct Upload: Decodable {
        var text: String
        var file: MultipartFile
    }

    static func application() -> some ApplicationProtocol {
        let router = Router(context: SmallBodies.self)
        router.post("/notes") { request, context -> String in
            String(try await request.decode(as: Note.self, context: context).text.count)
        }
        router.post("/uploads") { request, context -> String in
            String(try await request.decode(as: Upload.self, context: context).file.size)
        }
        // The decoder's own limit, where a route takes more than the context.
        router.post("/large-uploads") { request, context -> String in
            var decoder = HTTPSerializationRequestDecoder()
            decoder.maximumBodySize = 1 << 20
            return String(try await decoder.decode(Upload.self, from: request, context: context).file.size)
        }
        return Application(router: router)
    }

    static func upload(fileBytes: Int) throws -> (String, ByteBuffer) {
        var form = try MultipartFormData(boundary: "limits")
        try form.appendPart(formData: "hello", name: "text")
        try form.appendPart(fileData: Data(repeating: 7, count: fileBytes), name: "file", fileName: "f.bin", mimeType: "application/octet-stream")
        return (form.contentType, ByteBuffer(bytes: try form.encodedData()))
    }

    @Test("JSON, a form and an upload past the context's maxUploadSize are each 413 with a message naming 65536 bytes; smaller ones pass")
    func contextLimitHoldsEveryKind() async throws {
        let long = String(repeating: "a", count: 100_000)
        let json = ByteBuffer(string: #"{"text":"\#(long)"}"#)
        let form = ByteBuffer(string: "text=" + long)
        let (uploadType, upload) = try Self.upload(fileBytes: 100_000)
        let (smallType, small) = try Self.upload(fileBytes: 30_000)
        try await Self.application().test(.live) { client in
            for (path, contentType, body) in [("/notes", "application/json", json), ("/notes", "application/x-www-form-urlencoded", form),
                                              ("/uploads", uploadType, upload)] {
                try await client.execute(uri: path, method: .post, headers: [.contentType: contentType], body: body) { response in
                    #expect(response.status == .contentTooLarge, "\(contentType)")
                    #expect(String(buffer: response.body).contains("limit of 65536 bytes"), "\(contentType): \(String(buffer: response.body))")
                }
            }
            try await client.execute(uri: "/uploads", method: .post, headers: [.contentType: smallType], body: small) { response in
                #expect(response.status == .ok)
                #expect(String(buffer: response.body) == "30000")
            }
            try await client.execute(uri: "/large-uploads", method: .post, headers: [.contentType: uploadType], body: upload) { response in
                #expect(response.status == .ok)
                #expect(String(buffer: response.body) == "100000")
            }
        }
    }
}
#endif
