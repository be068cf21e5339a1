/// Which certificates a TLS client accepts from the server.
public enum TLSTrust: Sendable, Hashable {
    /// The system's certificate authorities (OpenSSL's default verify paths, `/etc/ssl/certs` on Debian).
    case systemRoots
    /// The certificates in a PEM file: certificate authorities, or the server's own certificate (a self-signed
    /// one is accepted as its own trust anchor, RFC 5280 §6.1 with a partial chain).
    case certificateFile(String)
    /// Every certificate, unchecked, and no host name check: for tests against throwaway servers only.
    case unverified
}
