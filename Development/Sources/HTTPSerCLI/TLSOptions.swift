import NIOSSL

/// `--verify`, `--cert` and `--cert-key`, as HTTPie spells them, turned into the TLS
/// configuration async-http-client uses.
struct TLSOptions {
    /// `yes` (the default), `no`, or the path of a PEM file of trusted CA certificates.
    var verify: String?
    /// A PEM client certificate (chain), and its key when the file does not hold it.
    var certificate: String?
    var certificateKey: String?

    /// Nil when nothing differs from async-http-client's defaults.
    func configuration() throws -> TLSConfiguration? {
        guard verify != nil || certificate != nil else {
            if certificateKey != nil { throw RequestItemError(description: "--cert-key needs --cert") }
            return nil
        }
        var tls = TLSConfiguration.makeClientConfiguration()
        switch verify?.lowercased() {
        case nil, "yes", "true":
            break
        case "no", "false":
            tls.certificateVerification = .none
        default:
            let path = verify ?? ""
            do {
                tls.trustRoots = .certificates(try NIOSSLCertificate.fromPEMFile(path))
            } catch {
                throw RequestItemError(description: "--verify: \(path) is not yes, no or a readable PEM file of CA certificates (\(error))")
            }
        }
        if let certificate {
            do {
                tls.certificateChain = try NIOSSLCertificate.fromPEMFile(certificate).map { .certificate($0) }
                tls.privateKey = .privateKey(try NIOSSLPrivateKey(file: certificateKey ?? certificate, format: .pem))
            } catch {
                throw RequestItemError(description: "--cert: the certificate or its key cannot be read from \(certificateKey ?? certificate) (\(error))")
            }
        }
        return tls
    }
}
