/// How a ``TLSConnection`` connects: the server's name and which certificates it trusts.
///
/// Certificate verification is on by default (``TLSTrust/systemRoots``) and the certificate must name
/// ``serverName`` (RFC 6125 host name check; an IP address is checked against the certificate's IP SANs).
public struct TLSConfiguration: Sendable, Hashable {
    /// The host name sent as SNI (RFC 6066 §3; not for an IP address) and checked against the certificate.
    public var serverName: String
    /// Which certificates are accepted.
    public var trust: TLSTrust

    /// A client configuration.
    /// - Parameters:
    ///   - serverName: the server's host name (or IP address) as in the URL.
    ///   - trust: which certificates are accepted; the system's roots unless given.
    public init(serverName: String, trust: TLSTrust = .systemRoots) {
        self.serverName = serverName
        self.trust = trust
    }

    /// Whether ``serverName`` is an IPv4 or IPv6 literal (no SNI then; checked against IP SANs).
    var serverNameIsAddress: Bool {
        if serverName.contains(":") { return true }
        let parts = serverName.split(separator: ".", omittingEmptySubsequences: false)
        return parts.count == 4 && parts.allSatisfy { part in
            !part.isEmpty && part.count <= 3 && part.allSatisfy(\.isASCII) && part.allSatisfy(\.isNumber)
        }
    }
}
