import Foundation

/// A self-signed certificate (P-256) for a name and 127.0.0.1, made with the openssl CLI: a TLS peer's identity
/// that the test then trusts, or does not.
public struct SelfSignedCertificate: Sendable {
    /// The PEM certificate's path.
    public var certificate: String
    /// The PEM private key's path.
    public var key: String

    /// Makes `NAME.crt` and `NAME.key` in `directory`.
    /// - Parameters:
    ///   - name: the files' name.
    ///   - commonName: the subject's CN and DNS subjectAltName.
    ///   - directory: where the files go.
    /// - Throws: ``ExternalTool/Failure`` if openssl fails.
    public init(name: String, commonName: String = "localhost", in directory: URL) throws {
        certificate = directory.appendingPathComponent("\(name).crt").path
        key = directory.appendingPathComponent("\(name).key").path
        try ExternalTool.check("openssl", [
            "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes",
            "-keyout", key, "-out", certificate, "-days", "2", "-subj", "/CN=\(commonName)",
            "-addext", "subjectAltName=DNS:\(commonName),IP:127.0.0.1",
        ])
    }
}
