import HTTPTypes

extension HTTPRequest {
    /// Checks that the request can be written as HTTP without corrupting it: a target whose
    /// every part holds only the characters RFC 3986 allows there (no space, raw `[` or `{`
    /// outside an IP literal, `%` only before two hex digits, no `#` in the path), with a host
    /// for `http` and `https`, and header fields without CR, LF, NUL or other controls.
    /// (`HTTPRequest.Method` is a token by construction.)
    ///
    /// Every serializer runs it on the request it is handed.
    ///
    /// - Throws: ``RequestSerializationError/invalidURL(_:)`` or
    ///   ``RequestSerializationError/invalidHeaderField(name:reason:)``.
    public func validateForSending() throws {
        try RequestTarget(self).validate()
        for field in headerFields {
            try HTTPHeaderFields.validate(name: field.name.rawName, value: field.value)
        }
    }
}
