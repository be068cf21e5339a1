/// Why a DTLS-SRTP session (``DTLSEngine``) could not be set up or failed.
public enum DTLSError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The build has no OpenSSL (the `OpenSSL` trait is off).
    case unavailable
    /// OpenSSL refused the certificate, the key or a setting (`reason`: its error queue).
    case setupFailed(reason: String)
    /// The text of an SDP `a=fingerprint` is not `sha-256` followed by 32 colon-separated hex bytes.
    case malformedFingerprint(text: String, reason: String)
    /// The peer's certificate does not hash to the fingerprint of the remote SDP (RFC 8122 §5, RFC 5763 §5).
    case fingerprintMismatch(expected: DTLSFingerprint, actual: DTLSFingerprint)
    /// The peer presented no certificate (RFC 5763 §5 requires one from both sides).
    case noPeerCertificate
    /// The peer agreed on none of our SRTP protection profiles (RFC 5764 §4.1.2).
    case noSRTPProfile
    /// The handshake failed (`reason`: OpenSSL's error queue, or the alert the peer sent).
    case handshakeFailed(reason: String)
    /// The flight was retransmitted until OpenSSL gave up (RFC 6347 §4.2.4.1).
    case handshakeTimedOut
    /// The keying material exporter failed (RFC 5705).
    case keyExportFailed(reason: String)
    /// A record after the handshake could not be processed, or application data could not be sent.
    case recordFailed(reason: String)

    /// A sentence for logs.
    public var description: String {
        switch self {
        case .unavailable: "DTLS: built without OpenSSL (enable the OpenSSL trait)"
        case let .setupFailed(reason): "DTLS: setup failed: \(reason)"
        case let .malformedFingerprint(text, reason): "DTLS: fingerprint \"\(text)\" is malformed: \(reason)"
        case let .fingerprintMismatch(expected, actual):
            "DTLS: the peer's certificate has fingerprint \(actual.sdpValue), the SDP promised \(expected.sdpValue)"
        case .noPeerCertificate: "DTLS: the peer sent no certificate"
        case .noSRTPProfile: "DTLS: the peer negotiated no SRTP protection profile we offer (use_srtp)"
        case let .handshakeFailed(reason): "DTLS: handshake failed: \(reason)"
        case .handshakeTimedOut: "DTLS: handshake timed out (flight retransmitted too often)"
        case let .keyExportFailed(reason): "DTLS: keying material export failed: \(reason)"
        case let .recordFailed(reason): "DTLS: record failed: \(reason)"
        }
    }
}
