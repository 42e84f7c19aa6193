// The Hummingbird 2 route of the article "Reading uploads on a server", compiled so the
// article's calls stay true. Each region between `// snippet:` and `// end snippet` appears
// verbatim in the article (a test in HTTPSerializationTests checks it).
import Foundation
import Hummingbird
import HTTPSerializationCodable

// snippet: hummingbird-route
struct Upload: Decodable {
    var title: String
    var photos: [MultipartFile]
}

func addUploadRoute(to router: Router<BasicRequestContext>, uploads: URL) {
    router.post("upload") { request, context -> HTTPResponse.Status in
        let contentType = request.headers[.contentType] ?? ""
        let form = try await MultipartForm.read(request.body.map(\.readableBytesView), contentType: contentType)
        let upload = try FormDecoder().decode(Upload.self, from: form)
        for photo in upload.photos {
            try photo.move(to: uploads.appendingPathComponent(UUID().uuidString))
        }
        return .created
    }
}
// end snippet
