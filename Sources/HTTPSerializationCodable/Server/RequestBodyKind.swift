import HTTPSerializationCore

/// Which of the package's decoders reads a request body, from its content type: JSON for
/// `application/json`, `text/json`, `+json` types and bodies without a type; forms;
/// multipart forms; or none.
package enum RequestBodyKind {
    case json, form, multipart, other

    package init(contentType: String?) {
        guard let contentType else {
            self = .json
            return
        }
        guard let media = ContentTypeField(contentType)?.mimeType else {
            self = .other
            return
        }
        switch media {
        case "application/json", "text/json": self = .json
        case "application/x-www-form-urlencoded": self = .form
        case "multipart/form-data": self = .multipart
        default: self = media.hasSuffix("+json") ? .json : .other
        }
    }
}
