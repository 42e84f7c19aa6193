import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import HTTPSerialization

/// How data items become a body.
enum BodyMode: String {
    case json, form, multipart, plist
}

/// What the tool was asked to send, turned into a request by the package's own serializers.
struct RequestPlan {
    var method: String
    var url: String
    var items: [RequestItem]
    var mode: BodyMode?
    var boundary: String?
    var throttle: (packetSize: Int, delay: Double)?
    var auth: (user: String, password: String)?
    var timeout: Double?

    /// The request, and its multipart form when it has one.
    func build() throws -> (URLRequest, MultipartFormData?) {
        let files = items.compactMap { item -> (String, String, String?)? in
            if case .file(let name, let path, let type) = item { return (name, path, type) }
            return nil
        }
        let parameters = try RequestItems.parameters(from: items)
        let mode = self.mode ?? (files.isEmpty ? (parameters == nil ? nil : .json) : .multipart)
        if !files.isEmpty, mode != .multipart {
            throw RequestItemError(description: "file items (field@path) need a multipart body; drop --\(mode!.rawValue) or use --multipart")
        }

        var serializer = HTTPRequestSerializer(headers: HTTPHeaderFields())
        try serializer.setValue("httpser/\(HTTPSer.version)", forHTTPHeaderField: "User-Agent")
        try serializer.setValue(mode == .json ? "application/json, */*;q=0.5" : "*/*", forHTTPHeaderField: "Accept")
        if let auth { try serializer.setAuthorizationHeader(username: auth.user, password: auth.password) }
        for case .header(let name, let value) in items {
            try serializer.setValue(value, forHTTPHeaderField: name)
        }
        if let timeout { serializer.timeoutInterval = timeout }

        var urlString = url
        let query = items.compactMap { item -> String? in
            guard case .query(let name, let value) = item else { return nil }
            return percentEscaped(name) + "=" + percentEscaped(value)
        }
        if !query.isEmpty {
            guard let parsed = URL(string: url, encodingInvalidCharacters: false) else { throw RequestSerializationError.invalidURL(url) }
            urlString = try parsed.appendingEncodedQuery(query.joined(separator: "&")).absoluteString
        }

        switch mode {
        case .multipart?:
            let request = try serializer.multipartFormRequest(method: method, urlString: urlString, parameters: parameters, boundary: boundary) { form in
                for (name, path, type) in files {
                    let url = URL(fileURLWithPath: path)
                    try form.appendPart(fileURL: url, name: name, fileName: url.lastPathComponent,
                                        mimeType: type ?? MIMETypes.type(forFileName: url.lastPathComponent))
                }
                if let throttle { form.throttleBandwidth(packetSize: throttle.packetSize, delay: throttle.delay) }
            }
            return (request, (request.httpBodyStream as? MultipartBodyStream)?.form)
        case .form?:
            return (try serializer.request(method: method, urlString: urlString, parameters: parameters), nil)
        case .plist?:
            return (try PropertyListRequestSerializer(base: serializer).request(method: method, urlString: urlString, parameters: parameters), nil)
        case .json?, nil:
            // Sorted keys, so the same items always give the same bytes.
            let json = JSONRequestSerializer(base: serializer, writingOptions: [.sortedKeys, .withoutEscapingSlashes])
            return (try json.request(method: method, urlString: urlString, parameters: parameters), nil)
        }
    }
}

/// The exact bytes of a request as HTTP/1.1 would send them, for `--offline`.
enum OfflineRenderer {
    static func render(_ request: URLRequest, form: MultipartFormData?) throws -> Data {
        guard let url = request.url, let components = URLComponents(url: url, resolvingAgainstBaseURL: true) else {
            throw RequestSerializationError.invalidURL(request.url?.absoluteString ?? "")
        }
        let body: Data? = try form.map { try $0.encodedData() } ?? request.httpBody
        var target = components.percentEncodedPath.isEmpty ? "/" : components.percentEncodedPath
        if let query = components.percentEncodedQuery { target += "?" + query }
        var host = components.host ?? ""
        if let port = components.port { host += ":\(port)" }
        var headers = request.allHTTPHeaderFields ?? [:]
        if let body { headers["Content-Length"] = String(body.count) }
        var text = "\(request.httpMethod ?? "GET") \(target) HTTP/1.1\r\nHost: \(host)\r\n"
        for (name, value) in headers.sorted(by: { $0.key.lowercased() < $1.key.lowercased() }) {
            text += "\(name): \(value)\r\n"
        }
        text += "\r\n"
        return Data(text.utf8) + (body ?? Data())
    }
}
