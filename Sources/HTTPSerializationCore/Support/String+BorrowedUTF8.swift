extension String {
    /// Runs `body` over the string's UTF-8: a native string lends its storage (no copy, no
    /// retain, which `withUTF8` on a `var` copy costs); any other is made contiguous first.
    @inlinable
    package func withBorrowedUTF8<Result>(_ body: (UnsafeBufferPointer<UInt8>) throws -> Result) rethrows -> Result {
        if let result = try utf8.withContiguousStorageIfAvailable(body) { return result }
        var copy = self
        return try copy.withUTF8(body)
    }
}
