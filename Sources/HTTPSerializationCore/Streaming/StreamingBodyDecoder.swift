/// Turns a response body into values as its bytes arrive, whatever the chunking.
///
/// The push half of a streaming serializer: ``ResponseValueStream`` feeds it each chunk the
/// transport delivers and hands on the values a chunk completed. A chunk boundary may fall
/// anywhere (inside a line end, a UTF-8 sequence, a string or a number), so a decoder keeps
/// what it cannot finish yet, within limits it names in its errors.
///
/// The bytes passed to ``decode(_:into:)`` are lent for the call (a `Span` cannot be kept):
/// copy what must outlive it.
public protocol StreamingBodyDecoder {
    /// What the body decodes to, one at a time.
    associatedtype Value

    /// Reads the next bytes of the body and appends the values they completed, in order.
    mutating func decode(_ bytes: Span<UInt8>, into values: inout [Value]) throws

    /// The body has ended: appends what the last bytes completed, or throws for a value the
    /// body left unfinished where the format does not allow that.
    mutating func finish(into values: inout [Value]) throws
}
