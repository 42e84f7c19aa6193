import HTTPSerializationCore

extension JSONStreamResponseSerializer where Value: Decodable & SendableMetatype {
    /// Values decoded into `type`, one a line, with the package's decoder.
    ///
    /// ```swift
    /// let events = JSONStreamResponseSerializer(decoding: LogEntry.self)
    /// for try await entry in events.values(for: head, body: chunks) { print(entry.message) }
    /// ```
    ///
    /// A line that is JSON but not a `type` is ``/HTTPSerializationCore/StreamingResponseError/undecodableValue(line:underlying:)``
    /// with the `DecodingError`.
    public init(decoding type: Value.Type, decoder: JSONBodyDecoder = JSONBodyDecoder()) {
        self.init { bytes, depth in
            var decoder = decoder
            decoder.maximumDepth = min(decoder.maximumDepth, depth)
            return try decoder.decode(Value.self, utf8: bytes)
        }
    }
}
