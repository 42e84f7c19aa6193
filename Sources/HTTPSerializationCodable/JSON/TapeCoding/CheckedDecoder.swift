/// The decoder a ``JSONTapeObject`` reads through, held strongly and checked at every use, so
/// that an object kept past the decode that opened it traps where it is used, in every build,
/// rather than reading the memory the decode lent it.
///
/// The check compares the document's count of ended decodes (``JSONTapeDocument/endedDecodes``)
/// with the count when the object was opened. ``JSONTapeValue`` needs no check: it cannot be
/// copied and is only handed on `borrowing`, so the compiler keeps it from outliving its call.
/// ``JSONTextReader`` cannot be copied either, and its decode checks as it ends that the reader
/// it gets back is its own (`JSONBodyDecoder`'s text decode).
struct CheckedDecoder {
    private let decoder: JSONTapeDecoder
    private let endedDecodes: UInt

    init(_ decoder: JSONTapeDecoder) {
        self.decoder = decoder
        endedDecodes = decoder.document.endedDecodes
    }

    /// The decoder, once the check passed.
    var checked: JSONTapeDecoder {
        check()
        return decoder
    }

    /// Traps when the decode that opened the object has returned.
    func check() {
        precondition(decoder.document.endedDecodes == endedDecodes, """
            A JSON reader was used after the decode that made it returned: a JSONTapeObject is valid only during \
            the call that opened it, and generated code never keeps one.
            """)
    }
}
