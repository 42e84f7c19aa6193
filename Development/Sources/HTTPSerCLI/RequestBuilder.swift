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
    /// The method given, or nil to choose GET without data and POST with it.
    var method: String?
    var url: String
    var items: [RequestItem]
    /// The body style asked for; nil is HTTPie's default, JSON.
    var mode: BodyMode?
    /// A body from standard input or `--raw`, sent as it is.
    var rawBody: Data?
    var boundary: String?
    var throttle: (packetSize: Int, delay: Double)?
    /// The credentials from `--auth` or the URL's user info.
    var credentials: Credentials?

    /// What `Authorization` carries; the library writes the header.
    enum Credentials: Equatable {
        case basic(user: String, password: String)
        case bearer(String)
    }

    /// The request, and its multipart form when it has one.
    func build() throws -> (URLRequest, MultipartFormData?) {
        let dataItems = items.filter(\.isData)
        let bodyFiles = items.compactMap { item -> (String, String?)? in
            if case .bodyFile(let path, let type) = item { return (path, type) }
            return nil
        }
        let hasFileParts = items.contains { if case .file = $0 { return true } else { return false } }
        if rawBody != nil || !bodyFiles.isEmpty {
            guard rawBody == nil || bodyFiles.isEmpty, bodyFiles.count <= 1, dataItems.count == bodyFiles.count else {
                throw RequestItemError(description: "a request body (from standard input, --raw or @file) and request data (name=value) cannot be mixed; pass --ignore-stdin to let the items take priority")
            }
        }
        let mode = try bodyMode(hasFileParts: hasFileParts)
        let method = self.method ?? (dataItems.isEmpty && rawBody == nil ? "GET" : "POST")
        let sendsJSON = mode == .json && (self.mode == .json || !dataItems.isEmpty || rawBody != nil)

        var serializer = HTTPRequestSerializer(headers: try headers(acceptingJSON: sendsJSON))
        // HTTPie's data items always go in the body, whatever the method; query items are `==`.
        serializer.methodsEncodingParametersInURI = []
        let urlString = try urlWithQueryItems()

        if let raw = try rawBody ?? bodyFiles.first.map({ try readBodyFile($0.0) }) {
            // Sent as it is; a Content-Type header item wins over the type named here.
            let type = bodyFiles.first.map { $0.1 ?? MIMETypes.type(forFileName: $0.0) }
                ?? (mode == .form ? "application/x-www-form-urlencoded" : "application/json")
            return (try URLRequest(serializer.httpRequest(method: method, urlString: urlString, body: .bytes(raw), contentType: type)), nil)
        }

        switch mode {
        case .multipart:
            let form = try multipartForm()
            return (try serializer.request(method: method, urlString: urlString, multipartForm: form), form)
        case .form:
            // Fields go out in item order with their names as written, repeats kept, as HTTPie
            // sends them; names and values are escaped the AFNetworking way.
            let fields = try formPairs().map { QueryStringPair(field: $0.0, value: .string($0.1)) }
            return (try URLRequest(serializer.httpRequest(method: method, urlString: urlString, formFields: fields)), nil)
        case .plist:
            let parameters = try tree()
            return (try PropertyListRequestSerializer(base: serializer).request(method: method, urlString: urlString, parameters: parameters), nil)
        case .json:
            let parameters = try tree()
            // Sorted keys, so the same items always give the same bytes.
            let json = JSONRequestSerializer(base: serializer, writingOptions: [.sortedKeys, .withoutEscapingSlashes])
            return (try json.request(method: method, urlString: urlString, parameters: parameters), nil)
        }
    }

    private func bodyMode(hasFileParts: Bool) throws -> BodyMode {
        switch mode {
        case nil, .multipart?:
            return hasFileParts ? .multipart : (mode ?? .json)
        case .form?:
            return hasFileParts ? .multipart : .form
        case let other?:
            if hasFileParts {
                throw RequestItemError(description: "file items (field@path) need a multipart body; use --form or --multipart instead of --\(other.rawValue)")
            }
            return other
        }
    }

    /// The defaults (`User-Agent`, `Accept`, credentials), then the header items in order: a
    /// repeated name adds a value, `Name:` removes the header, `Name;` sends it empty.
    private func headers(acceptingJSON: Bool) throws -> HTTPHeaderFields {
        var headers = HTTPHeaderFields()
        try headers.setValue("httpser/\(HTTPSer.version)", forHTTPHeaderField: "User-Agent")
        try headers.setValue(acceptingJSON ? "application/json, */*;q=0.5" : "*/*", forHTTPHeaderField: "Accept")
        if let credentials {
            var defaults = HTTPRequestSerializer(headers: headers)
            switch credentials {
            case .basic(let user, let password): try defaults.setAuthorizationHeader(username: user, password: password)
            case .bearer(let token): try defaults.setAuthorizationHeader(bearerToken: token)
            }
            headers = defaults.headers
        }
        var given: Set<String> = []
        for item in items {
            let (name, value): (String, String?)
            switch item {
            case .header(let itemName, let itemValue): (name, value) = (itemName, itemValue)
            case .emptyHeader(let itemName): (name, value) = (itemName, "")
            case .removeHeader(let itemName): (name, value) = (itemName, nil)
            default: continue
            }
            let lower = name.lowercased()
            if lower == "content-length" || lower == "transfer-encoding" {
                throw RequestItemError(description: "\(name) is set by httpser from the body it sends (an exact Content-Length); a \(name) item is refused rather than printed and then dropped")
            }
            if let value, given.contains(lower) {
                try headers.addValue(value, forHTTPHeaderField: name)
            } else {
                try headers.setValue(value, forHTTPHeaderField: name)
            }
            given.insert(lower)
        }
        return headers
    }

    private func urlWithQueryItems() throws -> String {
        let query = items.compactMap { item -> String? in
            guard case .query(let name, let value) = item else { return nil }
            return percentEscaped(name) + "=" + percentEscaped(value)
        }
        guard !query.isEmpty else { return url }
        guard let parsed = URL(string: url, encodingInvalidCharacters: false) else { throw RequestSerializationError.invalidURL(url) }
        return try parsed.appendingEncodedQuery(query.joined(separator: "&")).absoluteString
    }

    /// Data items as name and text: forms and multipart fields take names as written
    /// (backslashes included, as HTTPie sends them), and a `:=` value as its JSON text.
    private func formPairs() throws -> [(String, String)] {
        items.compactMap { item in
            switch item {
            case .data(let name, let value): return (name, value)
            case .json(let name, _, let text): return (name, text)
            default: return nil
            }
        }
    }

    private func tree() throws -> ParameterValue? {
        var tree = ParameterTree()
        for item in items {
            switch item {
            case .data(let name, let value): try tree.insert(.string(value), at: name)
            case .json(let name, let value, _): try tree.insert(value, at: name)
            default: continue
            }
        }
        return tree.root
    }

    /// Fields and files as parts, in item order.
    private func multipartForm() throws -> MultipartFormData {
        var form = try boundary.map(MultipartFormData.init(boundary:)) ?? MultipartFormData()
        for item in items {
            switch item {
            case .data(let name, let value):
                try form.appendPart(formData: Data(value.utf8), name: name)
            case .json(let name, _, let text):
                try form.appendPart(formData: Data(text.utf8), name: name)
            case .file(let name, let path, let type):
                let url = URL(fileURLWithPath: path)
                try form.appendPart(fileURL: url, name: name, fileName: url.lastPathComponent,
                                    mimeType: type ?? MIMETypes.type(forFileName: url.lastPathComponent))
            default:
                continue
            }
        }
        if let throttle { form.throttleBandwidth(packetSize: throttle.packetSize, delay: throttle.delay) }
        return form
    }

    private func readBodyFile(_ path: String) throws -> Data {
        do {
            return try FileReading.disk.read(path)
        } catch {
            throw RequestItemError(description: "\"@\(path)\": the file cannot be read (\(FileReading.reason(error)))")
        }
    }
}
