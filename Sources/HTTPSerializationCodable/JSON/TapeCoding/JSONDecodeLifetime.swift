#if DEBUG
/// Whether the decode that lent a generated reader its memory is still running: debug builds
/// only, so that a ``JSONTapeValue``, ``JSONTapeObject`` or ``JSONTextReader`` kept past its
/// decode traps where it is used, rather than reading memory that is gone.
///
/// Release builds hold no such object: the readers there keep an unowned, unchecked reference
/// to the decoder and a pointer into the text, which is what makes them fast.
@usableFromInline
final class JSONDecodeLifetime {
    /// Set by the decode as it returns.
    @usableFromInline var ended = false

    @usableFromInline init() {}

    /// Traps when the decode has returned.
    @inlinable
    func check() {
        precondition(!ended, """
            A JSON reader was used after the decode that made it returned: JSONTapeValue, JSONTapeObject and \
            JSONTextReader are valid only during the call they are passed to, and generated code never keeps them.
            """)
    }
}

/// A decoder held by a ``JSONTapeValue`` or ``JSONTapeObject`` in debug builds, with the
/// document's lifetime when the value was made: every use checks it, so a value kept past its
/// call traps instead of reading freed memory.
struct CheckedDecoder {
    private let decoder: JSONTapeDecoder
    private let lifetime: JSONDecodeLifetime

    init(_ decoder: JSONTapeDecoder) {
        self.decoder = decoder
        lifetime = decoder.document.lifetime
    }

    /// The decoder, once the check passed.
    var checked: JSONTapeDecoder {
        lifetime.check()
        return decoder
    }
}
#endif
