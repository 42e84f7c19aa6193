import HTTPTypes

extension HTTPHeaderFields {
    /// The fields of a swift-http-types `HTTPFields`, in order, repeated fields kept.
    ///
    /// `HTTPFields` turns CR, LF and NUL into spaces when a field is made; this checks every
    /// field again with the same rules as ``setValue(_:forHTTPHeaderField:)``, so a field that
    /// could split a request never gets through either way.
    ///
    /// - Throws: ``RequestSerializationError/invalidHeaderField(name:reason:)`` for an unsafe field.
    public init(_ fields: HTTPFields) throws {
        self.init()
        for field in fields {
            try addValue(field.value, forHTTPHeaderField: field.name.rawName)
        }
    }

    /// The fields as swift-http-types `HTTPFields`, in order, repeated fields kept, names as
    /// they were spelled.
    public var httpFields: HTTPFields {
        var result = HTTPFields()
        result.reserveCapacity(count)
        for field in self {
            // Every name here passed the token check, which is HTTPField.Name's own rule.
            guard let name = HTTPField.Name(field.name) else { continue }
            result.append(HTTPField(name: name, value: field.value))
        }
        return result
    }
}
