extension ParameterValue {
    /// A `Float` as a number that every encoder writes with the `Float`'s own shortest digits.
    ///
    /// `.double(Double(value))` carries the `Float`'s binary value, whose shortest `Double` text
    /// is long (`0.10000000149011612` for `Float(0.1)`). This value holds the `Double` that the
    /// `Float`'s shortest text reads as instead, so forms, queries, multipart fields and JSON all
    /// write `0.1`, as `Float(0.1).description` does, and the text reads back as the same `Float`.
    /// Models encoded with `ParameterValue(encoding:)` get this for their `Float` properties.
    ///
    /// ```swift
    /// let parameters: ParameterValue = ["ratio": ParameterValue(Float(0.1))]
    /// queryString(from: parameters)  // "ratio=0.1"
    /// ```
    public init(_ value: Float) {
        self = .double(Self.shortestDouble(value.description, binary: Double(value)))
    }

    #if !((os(macOS) || targetEnvironment(macCatalyst)) && arch(x86_64))
    /// A `Float16` written with its own shortest digits (`0.1`, not `0.099975586`), which read
    /// back as the same `Float16`.
    @available(macOS 11, iOS 14, tvOS 14, watchOS 7, *)
    package init(_ value: Float16) {
        self = .double(Self.shortestDouble(value.description, binary: Double(value)))
    }
    #endif

    /// The `Double` that a binary float's shortest text reads as. The text has at most nine
    /// significant digits, fewer than a `Double`'s fifteen that always survive a round trip,
    /// so that `Double` prints as the same digits. Infinities and NaN keep their binary value.
    private static func shortestDouble(_ text: String, binary: Double) -> Double {
        guard binary.isFinite else { return binary }
        return Double(text) ?? binary
    }
}
