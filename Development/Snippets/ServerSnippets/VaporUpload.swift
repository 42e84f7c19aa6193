// The Vapor routes of the article "Reading uploads on a server", compiled so the article's
// calls stay true. Each region between `// snippet:` and `// end snippet` appears verbatim in
// the article (a test in HTTPSerializationTests checks it).
import Foundation
import Vapor
import HTTPSerializationCodable

enum VaporUpload {
    struct Search: Decodable {
        var q: String
        var page: Int
        var tags: [String]
    }

    struct Signup: Decodable {
        var name: String
        var newsletter: Bool
    }

    static func addRoutes(to app: Application) {
        // snippet: vapor-route
        app.on(.POST, "upload", body: .stream) { request async throws -> HTTPStatus in
            let contentType = request.headers.first(name: .contentType) ?? ""
            var limits = MultipartParsingLimits()
            limits.maximumFileBytes = 100 << 20
            let form = try await MultipartForm.read(request.body.map(\.readableBytesView), contentType: contentType, limits: limits)
            let upload = try FormDecoder().decode(Upload.self, from: form)
            try upload.photos.first?.move(to: URL(fileURLWithPath: "/srv/uploads/\(UUID())"))
            return .created
        }
        // end snippet

        app.on(.POST, "parts", body: .stream) { request async throws -> HTTPStatus in
            let contentType = request.headers.first(name: .contentType) ?? ""
            // snippet: parts-one-at-a-time
            for try await part in try MultipartBodyParser.parts(of: request.body.map(\.readableBytesView), contentType: contentType) {
                guard part.head.isFile else { continue }
                let file = try FileHandle(forWritingTo: destination(for: part.head))
                for try await bytes in part.body { try file.write(contentsOf: bytes) }
                try file.close()
            }
            // end snippet
            return .created
        }

        app.on(.POST, "search", body: .stream) { request async throws -> HTTPStatus in
            // snippet: forms-and-queries
            let search = try FormDecoder().decode(Search.self, from: request.url.query ?? "")
            let body = try FormDecoder().decode(Signup.self, from: String(buffer: try await request.body.collect(upTo: 64 << 10)))
            // end snippet
            _ = (search, body)
            return .ok
        }
    }

    /// Where a file part goes: a new file in the uploads folder.
    static func destination(for head: MultipartPartHead) throws -> URL {
        let url = URL(fileURLWithPath: "/srv/uploads/\(UUID())")
        guard FileManager.default.createFile(atPath: url.path, contents: nil) else { throw CocoaError(.fileWriteUnknown) }
        return url
    }
}
