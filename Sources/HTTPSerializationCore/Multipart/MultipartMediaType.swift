/// Which kind of multipart body a ``MultipartFormData`` writes: `form-data` (the default),
/// or another subtype of RFC 2046 with its parameters, such as `mixed` or RFC 2387's `related`.
///
/// The body is written, streamed and checked the same way for every subtype; only its
/// `Content-Type` differs. Google's and Microsoft's batch and upload APIs take `mixed` and
/// `related` bodies.
///
/// ```swift
/// var upload = try MultipartFormData(mediaType: .related(type: "application/json", start: "<meta@upload>"))
/// upload.appendPart(headers: try HTTPHeaderFields(["Content-Type": "application/json", "Content-ID": "<meta@upload>"]), body: metadata)
/// try upload.appendPart(headers: try HTTPHeaderFields(["Content-Type": "image/png"]), fileURL: photo)
/// ```
public struct MultipartMediaType: Sendable, Hashable, CustomStringConvertible {
    /// The subtype, lower-cased: `form-data`, `mixed`, `related`, `alternative`, …
    public let subtype: String
    /// Parameters after `boundary`, in order (`type`, `start`, …).
    public let parameters: [Parameter]

    /// One `name=value` parameter of the `Content-Type`.
    public struct Parameter: Sendable, Hashable {
        /// The parameter's name, a token, lower-cased.
        public let name: String
        /// The value, written quoted when it is not a token.
        public let value: String
    }

    /// `multipart/form-data` (RFC 7578): named fields and files.
    public static let formData = MultipartMediaType(checked: "form-data", [])
    /// `multipart/mixed` (RFC 2046 §5.1.3): independent parts in order.
    public static let mixed = MultipartMediaType(checked: "mixed", [])
    /// `multipart/alternative` (RFC 2046 §5.1.4): the same content in several forms, best last.
    public static let alternative = MultipartMediaType(checked: "alternative", [])

    /// `multipart/related` (RFC 2387): parts that make one object, with the root part's
    /// media type, and its `Content-ID` when the root is not the first part.
    ///
    /// - Throws: ``RequestSerializationError/invalidHeaderField(name:reason:)`` for a value a
    ///   header cannot carry (control characters, non-ASCII).
    public static func related(type: String, start: String? = nil, startInfo: String? = nil) throws -> MultipartMediaType {
        var parameters = [("type", type)]
        if let start { parameters.append(("start", start)) }
        if let startInfo { parameters.append(("start-info", startInfo)) }
        return try MultipartMediaType(subtype: "related", parameters: parameters)
    }

    /// Any multipart subtype with parameters, checked so nothing can end the header line.
    ///
    /// - Throws: ``RequestSerializationError/invalidHeaderField(name:reason:)`` for a subtype
    ///   or parameter name that is not a token, a parameter named `boundary` (the form sets
    ///   it), or a value with control characters or non-ASCII.
    public init(subtype: String, parameters: [(name: String, value: String)] = []) throws {
        guard Self.isToken(subtype) else {
            throw RequestSerializationError.invalidHeaderField(name: "Content-Type", reason: "the multipart subtype \"\(subtype)\" is not a token")
        }
        var seen: Set<String> = ["boundary"]
        for (name, value) in parameters {
            guard Self.isToken(name), seen.insert(name.lowercased()).inserted else {
                throw RequestSerializationError.invalidHeaderField(
                    name: "Content-Type", reason: "\"\(name)\" cannot name a parameter here (a token, not boundary, not given twice)")
            }
            guard value.utf8.allSatisfy({ (0x20..<0x7F).contains($0) || $0 == 0x09 }) else {
                throw RequestSerializationError.invalidHeaderField(
                    name: "Content-Type", reason: "the \(name) parameter holds a control character or non-ASCII")
            }
        }
        self.init(checked: subtype.lowercased(), parameters.map { Parameter(name: $0.name.lowercased(), value: $0.value) })
    }

    private init(checked subtype: String, _ parameters: [Parameter]) {
        self.subtype = subtype
        self.parameters = parameters
    }

    /// `multipart/SUBTYPE` and the parameters after `boundary`, as a `Content-Type` writes them.
    public var description: String {
        "multipart/" + subtype + parameters.map { "; \($0.name)=\(Self.quotedIfNeeded($0.value))" }.joined()
    }

    /// The `Content-Type` of a body with `boundary`.
    func contentType(boundary: String) -> String {
        let boundaryText = MultipartBoundary.needsQuoting(boundary) ? "\"\(boundary)\"" : boundary
        return "multipart/" + subtype + "; boundary=" + boundaryText + parameters.map { "; \($0.name)=\(Self.quotedIfNeeded($0.value))" }.joined()
    }

    /// A token as it is, anything else as a quoted string with `"` and `\` escaped (RFC 9110 §5.6.4).
    static func quotedIfNeeded(_ value: String) -> String {
        guard !isToken(value) else { return value }
        var quoted = "\""
        for character in value.unicodeScalars {
            if character == "\"" || character == "\\" { quoted.append("\\") }
            quoted.unicodeScalars.append(character)
        }
        return quoted + "\""
    }

    /// RFC 9110 `token`, as header names are checked.
    static func isToken(_ text: String) -> Bool {
        HTTPHeaderFields.isToken(text)
    }
}
