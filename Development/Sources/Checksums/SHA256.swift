import CSHA256

/// FIPS 180-4 SHA-256 for the benchmarks' digest checks and the echo server's reports.
///
/// Not for security: a small implementation of the package's own (in C, so it stays fast
/// in debug builds) so the server pieces and benchmarks need no cryptography dependency.
public struct SHA256: Sendable {
    private var context = httpser_sha256()

    public init() {
        httpser_sha256_init(&context)
    }

    public mutating func update(_ bytes: some Sequence<UInt8>) {
        let handled: Void? = bytes.withContiguousStorageIfAvailable { update(UnsafeRawBufferPointer($0)) }
        if handled == nil {
            let copy = Array(bytes)
            copy.withUnsafeBytes { update($0) }
        }
    }

    public mutating func update(_ buffer: UnsafeRawBufferPointer) {
        guard let base = buffer.baseAddress, !buffer.isEmpty else { return }
        httpser_sha256_update(&context, base, buffer.count)
    }

    /// The digest in lower-case hex; the hasher is finished afterwards.
    public mutating func hexDigest() -> String {
        var digest = [UInt8](repeating: 0, count: 32)
        httpser_sha256_final(&context, &digest)
        let hex = Array("0123456789abcdef".utf8)
        return String(decoding: digest.flatMap { [hex[Int($0 >> 4)], hex[Int($0 & 0x0F)]] }, as: UTF8.self)
    }

    public static func hex(_ bytes: some Sequence<UInt8>) -> String {
        var hasher = SHA256()
        hasher.update(bytes)
        return hasher.hexDigest()
    }
}
