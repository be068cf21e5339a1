#if OpenSSL
import COpenSSL
#endif

/// A self-signed certificate for DTLS-SRTP with its ECDSA P-256 key, made when a session starts, as browsers do
/// (RFC 8827 §6.5: peers are authenticated by the fingerprint in the SDP, not by a CA). Immutable once made; one
/// certificate may serve many sessions.
public final class DTLSCertificate: @unchecked Sendable {
    /// The SHA-256 fingerprint of the DER certificate, for `a=fingerprint` (RFC 8122 §5).
    public let fingerprint: DTLSFingerprint

    #if OpenSSL
    let certificate: OpaquePointer
    let privateKey: OpaquePointer

    /// Generates an ECDSA P-256 key and a self-signed X.509 v3 certificate over it (SHA-256 signature), valid from
    /// a day ago for 30 days, with the subject `CN=StreamKit`.
    /// - Throws: ``DTLSError/setupFailed(reason:)`` when OpenSSL fails.
    public init() throws(DTLSError) {
        ERR_clear_error()
        guard let keyContext = EVP_PKEY_CTX_new_from_name(nil, "EC", nil) else {
            throw .setupFailed(reason: "no EC key generator: \(OpenSSLErrors.text())")
        }
        defer { EVP_PKEY_CTX_free(keyContext) }
        var key: OpaquePointer?
        guard EVP_PKEY_keygen_init(keyContext) == 1, EVP_PKEY_CTX_set_group_name(keyContext, "P-256") == 1,
              EVP_PKEY_generate(keyContext, &key) == 1, let key
        else { throw .setupFailed(reason: "cannot generate a P-256 key: \(OpenSSLErrors.text())") }
        guard let certificate = X509_new() else {
            EVP_PKEY_free(key)
            throw .setupFailed(reason: "X509_new failed")
        }
        var serial: UInt32 = 0
        _ = withUnsafeMutableBytes(of: &serial) { RAND_bytes($0.baseAddress!.assumingMemoryBound(to: UInt8.self), 4) }
        let name = X509_get_subject_name(certificate)
        let ok = X509_set_version(certificate, 2) == 1
            && ASN1_INTEGER_set(X509_get_serialNumber(certificate), Int(serial & 0x7FFF_FFFF) | 1) == 1
            && X509_gmtime_adj(X509_getm_notBefore(certificate), -86_400) != nil
            && X509_gmtime_adj(X509_getm_notAfter(certificate), 30 * 86_400) != nil
            && X509_set_pubkey(certificate, key) == 1
            && X509_NAME_add_entry_by_txt(name, "CN", streamkit_mbstring_asc(), "StreamKit", -1, -1, 0) == 1
            && X509_set_issuer_name(certificate, name) == 1
            && X509_sign(certificate, key, EVP_sha256()) > 0
        guard ok else {
            X509_free(certificate)
            EVP_PKEY_free(key)
            throw .setupFailed(reason: "cannot make the self-signed certificate: \(OpenSSLErrors.text())")
        }
        do {
            fingerprint = try Self.fingerprint(of: certificate)
        } catch {
            X509_free(certificate)
            EVP_PKEY_free(key)
            throw error
        }
        self.certificate = certificate
        self.privateKey = key
    }

    deinit {
        X509_free(certificate)
        EVP_PKEY_free(privateKey)
    }

    /// The SHA-256 fingerprint of an X.509 certificate (`X509_digest` over its DER form).
    static func fingerprint(of certificate: OpaquePointer) throws(DTLSError) -> DTLSFingerprint {
        var digest = [UInt8](repeating: 0, count: 64)
        var length: UInt32 = 0
        guard X509_digest(certificate, EVP_sha256(), &digest, &length) == 1, length == 32 else {
            throw .setupFailed(reason: "cannot hash the certificate: \(OpenSSLErrors.text())")
        }
        return try DTLSFingerprint(sha256: Array(digest.prefix(32)))
    }
    #else
    /// A build without OpenSSL cannot make certificates.
    /// - Throws: ``DTLSError/unavailable``.
    public init() throws(DTLSError) { throw .unavailable }
    #endif
}
